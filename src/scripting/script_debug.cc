// Copyright 2026 The rankd Authors. SPDX-License-Identifier: Apache-2.0
//
// EVAL under the Lua debugger: the session around a script run
// (script_engine.h EvalDebugged; the debugger itself is
// script_debugger.h). As in Redis, a SYNC session blocks the whole server
// while the client steps through the script, and its writes stay; a YES
// session runs in a fork()ed child on a copy of the data, so nothing it
// writes reaches the server, which closes the client at once.

#include <poll.h>
#include <signal.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>

#include "base/logging.h"
#include "net/connection.h"
#include "scripting/script_debugger.h"
#include "scripting/script_engine.h"

namespace rankd {
namespace {

constexpr int kSendTimeoutMs = 5000;  // as Redis's debugging connection

// Talks to the client's socket directly while the event loop waits, as
// Redis's debugger does. The session starts right after SCRIPT DEBUG was
// answered outside a pipeline, so nothing is pending either way (a TLS
// connection cannot be served this way: see docs/scripting.md).
class SocketChannel : public DebugChannel {
 public:
  explicit SocketChannel(int fd) : fd_(fd) {}
  bool Send(std::string_view bytes) override {
    while (!bytes.empty()) {
      ssize_t n = send(fd_, bytes.data(), bytes.size(), MSG_NOSIGNAL);
      if (n > 0) {
        bytes.remove_prefix(static_cast<size_t>(n));
        continue;
      }
      if (n < 0 && errno == EINTR) continue;
      pollfd p{fd_, POLLOUT, 0};
      if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK) && poll(&p, 1, kSendTimeoutMs) > 0) {
        continue;
      }
      return false;
    }
    return true;
  }
  bool Receive(std::string* buf) override {
    char chunk[1024];
    for (;;) {
      pollfd p{fd_, POLLIN, 0};
      if (poll(&p, 1, -1) < 0 && errno != EINTR) return false;
      ssize_t n = read(fd_, chunk, sizeof(chunk));
      if (n > 0) {
        buf->append(chunk, static_cast<size_t>(n));
        return true;
      }
      if (n == 0 || (errno != EINTR && errno != EAGAIN && errno != EWOULDBLOCK)) return false;
    }
  }

 private:
  const int fd_;
};

}  // namespace

void ScriptEngine::EvalDebugged(Client& caller, DebugMode mode, std::string_view script,
                                bool read_only,
                                std::span<const std::string_view> keys,
                                std::span<const std::string_view> args) {
  const bool forked = mode == DebugMode::kFork;
  Connection* conn = caller.conn;
  if (forked) {
    const pid_t pid = fork();
    if (pid < 0) {
      return caller.reply->Error(std::string("ERR Fork() failed: can't run EVAL in debugging mode: ") +
                                 strerror(errno));
    }
    if (pid > 0) {
      debug_children_.push_back(pid);
      conn->Kill();  // the child serves this client from now on
      return;
    }
    signal(SIGTERM, SIG_IGN);
    signal(SIGINT, SIG_IGN);
    LOG_WARNING("Redis forked for debugging eval");
  } else {
    LOG_WARNING("Redis synchronous debugging eval session started");
  }
  SocketChannel channel(conn->fd());
  LuaDebugger debugger(&channel, script, server_->config().busy_reply_threshold);
  eval_->set_debugger(&debugger);
  EvalNow(caller, script, /*by_sha=*/false, read_only, keys, args);
  eval_->set_debugger(nullptr);
  debugger.EndSession();
  if (forked) {
    // The EVAL's reply: the unsent end of the connection's output.
    const std::string& out = conn->reply()->buffer();
    channel.Send(std::string_view(out).substr(out.size() - conn->output_buffer_size()));
    LOG_WARNING("Lua debugging session child exiting");
    _exit(0);
  }
  LOG_WARNING("Redis synchronous debugging eval session ended");
  conn->CloseAfterReply();  // the close tells the client the session is over
}

void ScriptEngine::ReapDebugSessions(bool kill) {
  std::erase_if(debug_children_, [&](int pid) {
    if (kill) {
      LOG_WARNING("Killing debugging session %d", pid);
      ::kill(pid, SIGKILL);
    }
    int status = 0;
    return waitpid(pid, &status, kill ? 0 : WNOHANG) != 0;
  });
}

}  // namespace rankd

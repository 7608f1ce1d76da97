// Copyright 2026 The rankd Authors. SPDX-License-Identifier: Apache-2.0
//
// The bus's sockets: the listener, outbound connects, reading whole
// messages off a link and writing queued bytes.

#include "cluster/bus.h"

#include <arpa/inet.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <sys/epoll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>

#include "absl/container/flat_hash_map.h"
#include "base/clock.h"
#include "base/logging.h"
#include "cluster/cluster.h"

namespace rankd {
namespace {

void NonBlocking(int fd) {
  fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK);
  int one = 1;
  setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof(one));
}

// A sockaddr for `ip`:`port` (IPv4 or IPv6). False when `ip` is neither.
bool MakeAddr(const std::string& ip, int port, sockaddr_storage* ss, socklen_t* len) {
  memset(ss, 0, sizeof(*ss));
  auto* v4 = reinterpret_cast<sockaddr_in*>(ss);
  auto* v6 = reinterpret_cast<sockaddr_in6*>(ss);
  if (inet_pton(AF_INET, ip.c_str(), &v4->sin_addr) == 1) {
    v4->sin_family = AF_INET;
    v4->sin_port = htons(static_cast<uint16_t>(port));
    *len = sizeof(*v4);
    return true;
  }
  if (inet_pton(AF_INET6, ip.c_str(), &v6->sin6_addr) == 1) {
    v6->sin6_family = AF_INET6;
    v6->sin6_port = htons(static_cast<uint16_t>(port));
    *len = sizeof(*v6);
    return true;
  }
  return false;
}

}  // namespace

ClusterBus::ClusterBus(Cluster& cluster) : cluster_(cluster) {}

ClusterBus::~ClusterBus() {
  CloseAllLinks();
  for (int fd : listen_fds_) {
    cluster_.server().loop().RemoveFd(fd);
    close(fd);
  }
}

Status ClusterBus::Listen(const std::vector<std::string>& binds, int port) {
  for (std::string addr : binds) {
    const bool optional = !addr.empty() && addr[0] == '-';
    if (optional) addr.erase(0, 1);
    if (addr == "*") addr = "0.0.0.0";
    if (addr == "::*") addr = "::";
    sockaddr_storage ss;
    socklen_t len = 0;
    if (!MakeAddr(addr, port, &ss, &len)) {
      return Status::InvalidArgument("bad bind address for the cluster bus: " + addr);
    }
    const int fd = socket(ss.ss_family, SOCK_STREAM | SOCK_CLOEXEC, 0);
    int one = 1;
    setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one));
    if (ss.ss_family == AF_INET6) setsockopt(fd, IPPROTO_IPV6, IPV6_V6ONLY, &one, sizeof(one));
    if (fd < 0 || bind(fd, reinterpret_cast<sockaddr*>(&ss), len) != 0 || listen(fd, 511) != 0) {
      const std::string why = strerror(errno);
      if (fd >= 0) close(fd);
      if (optional) continue;
      return Status::InvalidArgument("Could not bind the cluster bus on " + addr + ":" +
                                     std::to_string(port) + ": " + why);
    }
    NonBlocking(fd);
    listen_fds_.push_back(fd);
    cluster_.server().loop().AddFd(fd, EPOLLIN, [this, fd](uint32_t) { Accept(fd); });
  }
  return Status::OK();
}

void ClusterBus::Accept(int listen_fd) {
  for (int i = 0; i < 1000; i++) {
    const int fd = accept4(listen_fd, nullptr, nullptr, SOCK_CLOEXEC);
    if (fd < 0) return;
    NonBlocking(fd);
    auto link = std::make_unique<ClusterLink>();
    link->fd = fd;
    link->inbound = true;
    link->ctime_ms = WallMs();
    ClusterLink* l = link.get();
    links_.push_back(std::move(link));
    cluster_.server().loop().AddFd(fd, EPOLLIN, [this, l](uint32_t ev) { OnEvents(l, ev); });
  }
}

bool ClusterBus::Connect(ClusterNode* n) {
  sockaddr_storage ss;
  socklen_t len = 0;
  if (!MakeAddr(n->ip, n->cport, &ss, &len)) return false;
  const int fd = socket(ss.ss_family, SOCK_STREAM | SOCK_CLOEXEC, 0);
  if (fd < 0) return false;
  NonBlocking(fd);
  if (connect(fd, reinterpret_cast<sockaddr*>(&ss), len) != 0 && errno != EINPROGRESS) {
    close(fd);
    return false;
  }
  auto link = std::make_unique<ClusterLink>();
  link->fd = fd;
  link->connecting = true;
  link->node = n;
  link->ctime_ms = WallMs();
  n->link = link.get();
  ClusterLink* l = link.get();
  links_.push_back(std::move(link));
  cluster_.server().loop().AddFd(fd, EPOLLOUT, [this, l](uint32_t ev) { OnEvents(l, ev); });
  return true;
}

void ClusterBus::OnEvents(ClusterLink* link, uint32_t events) {
  if (link->fd < 0) return;
  if (link->connecting) {
    int err = 0;
    socklen_t len = sizeof(err);
    getsockopt(link->fd, SOL_SOCKET, SO_ERROR, &err, &len);
    if (err != 0 || (events & (EPOLLERR | EPOLLHUP))) {
      FreeLink(link);
      return;
    }
    OnConnected(link);
  }
  if (link->fd >= 0 && (events & (EPOLLIN | EPOLLERR | EPOLLHUP))) ReadFrom(link);
  if (link->fd >= 0 && (events & EPOLLOUT)) Flush(link);
}

void ClusterBus::OnConnected(ClusterLink* link) {
  link->connecting = false;
  ClusterNode* n = link->node;
  // A MEET for a node met by CLUSTER MEET, else a PING; the ping's send
  // time is the older one when a ping was already pending.
  const int64_t old_ping = n->ping_sent_ms;
  SendPing(link, (n->flags & kNodeMeet) ? kMsgMeet : kMsgPing);
  if (old_ping) n->ping_sent_ms = old_ping;
  n->flags &= ~kNodeMeet;
}

void ClusterBus::ReadFrom(ClusterLink* link) {
  char buf[16 * 1024];
  for (;;) {
    const ssize_t r = read(link->fd, buf, sizeof(buf));
    if (r == 0 || (r < 0 && errno != EAGAIN && errno != EINTR)) {
      FreeLink(link);
      return;
    }
    if (r < 0) break;
    link->in.append(buf, static_cast<size_t>(r));
    while (link->fd >= 0 && link->in.size() >= 8) {
      const uint32_t len = BusMsgLength(link->in);
      if (len == 0 || len < kBusHeaderLen) {
        LOG_WARNING("Bad message length or signature received on the cluster bus; "
                    "closing the link");
        FreeLink(link);
        return;
      }
      if (link->in.size() < len) break;
      BusMsg m;
      const std::string why = DecodeBusMsg(std::string_view(link->in).substr(0, len), &m);
      if (!why.empty()) {
        LOG_WARNING("Dropped a malformed cluster bus message (%s); closing the link",
                    why.c_str());
        FreeLink(link);
        return;
      }
      link->in.erase(0, len);
      Process(link, m);
    }
    if (static_cast<size_t>(r) < sizeof(buf)) break;
  }
}

void ClusterBus::Send(ClusterLink* link, const BusMsg& m) {
  if (link->fd < 0) return;
  link->out += EncodeBusMsg(m);
  if (m.type < kMsgTypeCount) sent_[m.type]++;
  if (!link->connecting) Flush(link);
}

void ClusterBus::Flush(ClusterLink* link) {
  while (link->out_pos < link->out.size()) {
    const ssize_t w = write(link->fd, link->out.data() + link->out_pos,
                            link->out.size() - link->out_pos);
    if (w < 0 && (errno == EAGAIN || errno == EINTR)) break;
    if (w <= 0) {
      FreeLink(link);
      return;
    }
    link->out_pos += static_cast<size_t>(w);
  }
  const bool pending = link->out_pos < link->out.size();
  if (!pending) {
    link->out.clear();
    link->out_pos = 0;
  }
  cluster_.server().loop().ModifyFd(link->fd, EPOLLIN | (pending ? static_cast<uint32_t>(EPOLLOUT) : 0u));
}

void ClusterBus::FreeLink(ClusterLink* link) {
  if (link->fd < 0) return;
  cluster_.server().loop().RemoveFd(link->fd);
  close(link->fd);
  link->fd = -1;
  if (ClusterNode* n = link->node) {
    // A connect that failed counts as a ping sent and not answered, so an
    // unreachable node is found failing.
    if (link->connecting && n->ping_sent_ms == 0) n->ping_sent_ms = WallMs();
    if (n->link == link) n->link = nullptr;
    if (n->inbound_link == link) n->inbound_link = nullptr;
  }
  link->node = nullptr;
  auto it = std::find_if(links_.begin(), links_.end(),
                         [link](const auto& l) { return l.get() == link; });
  if (it != links_.end()) {
    closed_.push_back(std::move(*it));
    links_.erase(it);
  }
}

void ClusterBus::KillLinks(ClusterNode* n, bool to, bool from) {
  if (to && n->link) FreeLink(n->link);
  if (from && n->inbound_link) FreeLink(n->inbound_link);
}

void ClusterBus::Reap() { closed_.clear(); }

void ClusterBus::FreeLinksOverLimit(size_t limit) {
  if (limit == 0) return;
  for (size_t i = 0; i < links_.size();) {
    ClusterLink* link = links_[i].get();
    if (link->out.capacity() <= limit) {
      i++;
      continue;
    }
    LOG_VERBOSE("Freeing cluster link to node %s: its send buffer (%zu bytes) is over "
                "cluster-link-sendbuf-limit",
                link->node ? link->node->id.c_str() : "(unknown)", link->out.capacity());
    links_over_limit_++;
    FreeLink(link);  // moves it out of links_
  }
}

size_t ClusterBus::LinksMemory() const {
  size_t bytes = 0;
  for (const auto& l : links_) bytes += sizeof(ClusterLink) + l->out.capacity() + l->in.capacity();
  return bytes;
}

void ClusterBus::CloseAllLinks() {
  while (!links_.empty()) FreeLink(links_.back().get());
}

void ClusterBus::Broadcast(const BusMsg& m) {
  for (ClusterNode* n : cluster_.state().nodes()) {
    if (n->is_myself() || n->in_handshake() || !n->link || n->link->connecting) continue;
    Send(n->link, m);
  }
}

void ClusterBus::DeleteNode(ClusterNode* n) {
  if (n->link) FreeLink(n->link);
  if (n->inbound_link) FreeLink(n->inbound_link);
  for (auto& l : links_) {
    if (l->node == n) l->node = nullptr;
  }
  cluster_.state().RemoveNode(n);
  cluster_.state().Todo(ClusterState::kTodoSaveConfig | ClusterState::kTodoUpdateState);
}

void ClusterBus::Blacklist(const std::string& id) { blacklist_[id] = WallMs() + 60000; }

bool ClusterBus::Blacklisted(const std::string& id) {
  const int64_t now = WallMs();
  absl::erase_if(blacklist_, [now](const auto& e) { return e.second < now; });
  return blacklist_.contains(id);
}

}  // namespace rankd

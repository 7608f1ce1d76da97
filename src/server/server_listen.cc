// Copyright 2026 The rankd Authors. SPDX-License-Identifier: Apache-2.0
//
// The server's listeners: opened at start-up (TCP on `bind` at `port`, the
// Unix socket, TLS), and moved by CONFIG SET port / bind, which Redis
// allows at run time: the new ones are opened before the setting changes,
// and a failure leaves the old ones listening and the setting as it was.

#include <string>

#include "base/logging.h"
#include "base/memory.h"
#include "server/server.h"

namespace rankd {

std::string Server::MoveListeners(const Config& next) {
  if (next.port == config_.port && next.bind == config_.bind) return "";
  Status s = net_.Relisten(next.bind, static_cast<int>(next.port), config_.bind);
  if (s.ok()) return "";
  LOG_WARNING("CONFIG SET could not move the listeners: %s", s.message().c_str());
  if (next.bind != config_.bind) {
    return "CONFIG SET failed (possibly related to argument 'bind') - Failed to bind to "
           "specified addresses.";
  }
  return "CONFIG SET failed (possibly related to argument 'port') - Unable to listen on this port";
}

Status Server::Start() {
  ApplyConfig("");
  stats_.memory_startup = stats_.memory_peak = AllocatedBytes();
  if (!config_.requirepass.empty()) acl_.SetDefaultPassword(config_.requirepass);
  // As Redis: `port 0` (or `bind ""`) means no plain listener (a TLS-only
  // server with tls-port); with neither there is nothing to serve.
  const bool tcp = !config_.bind.empty() && (config_.port != 0 || config_.tls_port != 0);
  if (!tcp && config_.unixsocket.empty()) {
    return Status::InvalidArgument("Configured to not listen anywhere, exiting.");
  }
  Status s = Status::OK();
  if (config_.port != 0) {
    s = net_.Listen(config_.bind, static_cast<int>(config_.port));
    if (!s.ok()) {
      LOG_WARNING("Failed listening on port %d (tcp), aborting.", static_cast<int>(config_.port));
      return s;
    }
  }
  if (!config_.unixsocket.empty()) {
    s = net_.ListenUnix(config_.unixsocket, std::stoi(config_.unixsocketperm, nullptr, 8));
    if (!s.ok()) return s;
  }
  if (config_.tls_port > 0) {
    TlsOptions o;
    o.cert_file = config_.tls_cert_file;
    o.key_file = config_.tls_key_file;
    o.key_file_pass = config_.tls_key_file_pass;
    o.ca_cert_file = config_.tls_ca_cert_file;
    o.ca_cert_dir = config_.tls_ca_cert_dir;
    o.auth_clients = config_.tls_auth_clients;
    o.protocols = config_.tls_protocols;
    o.ciphers = config_.tls_ciphers;
    o.ciphersuites = config_.tls_ciphersuites;
    o.prefer_server_ciphers = config_.tls_prefer_server_ciphers;
    o.session_caching = config_.tls_session_caching;
    std::string error;
    tls_ = TlsContext::Create(o, &error);
    if (!tls_) return Status::InvalidArgument("Failed to configure TLS: " + error);
    s = net_.Listen(config_.bind, static_cast<int>(config_.tls_port), tls_.get());
    if (!s.ok()) return s;
  }
  int64_t period = config_.hz > 0 ? 1000 / config_.hz : 100;
  // The cron re-arms itself at the end of each run.
  loop_.AddTimer(period, [this] { Cron(); });
  loop_.AddBeforeSleep([this] { ArmMemberExpiry(); });
  return Status::OK();
}

}  // namespace rankd

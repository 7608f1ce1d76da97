// Copyright 2026 The rankd Authors. SPDX-License-Identifier: Apache-2.0
//
// TLS with OpenSSL, as a transport: a TlsSession reads and writes like a
// non-blocking socket (read(2)/send(2) results and errno), so a Connection
// does not know whether it is encrypted. The handshake happens inside the
// first reads (server side, SSL_set_accept_state). A client that speaks
// plain text to the TLS port, or presents a certificate the CA does not
// sign (tls-auth-clients yes), fails its handshake and is closed.

#pragma once

#include <sys/types.h>

#include <memory>
#include <string>

typedef struct ssl_ctx_st SSL_CTX;
typedef struct ssl_st SSL;

namespace rankd {

// Redis's tls-* settings for the server side.
struct TlsOptions {
  std::string cert_file, key_file, key_file_pass;
  std::string ca_cert_file, ca_cert_dir;
  std::string auth_clients = "yes";  // yes | no | optional
  std::string protocols;             // "TLSv1.2 TLSv1.3"; "" for OpenSSL's default
  std::string ciphers, ciphersuites;
  bool prefer_server_ciphers = false;
  bool session_caching = true;
};

class TlsContext {
 public:
  // Loads the certificate, key and CA. Returns nullptr and sets *error
  // (Redis's wording where it has one) on failure.
  static std::unique_ptr<TlsContext> Create(const TlsOptions& options, std::string* error);
  ~TlsContext();
  TlsContext(const TlsContext&) = delete;
  TlsContext& operator=(const TlsContext&) = delete;
  SSL_CTX* ctx() const { return ctx_; }

 private:
  explicit TlsContext(SSL_CTX* ctx) : ctx_(ctx) {}
  SSL_CTX* ctx_;
};

class TlsSession {
 public:
  // Wraps accepted socket `fd` (the caller keeps owning and closing it).
  TlsSession(const TlsContext& context, int fd);
  ~TlsSession();
  TlsSession(const TlsSession&) = delete;
  TlsSession& operator=(const TlsSession&) = delete;

  // As read(2) / send(2) on a non-blocking socket: > 0 bytes, 0 at the
  // peer's close, -1 with errno EAGAIN (try again on the next event) or
  // another errno (EPROTO for a TLS failure: close the connection).
  ssize_t Read(char* dst, size_t n);
  ssize_t Write(const char* src, size_t n);
  // Decrypted bytes already buffered inside OpenSSL: no socket event will
  // announce them, so the reader must call Read again.
  bool pending() const;

 private:
  ssize_t Result(int ret);
  SSL* ssl_;
};

}  // namespace rankd

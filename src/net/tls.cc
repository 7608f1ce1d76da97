// Copyright 2026 The rankd Authors. SPDX-License-Identifier: Apache-2.0

#include "net/tls.h"

#include <openssl/err.h>
#include <openssl/ssl.h>

#include <cerrno>
#include <cstring>
#include <sstream>

#include "base/logging.h"

namespace rankd {
namespace {

std::string LastError() {
  unsigned long e = ERR_get_error();
  char buf[256];
  ERR_error_string_n(e, buf, sizeof(buf));
  return buf;
}

int PasswordCallback(char* buf, int size, int, void* user) {
  const auto* pass = static_cast<const std::string*>(user);
  if (!pass || pass->empty() || static_cast<int>(pass->size()) >= size) return 0;
  memcpy(buf, pass->data(), pass->size());
  return static_cast<int>(pass->size());
}

// "TLSv1.2 TLSv1.3" -> the SSL_OP_NO_* options that exclude the others.
bool ProtocolOptions(const std::string& protocols, long* options) {
  if (protocols.empty()) return true;
  long keep = 0;
  std::istringstream in(protocols);
  std::string p;
  while (in >> p) {
    if (strcasecmp(p.c_str(), "tlsv1") == 0) keep |= SSL_OP_NO_TLSv1;
    else if (strcasecmp(p.c_str(), "tlsv1.1") == 0) keep |= SSL_OP_NO_TLSv1_1;
    else if (strcasecmp(p.c_str(), "tlsv1.2") == 0) keep |= SSL_OP_NO_TLSv1_2;
    else if (strcasecmp(p.c_str(), "tlsv1.3") == 0) keep |= SSL_OP_NO_TLSv1_3;
    else return false;
  }
  const long all = SSL_OP_NO_TLSv1 | SSL_OP_NO_TLSv1_1 | SSL_OP_NO_TLSv1_2 | SSL_OP_NO_TLSv1_3;
  *options = all & ~keep;
  return true;
}

}  // namespace

std::unique_ptr<TlsContext> TlsContext::Create(const TlsOptions& o, std::string* error) {
  SSL_CTX* ctx = SSL_CTX_new(TLS_server_method());
  if (!ctx) {
    *error = "Failed to create TLS context: " + LastError();
    return nullptr;
  }
  std::unique_ptr<TlsContext> out(new TlsContext(ctx));
  SSL_CTX_set_mode(ctx, SSL_MODE_ENABLE_PARTIAL_WRITE | SSL_MODE_ACCEPT_MOVING_WRITE_BUFFER);
  SSL_CTX_set_options(ctx, SSL_OP_NO_SSLv2 | SSL_OP_NO_SSLv3 | SSL_OP_NO_COMPRESSION);
  if (o.prefer_server_ciphers) SSL_CTX_set_options(ctx, SSL_OP_CIPHER_SERVER_PREFERENCE);
  SSL_CTX_set_session_cache_mode(ctx, o.session_caching ? SSL_SESS_CACHE_SERVER
                                                        : SSL_SESS_CACHE_OFF);
  long no_protocols = 0;
  if (!ProtocolOptions(o.protocols, &no_protocols)) {
    *error = "Invalid tls-protocols specified. Use a combination of 'TLSv1', 'TLSv1.1', "
             "'TLSv1.2' and 'TLSv1.3'.";
    return nullptr;
  }
  SSL_CTX_set_options(ctx, no_protocols);
  if (o.cert_file.empty() || o.key_file.empty()) {
    *error = "No tls-cert-file or tls-key-file configured";
    return nullptr;
  }
  SSL_CTX_set_default_passwd_cb(ctx, PasswordCallback);
  SSL_CTX_set_default_passwd_cb_userdata(ctx, const_cast<std::string*>(&o.key_file_pass));
  if (SSL_CTX_use_certificate_chain_file(ctx, o.cert_file.c_str()) <= 0) {
    *error = "Failed to load certificate: " + o.cert_file + ": " + LastError();
    return nullptr;
  }
  if (SSL_CTX_use_PrivateKey_file(ctx, o.key_file.c_str(), SSL_FILETYPE_PEM) <= 0) {
    *error = "Failed to load private key: " + o.key_file + ": " + LastError();
    return nullptr;
  }
  SSL_CTX_set_default_passwd_cb_userdata(ctx, nullptr);
  if (!o.ca_cert_file.empty() || !o.ca_cert_dir.empty()) {
    if (SSL_CTX_load_verify_locations(ctx, o.ca_cert_file.empty() ? nullptr : o.ca_cert_file.c_str(),
                                      o.ca_cert_dir.empty() ? nullptr : o.ca_cert_dir.c_str()) <= 0) {
      *error = "Failed to configure CA certificate(s) file/directory: " + LastError();
      return nullptr;
    }
  } else if (o.auth_clients != "no") {
    *error = "Either tls-ca-cert-file or tls-ca-cert-dir must be specified when "
             "tls-auth-clients is enabled";
    return nullptr;
  }
  if (!o.ciphers.empty() && !SSL_CTX_set_cipher_list(ctx, o.ciphers.c_str())) {
    *error = "Failed to configure ciphers: " + o.ciphers;
    return nullptr;
  }
  if (!o.ciphersuites.empty() && !SSL_CTX_set_ciphersuites(ctx, o.ciphersuites.c_str())) {
    *error = "Failed to configure ciphersuites: " + o.ciphersuites;
    return nullptr;
  }
  int verify = SSL_VERIFY_NONE;
  if (o.auth_clients == "yes") verify = SSL_VERIFY_PEER | SSL_VERIFY_FAIL_IF_NO_PEER_CERT;
  if (o.auth_clients == "optional") verify = SSL_VERIFY_PEER;
  SSL_CTX_set_verify(ctx, verify, nullptr);
  return out;
}

TlsContext::~TlsContext() { SSL_CTX_free(ctx_); }

TlsSession::TlsSession(const TlsContext& context, int fd) : ssl_(SSL_new(context.ctx())) {
  SSL_set_fd(ssl_, fd);
  SSL_set_accept_state(ssl_);
}

TlsSession::~TlsSession() { SSL_free(ssl_); }

ssize_t TlsSession::Result(int ret) {
  if (ret > 0) return ret;
  switch (SSL_get_error(ssl_, ret)) {
    case SSL_ERROR_WANT_READ:
    case SSL_ERROR_WANT_WRITE:
      errno = EAGAIN;
      return -1;
    case SSL_ERROR_ZERO_RETURN:
      return 0;
    case SSL_ERROR_SYSCALL:
      if (errno == 0 || errno == EAGAIN) return 0;  // unexpected EOF
      return -1;
    default:
      LOG_VERBOSE("TLS error: %s", LastError().c_str());
      ERR_clear_error();
      errno = EPROTO;
      return -1;
  }
}

ssize_t TlsSession::Read(char* dst, size_t n) {
  ERR_clear_error();
  errno = 0;
  return Result(SSL_read(ssl_, dst, static_cast<int>(n)));
}

ssize_t TlsSession::Write(const char* src, size_t n) {
  ERR_clear_error();
  errno = 0;
  return Result(SSL_write(ssl_, src, static_cast<int>(n)));
}

bool TlsSession::pending() const { return SSL_pending(ssl_) > 0; }

}  // namespace rankd

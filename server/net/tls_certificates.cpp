#include "server/net/tls_certificates.hpp"

#include <openssl/bn.h>
#include <openssl/err.h>
#include <openssl/pem.h>
#include <openssl/ssl.h>
#include <openssl/x509.h>
#include <spdlog/spdlog.h>

#include <fstream>
#include <memory>
#include <sstream>

namespace tilerace::server {

namespace ssl = boost::asio::ssl;

namespace {

// Mozilla's "intermediate" configuration (TLS 1.2's ciphers; TLS 1.3's are OpenSSL's).
constexpr const char* kCiphers =
    "ECDHE-ECDSA-AES128-GCM-SHA256:ECDHE-RSA-AES128-GCM-SHA256:ECDHE-ECDSA-AES256-GCM-SHA384:"
    "ECDHE-RSA-AES256-GCM-SHA384:ECDHE-ECDSA-CHACHA20-POLY1305:ECDHE-RSA-CHACHA20-POLY1305:"
    "DHE-RSA-AES128-GCM-SHA256:DHE-RSA-AES256-GCM-SHA384:DHE-RSA-CHACHA20-POLY1305";

// ALPN: the one protocol spoken here, HTTP/1.1 (WebSocket upgrades ride on it).
int select_http11(SSL*, const unsigned char** out, unsigned char* outlen, const unsigned char* in,
                  unsigned int inlen, void*) {
  static constexpr unsigned char kHttp11[] = {8, 'h', 't', 't', 'p', '/', '1', '.', '1'};
  unsigned char* selected = nullptr;
  if (SSL_select_next_proto(&selected, outlen, kHttp11, sizeof kHttp11, in, inlen) !=
      OPENSSL_NPN_NEGOTIATED) {
    return SSL_TLSEXT_ERR_NOACK;  // a client that offers no http/1.1 still gets it, unnamed
  }
  *out = selected;
  return SSL_TLSEXT_ERR_OK;
}

std::string read_file(const std::filesystem::path& path, const char* what) {
  std::ifstream in(path, std::ios::binary);
  if (!in)
    throw std::runtime_error(std::string("cannot read the TLS ") + what + " " + path.string());
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

}  // namespace

TlsCertificates::TlsCertificates(std::filesystem::path cert, std::filesystem::path key)
    : cert_(std::move(cert)), key_(std::move(key)), loaded_(load(stamp())) {}

std::string TlsCertificates::stamp() const {
  std::string out;
  for (const auto& path : {cert_, key_}) {
    std::error_code ec;
    const auto size = std::filesystem::file_size(path, ec);
    const auto time = std::filesystem::last_write_time(path, ec);
    out += std::to_string(size) + "@" + std::to_string(time.time_since_epoch().count()) + ";";
  }
  return out;
}

TlsCertificates::Loaded TlsCertificates::load(std::string stamp_before) const {
  const std::string cert_pem = read_file(cert_, "certificate");
  const std::string key_pem = read_file(key_, "key");
  auto context = std::make_shared<ssl::context>(ssl::context::tls_server);
  context->set_options(ssl::context::default_workarounds | ssl::context::no_sslv2 |
                       ssl::context::no_sslv3 | ssl::context::no_tlsv1 | ssl::context::no_tlsv1_1 |
                       ssl::context::single_dh_use);
  SSL_CTX* native = context->native_handle();
  SSL_CTX_set_min_proto_version(native, TLS1_2_VERSION);
  SSL_CTX_set_cipher_list(native, kCiphers);
  SSL_CTX_set_alpn_select_cb(native, select_http11, nullptr);
  boost::system::error_code ec;
  context->use_certificate_chain(boost::asio::buffer(cert_pem), ec);
  if (ec) throw std::runtime_error("the TLS certificate " + cert_.string() + ": " + ec.message());
  std::unique_ptr<BIO, decltype(&BIO_free)> bio(
      BIO_new_mem_buf(key_pem.data(), static_cast<int>(key_pem.size())), &BIO_free);
  std::unique_ptr<EVP_PKEY, decltype(&EVP_PKEY_free)> parsed(
      PEM_read_bio_PrivateKey(bio.get(), nullptr, nullptr, nullptr), &EVP_PKEY_free);
  if (!parsed) throw std::runtime_error("the TLS key " + key_.string() + " is no PEM private key");
  if (SSL_CTX_use_PrivateKey(native, parsed.get()) != 1 || SSL_CTX_check_private_key(native) != 1) {
    throw std::runtime_error("the TLS key " + key_.string() + " does not match the certificate " +
                             cert_.string());
  }
  X509* leaf = SSL_CTX_get0_certificate(native);
  if (leaf == nullptr) throw std::runtime_error("no certificate in " + cert_.string());
  if (X509_cmp_current_time(X509_get0_notAfter(leaf)) <= 0) {
    throw std::runtime_error("the TLS certificate " + cert_.string() + " has expired");
  }
  std::string serial = "?";
  if (BIGNUM* bn = ASN1_INTEGER_to_BN(X509_get0_serialNumber(leaf), nullptr)) {
    if (char* hex = BN_bn2hex(bn)) {
      serial = hex;
      OPENSSL_free(hex);
    }
    BN_free(bn);
  }
  return {std::move(context), std::move(serial), stamp_before};
}

std::shared_ptr<ssl::context> TlsCertificates::current() const {
  std::lock_guard lock(mutex_);
  return loaded_.context;
}

std::string TlsCertificates::serial() const {
  std::lock_guard lock(mutex_);
  return loaded_.serial;
}

bool TlsCertificates::reload() {
  // Stamped before reading: files still being replaced while they are read (a certificate
  // written, its key not yet) change the stamp again, and the next poll reads them again.
  const std::string before = stamp();
  try {
    Loaded fresh = load(before);
    std::lock_guard lock(mutex_);
    spdlog::info("TLS: certificate {} in place (was {})", fresh.serial, loaded_.serial);
    loaded_ = std::move(fresh);
    return true;
  } catch (const std::exception& e) {
    ERR_clear_error();  // what OpenSSL queued about the bad pair must not reach a handshake
    spdlog::error("TLS: keeping the current certificate: {}", e.what());
    std::lock_guard lock(mutex_);
    loaded_.stamp = before;  // the same bad files are not read again on every poll
    return false;
  }
}

bool TlsCertificates::reload_if_changed() {
  {
    std::lock_guard lock(mutex_);
    if (loaded_.stamp == stamp()) return false;
  }
  return reload();
}

}  // namespace tilerace::server

#pragma once
// A throwaway TLS identity made in memory: an ECDSA P-256 key (as Let's Encrypt and Caddy
// issue) and a certificate for it signed by itself, valid for a day. For tests and benchmarks
// that need a TLS server without files; the caller frees both.
#include <openssl/evp.h>
#include <openssl/x509.h>

#include <stdexcept>

namespace tilerace::testing {

struct SelfSigned {
  EVP_PKEY* key;
  X509* certificate;
};

inline SelfSigned self_signed() {
  EVP_PKEY* key = EVP_EC_gen("P-256");
  X509* cert = X509_new();
  ASN1_INTEGER_set(X509_get_serialNumber(cert), 1);
  X509_gmtime_adj(X509_getm_notBefore(cert), 0);
  X509_gmtime_adj(X509_getm_notAfter(cert), 86400);
  X509_set_pubkey(cert, key);
  X509_NAME* name = X509_get_subject_name(cert);
  X509_NAME_add_entry_by_txt(name, "CN", MBSTRING_ASC,
                             reinterpret_cast<const unsigned char*>("localhost"), -1, -1, 0);
  X509_set_issuer_name(cert, name);
  if (key == nullptr || X509_sign(cert, key, EVP_sha256()) == 0) {
    throw std::runtime_error("cannot make a self-signed certificate");
  }
  return {key, cert};
}

}  // namespace tilerace::testing

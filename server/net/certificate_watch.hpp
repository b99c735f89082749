#pragma once
// Keeps the TLS pair current without a restart: reloads it on SIGHUP and when its files change
// (polled every kPoll: certbot and Caddy renewals replace them). Runs on one context (the main
// one); stop() ends it, on that context's thread.
#include <boost/asio/io_context.hpp>
#include <boost/asio/signal_set.hpp>
#include <boost/asio/steady_timer.hpp>

#include <chrono>

#include "server/net/tls_certificates.hpp"

namespace tilerace::server {

class CertificateWatch {
 public:
  static constexpr auto kPoll = std::chrono::seconds(2);

  CertificateWatch(boost::asio::io_context& ioc, TlsCertificates& certificates);
  void start();
  void stop();

 private:
  void wait_signal();
  void wait_poll();

  TlsCertificates& certificates_;
  boost::asio::signal_set hangup_;
  boost::asio::steady_timer poll_;
  bool stopped_ = false;
};

}  // namespace tilerace::server

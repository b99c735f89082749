#include "server/net/certificate_watch.hpp"

#include <spdlog/spdlog.h>

#include <csignal>

namespace tilerace::server {

CertificateWatch::CertificateWatch(boost::asio::io_context& ioc, TlsCertificates& certificates)
    : certificates_(certificates), hangup_(ioc, SIGHUP), poll_(ioc) {}

void CertificateWatch::start() {
  wait_signal();
  wait_poll();
}

void CertificateWatch::stop() {
  stopped_ = true;
  boost::system::error_code ignored;
  hangup_.cancel(ignored);
  poll_.cancel();
}

void CertificateWatch::wait_signal() {
  hangup_.async_wait([this](const boost::system::error_code& ec, int) {
    if (ec || stopped_) return;
    spdlog::info("SIGHUP: reloading the TLS certificate");
    certificates_.reload();
    wait_signal();
  });
}

void CertificateWatch::wait_poll() {
  poll_.expires_after(kPoll);
  poll_.async_wait([this](const boost::system::error_code& ec) {
    if (ec || stopped_) return;
    certificates_.reload_if_changed();
    wait_poll();
  });
}

}  // namespace tilerace::server

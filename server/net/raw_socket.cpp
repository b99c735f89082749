#include "server/net/raw_socket.hpp"

#include <fcntl.h>
#include <sys/socket.h>
#include <sys/uio.h>
#include <unistd.h>

#include <boost/system/system_error.hpp>

#include <algorithm>
#include <array>
#include <cerrno>
#include <utility>

namespace tilerace::server {

namespace asio = boost::asio;
namespace beast = boost::beast;

namespace {

// A failed call's errno as an error code; EAGAIN is would_block.
beast::error_code last_error() {
  const int e = errno;
  if (e == EAGAIN || e == EWOULDBLOCK) return asio::error::would_block;
  return {e, boost::system::system_category()};
}

// Buffers in one sendmsg: a write's frames (headers and payloads) come in pairs.
constexpr std::size_t kMaxIov = 64;
// A write of at most this many bytes is copied into one buffer and sent with send(): the
// kernel's send() of one buffer costs less than its sendmsg() of several (docs/performance.md,
// "Closing the race gap").
constexpr std::size_t kGatherAtMost = 16 * 1024;

// Calls send (or sendmsg) until it is not interrupted; the bytes sent, or 0 with ec set.
template <class Send>
std::size_t sent_by(Send send, beast::error_code& ec) {
  for (;;) {
    const ssize_t n = send();
    if (n >= 0) {
      ec = {};
      return static_cast<std::size_t>(n);
    }
    if (errno == EINTR) continue;
    ec = last_error();
    return 0;
  }
}

}  // namespace

RawSocket::RawSocket(TcpSocket&& socket) : fd_(socket.release()) {
  const int flags = ::fcntl(fd_, F_GETFL);
  if (flags < 0 || ::fcntl(fd_, F_SETFL, flags | O_NONBLOCK) != 0) {
    const int e = errno;
    ::close(fd_);
    throw boost::system::system_error(e, boost::system::system_category(), "fcntl");
  }
}

RawSocket::~RawSocket() { close(); }

std::size_t RawSocket::read_some(asio::mutable_buffer into, beast::error_code& ec) {
  for (;;) {
    const ssize_t n = ::recv(fd_, into.data(), into.size(), 0);
    if (n > 0) {
      ec = {};
      return static_cast<std::size_t>(n);
    }
    if (n == 0) {
      ec = asio::error::eof;
      return 0;
    }
    if (errno == EINTR) continue;
    ec = last_error();
    return 0;
  }
}

std::size_t RawSocket::write_some(std::span<const asio::const_buffer> buffers,
                                  beast::error_code& ec) {
  const std::size_t count = std::min(buffers.size(), kMaxIov);
  std::size_t total = 0;
  for (std::size_t i = 0; i < count; ++i) total += buffers[i].size();
  if (total <= kGatherAtMost) {
    thread_local std::array<char, kGatherAtMost> gathered;
    char* end = gathered.data();
    for (std::size_t i = 0; i < count; ++i) {
      end = std::copy_n(static_cast<const char*>(buffers[i].data()), buffers[i].size(), end);
    }
    return sent_by([&] { return ::send(fd_, gathered.data(), total, MSG_NOSIGNAL); }, ec);
  }
  std::array<iovec, kMaxIov> iov{};
  for (std::size_t i = 0; i < count; ++i) {
    iov[i].iov_base = const_cast<void*>(buffers[i].data());
    iov[i].iov_len = buffers[i].size();
  }
  msghdr message{};
  message.msg_iov = iov.data();
  message.msg_iovlen = count;
  return sent_by([&] { return ::sendmsg(fd_, &message, MSG_NOSIGNAL); }, ec);
}

void RawSocket::shutdown_send() {
  if (fd_ >= 0) ::shutdown(fd_, SHUT_WR);
}

void RawSocket::close() {
  if (fd_ >= 0) ::close(std::exchange(fd_, -1));
}

}  // namespace tilerace::server

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
  std::array<iovec, kMaxIov> iov{};
  const std::size_t count = std::min(buffers.size(), kMaxIov);
  for (std::size_t i = 0; i < count; ++i) {
    iov[i].iov_base = const_cast<void*>(buffers[i].data());
    iov[i].iov_len = buffers[i].size();
  }
  msghdr message{};
  message.msg_iov = iov.data();
  message.msg_iovlen = count;
  for (;;) {
    const ssize_t n = ::sendmsg(fd_, &message, MSG_NOSIGNAL);
    if (n >= 0) {
      ec = {};
      return static_cast<std::size_t>(n);
    }
    if (errno == EINTR) continue;
    ec = last_error();
    return 0;
  }
}

void RawSocket::shutdown_send() {
  if (fd_ >= 0) ::shutdown(fd_, SHUT_WR);
}

void RawSocket::close() {
  if (fd_ >= 0) ::close(std::exchange(fd_, -1));
}

}  // namespace tilerace::server

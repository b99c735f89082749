#include "server/net/socket_readiness.hpp"

#include <sys/epoll.h>
#include <unistd.h>

#include <boost/asio/io_context.hpp>
#include <boost/asio/post.hpp>
#include <boost/system/system_error.hpp>

#include <array>
#include <cerrno>

namespace tilerace::server {

namespace asio = boost::asio;

asio::execution_context::id SocketReadiness::id;

namespace {

int new_epoll() {
  const int fd = ::epoll_create1(EPOLL_CLOEXEC);
  if (fd < 0) {
    throw boost::system::system_error(errno, boost::system::system_category(), "epoll_create1");
  }
  return fd;
}

}  // namespace

SocketReadiness::SocketReadiness(asio::execution_context& context)
    : service(context),
      epoll_fd_(new_epoll()),
      ready_(static_cast<asio::io_context&>(context).get_executor(), epoll_fd_) {}

SocketReadiness::~SocketReadiness() = default;  // ready_ closes the epoll set

void SocketReadiness::shutdown() {
  // The context is going: its watchers (sessions) and the wait go first.
  boost::system::error_code ignored;
  ready_.close(ignored);
  slots_.clear();
}

std::uint64_t SocketReadiness::watch(int fd, std::shared_ptr<Watcher> watcher) {
  std::uint32_t index = 0;
  if (free_.empty()) {
    index = static_cast<std::uint32_t>(slots_.size());
    slots_.emplace_back();
  } else {
    index = free_.back();
    free_.pop_back();
  }
  Slot& slot = slots_[index];
  const std::uint64_t handle = (std::uint64_t{slot.generation} << 32) | index;
  epoll_event event{};
  event.events = EPOLLIN | EPOLLRDHUP | EPOLLET;
  event.data.u64 = handle;
  if (::epoll_ctl(epoll_fd_, EPOLL_CTL_ADD, fd, &event) != 0) {
    const int error = errno;
    free_.push_back(index);
    throw boost::system::system_error(error, boost::system::system_category(), "epoll_ctl");
  }
  slot.watcher = std::move(watcher);
  slot.fd = fd;
  slot.writes = false;
  ++watched_;
  if (!waiting_) wait();
  return handle;
}

SocketReadiness::Slot* SocketReadiness::find(std::uint64_t watch) {
  const auto index = static_cast<std::uint32_t>(watch);
  if (index >= slots_.size()) return nullptr;
  Slot& slot = slots_[index];
  if (slot.generation != watch >> 32 || !slot.watcher) return nullptr;
  return &slot;
}

void SocketReadiness::stop(std::uint64_t watch) {
  Slot* slot = find(watch);
  if (slot == nullptr) return;
  ++slot->generation;
  free_.push_back(static_cast<std::uint32_t>(watch));
  // Let go later: the watcher may be the caller, or be in the batch being told.
  asio::post(ready_.get_executor(), [gone = std::move(slot->watcher)] {});
  if (--watched_ == 0 && waiting_) {
    boost::system::error_code ignored;
    ready_.cancel(ignored);  // nothing left to wait for: the context may run out of work
  }
}

void SocketReadiness::want_writable(std::uint64_t watch) {
  Slot* slot = find(watch);
  if (slot == nullptr || slot->writes) return;
  // Modifying the watch reports the socket at once if it is writable already: no edge is lost.
  epoll_event event{};
  event.events = EPOLLIN | EPOLLOUT | EPOLLRDHUP | EPOLLET;
  event.data.u64 = watch;
  if (::epoll_ctl(epoll_fd_, EPOLL_CTL_MOD, slot->fd, &event) != 0) {
    throw boost::system::system_error(errno, boost::system::system_category(), "epoll_ctl");
  }
  slot->writes = true;
}

void SocketReadiness::wait() {
  waiting_ = true;
  ready_.async_wait(asio::posix::descriptor_base::wait_read, [this](boost::system::error_code ec) {
    waiting_ = false;
    if (!ec) dispatch();
    if (watched_ > 0 && !waiting_ && ready_.is_open()) wait();
  });
}

void SocketReadiness::dispatch() {
  std::array<epoll_event, 256> events;
  const int n = ::epoll_wait(epoll_fd_, events.data(), static_cast<int>(events.size()), 0);
  for (int i = 0; i < n; ++i) {
    const std::uint64_t watch = events[i].data.u64;
    const std::uint32_t ready = events[i].events;
    // A socket whose watch stopped earlier in this batch (or before, or while told of writing)
    // is not told. What waits to be sent goes before what has arrived is read.
    Slot* slot = find(watch);
    if (slot != nullptr && slot->writes && (ready & (EPOLLOUT | EPOLLERR | EPOLLHUP)) != 0) {
      slot->watcher->writable();  // a watcher stopped meanwhile lives on until a later turn
      slot = find(watch);
    }
    if (slot != nullptr && (ready & (EPOLLIN | EPOLLRDHUP | EPOLLHUP | EPOLLERR)) != 0) {
      slot->watcher->readable((ready & (EPOLLRDHUP | EPOLLHUP | EPOLLERR)) != 0);
    }
  }
}

}  // namespace tilerace::server

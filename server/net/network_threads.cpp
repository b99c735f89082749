#include "server/net/network_threads.hpp"

#include <thread>

namespace tilerace::server {

NetworkThreads::NetworkThreads(int count) {
  for (int i = 0; i < count; ++i) {
    // One thread runs it, but no concurrency hint of 1: with it, Asio queues what the running
    // thread posts privately until the handler ends, behind what other threads post meanwhile,
    // and a connection's messages posted from its own thread and from others (deliver) would
    // come out of order.
    contexts_.push_back(std::make_unique<boost::asio::io_context>());
    guards_.push_back(boost::asio::make_work_guard(*contexts_.back()));
  }
}

boost::asio::io_context& NetworkThreads::next() {
  boost::asio::io_context& context = *contexts_[next_];
  next_ = (next_ + 1) % contexts_.size();
  return context;
}

void NetworkThreads::run() {
  std::vector<std::thread> threads;
  for (std::size_t i = 1; i < contexts_.size(); ++i) {
    threads.emplace_back([context = contexts_[i].get()] { context->run(); });
  }
  contexts_.front()->run();
  for (auto& t : threads) t.join();
}

}  // namespace tilerace::server

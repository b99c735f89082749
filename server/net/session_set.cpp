#include <vector>

#include "server/net/session_set.hpp"

namespace tilerace::server {

void SessionSet::add(const std::shared_ptr<Session>& s) {
  bool closing = false;
  {
    std::lock_guard lock(mutex_);
    sessions_[s.get()] = s;
    closing = closing_;
  }
  if (closing) s->shutdown();
}

void SessionSet::shutdown_all() {
  {
    std::lock_guard lock(mutex_);
    closing_ = true;
  }
  for_each([](Session& s) { s.shutdown(); });
}

void SessionSet::remove(const Session* s) {
  std::lock_guard lock(mutex_);
  sessions_.erase(s);
}

std::size_t SessionSet::size() const {
  std::lock_guard lock(mutex_);
  return sessions_.size();
}

void SessionSet::for_each(const std::function<void(Session&)>& f) const {
  std::vector<std::shared_ptr<Session>> live;
  {
    std::lock_guard lock(mutex_);
    for (const auto& [_, weak] : sessions_) {
      if (auto s = weak.lock()) live.push_back(std::move(s));
    }
  }
  for (const auto& s : live) f(*s);
}

}  // namespace tilerace::server

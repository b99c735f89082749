#include "protocol/message_pool.hpp"

#include <new>
#include <type_traits>
#include <vector>

namespace tilerace::protocol::message_pool {

namespace {

// This thread's buffers, emptied, their capacity kept. A message may be let go of while the
// thread exits, after its pools are gone: closed (trivial, so readable to the end) says so, and
// then nothing is kept.
struct Buffers {
  Buffers() { kept.reserve(kKept); }
  ~Buffers();
  std::vector<std::string> kept;
};
thread_local bool buffers_closed = false;
thread_local Buffers buffers;
Buffers::~Buffers() { buffers_closed = true; }

void keep(std::string&& text) {
  // A short text lives in the string itself: nothing to keep.
  if (buffers_closed || text.capacity() <= std::string().capacity() ||
      text.capacity() > kMaxKeptCapacity || buffers.kept.size() >= kKept) {
    return;
  }
  text.clear();
  buffers.kept.push_back(std::move(text));
}

// This thread's free blocks of Size bytes (the shared owners, all of one size): trivial, so
// usable to the thread's end; the closer frees them when the thread exits.
template <std::size_t Size>
struct Blocks {
  void* free[kKept];
  std::size_t count;
  bool closed;
};
template <std::size_t Size>
struct BlockCloser {
  explicit BlockCloser(Blocks<Size>& b) : blocks(b) {}
  ~BlockCloser() {
    for (std::size_t i = 0; i < blocks.count; ++i) ::operator delete(blocks.free[i]);
    blocks.count = 0;
    blocks.closed = true;
  }
  Blocks<Size>& blocks;
};
template <std::size_t Size>
Blocks<Size>& blocks() {
  thread_local Blocks<Size> b{};
  thread_local BlockCloser<Size> closer(b);
  return b;
}

// allocate_shared's allocator: one block from the free list, and the string's buffer kept when
// the message is destroyed (allocate_shared destroys through the allocator).
template <class T>
struct Recycling {
  using value_type = T;
  Recycling() = default;
  template <class U>
  Recycling(const Recycling<U>&) noexcept {}  // NOLINT: rebinding is implicit

  T* allocate(std::size_t n) {
    if (auto& b = blocks<sizeof(T)>(); n == 1 && b.count > 0) {
      return static_cast<T*>(b.free[--b.count]);
    }
    return static_cast<T*>(::operator new(n * sizeof(T)));
  }
  void deallocate(T* p, std::size_t n) noexcept {
    if (auto& b = blocks<sizeof(T)>(); n == 1 && !b.closed && b.count < kKept) {
      b.free[b.count++] = p;
      return;
    }
    ::operator delete(p);
  }
  template <class U>
  void destroy(U* p) noexcept {
    if constexpr (std::is_same_v<U, std::string>) keep(std::move(*p));
    p->~U();
  }
  template <class U>
  bool operator==(const Recycling<U>&) const noexcept {
    return true;
  }
};

}  // namespace

std::string buffer() {
  if (buffers_closed || buffers.kept.empty()) return {};
  std::string text = std::move(buffers.kept.back());
  buffers.kept.pop_back();
  return text;
}

std::shared_ptr<const std::string> share(std::string text) {
  return std::allocate_shared<std::string>(Recycling<std::string>{}, std::move(text));
}

}  // namespace tilerace::protocol::message_pool

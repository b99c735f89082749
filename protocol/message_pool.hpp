#pragma once
// Outgoing messages without an allocation in steady state (docs/performance.md, "Allocations
// per move"). A message is a string shared by its receivers (one text, encoded once, however
// many sockets write it). Here the string is written into a buffer recycled from this thread's
// pool, and shared through a block — the shared owner and the string object in one — from a
// free list of this thread's; when the last owner lets go, the block returns to the free list
// and the string's buffer to the pool of the thread that let go (a network thread writes what
// it made, so a move's messages go round on one thread). Each thread keeps at most kKept of
// each, and buffers of at most kMaxKeptCapacity bytes: others are freed as usual.
//
// Threading: each thread has its own pool; nothing is shared between threads but the
// messages, which are as thread-safe as any shared_ptr.
#include <cstddef>
#include <memory>
#include <string>

namespace tilerace::protocol::message_pool {

inline constexpr std::size_t kKept = 256;
inline constexpr std::size_t kMaxKeptCapacity = 4096;

// An empty string with a recycled buffer's capacity (none when the pool is empty).
std::string buffer();
// text, shared: the owner of a message for every receiver.
std::shared_ptr<const std::string> share(std::string text);

}  // namespace tilerace::protocol::message_pool

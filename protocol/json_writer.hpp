#pragma once
// A small append-only JSON writer for the messages sent on every move (moved, race_update):
// writing straight into a buffer on the stack, then copying the text into one string of its
// size, costs a fraction of building a JSON tree first (docs/performance.md). Commas are placed
// automatically; the caller keeps objects and arrays balanced. Strings are escaped; they must be
// valid UTF-8 (server-made ids and names that passed the decoder's UTF-8 check).
#include <algorithm>
#include <array>
#include <charconv>
#include <cstdint>
#include <cstring>
#include <string>
#include <string_view>

namespace tilerace::protocol {

class JsonWriter {
 public:
  JsonWriter() = default;
  JsonWriter(const JsonWriter&) = delete;
  JsonWriter& operator=(const JsonWriter&) = delete;

  JsonWriter& begin_object() { return open('{'); }
  JsonWriter& end_object() { return close('}'); }
  JsonWriter& begin_array() { return open('['); }
  JsonWriter& end_array() { return close(']'); }
  // A key written into the program: checked when it is built to need no escaping, so writing
  // it is a copy of known length.
  class Key {
   public:
    template <std::size_t N>
    consteval Key(const char (&k)[N]) : text_(k, N - 1) {  // NOLINT: implicit on purpose
      for (const char ch : text_) {
        const auto c = static_cast<unsigned char>(ch);
        if (c == '"' || c == '\\' || c < 0x20) throw "a JSON key must need no escaping";
      }
    }
    std::string_view text() const { return text_; }

   private:
    std::string_view text_;
  };

  // The next value belongs to key (inside an object).
  JsonWriter& key(Key k) {
    comma();
    room(k.text().size() + 3);
    quoted(k.text());
    *at_++ = ':';
    after_key_ = true;
    return *this;
  }
  JsonWriter& value(std::int64_t v) {
    comma();
    room(kMaxDigits);
    at_ = std::to_chars(at_, at_ + kMaxDigits, v).ptr;
    return *this;
  }
  JsonWriter& value(int v) { return value(static_cast<std::int64_t>(v)); }
  JsonWriter& value(bool v) {
    comma();
    put(v ? std::string_view("true") : std::string_view("false"));
    return *this;
  }
  JsonWriter& value(std::string_view s) {
    comma();
    string_body(s);
    return *this;
  }
  JsonWriter& value(const char* s) { return value(std::string_view(s)); }
  // Already-encoded JSON (for example a value nlohmann dumped).
  JsonWriter& raw(std::string_view json) {
    comma();
    put(json);
    return *this;
  }

  // The text written: in into when it has the room (no allocation), else one allocation of its
  // size.
  std::string take(std::string into = {}) {
    if (heap_.empty()) {
      into.assign(begin_, at_);
      return into;
    }
    heap_.resize(static_cast<std::size_t>(at_ - begin_));
    return std::move(heap_);
  }

 private:
  static constexpr std::size_t kMaxDigits = 20;  // an int64 with its sign

  JsonWriter& open(char c) {
    comma();
    put(c);
    first_ = true;
    return *this;
  }
  JsonWriter& close(char c) {
    put(c);
    first_ = false;
    return *this;
  }
  // A comma before every element but the first of its container, and never after a key.
  void comma() {
    if (after_key_) {
      after_key_ = false;
      return;
    }
    if (!first_) put(',');
    first_ = false;
  }
  void string_body(std::string_view s) {
    room(s.size() + 2);
    const auto plain = [](char ch) {
      const auto c = static_cast<unsigned char>(ch);
      return c != '"' && c != '\\' && c >= 0x20;
    };
    if (std::all_of(s.begin(), s.end(), plain)) return quoted(s);  // the usual case
    put('"');
    for (const char ch : s) {
      const auto c = static_cast<unsigned char>(ch);
      room(6);
      if (plain(ch)) {
        *at_++ = ch;
      } else if (c == '"' || c == '\\') {
        *at_++ = '\\';
        *at_++ = ch;
      } else {
        static constexpr char kHex[] = "0123456789abcdef";
        put("\\u00");
        *at_++ = kHex[c >> 4];
        *at_++ = kHex[c & 0xF];
      }
    }
    put('"');
  }
  // s between quotes, as it is; requires room for it and the quotes.
  void quoted(std::string_view s) {
    *at_++ = '"';
    std::memcpy(at_, s.data(), s.size());
    at_ += s.size();
    *at_++ = '"';
  }
  void put(char c) {
    room(1);
    *at_++ = c;
  }
  void put(std::string_view s) {
    room(s.size());
    std::memcpy(at_, s.data(), s.size());
    at_ += s.size();
  }
  // Makes room for n more bytes: the text moves from the inline buffer to the heap when it
  // outgrows it.
  void room(std::size_t n) {
    if (static_cast<std::size_t>(end_ - at_) < n) grow(n);
  }
  void grow(std::size_t n) {
    const auto used = static_cast<std::size_t>(at_ - begin_);
    const std::size_t size = std::max(2 * static_cast<std::size_t>(end_ - begin_), used + n);
    if (heap_.empty()) {
      heap_.resize(size);
      std::memcpy(heap_.data(), begin_, used);
    } else {
      heap_.resize(size);
    }
    begin_ = heap_.data();
    at_ = begin_ + used;
    end_ = begin_ + heap_.size();
  }

  // The text is written at at_ into [begin_, end_): inline_ (a move's message fits, with many
  // motions), or heap_ once it outgrows it.
  std::array<char, 1024> inline_;
  std::string heap_;
  char* begin_ = inline_.data();
  char* at_ = begin_;
  char* end_ = begin_ + inline_.size();
  bool first_ = true;       // the next element is the first of its container
  bool after_key_ = false;  // a key was just written
};

}  // namespace tilerace::protocol

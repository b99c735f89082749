#pragma once
// A small append-only JSON writer for the messages sent on every move (moved, race_update):
// writing straight into one reserved string costs a fraction of building a JSON tree first
// (docs/performance.md). Commas are placed automatically; the caller keeps objects and arrays
// balanced. Strings are escaped; they must be valid UTF-8 (server-made ids and names that
// passed the decoder's UTF-8 check).
#include <charconv>
#include <cstdint>
#include <string>
#include <string_view>

namespace tilerace::protocol {

class JsonWriter {
 public:
  explicit JsonWriter(std::size_t reserve) { out_.reserve(reserve); }

  JsonWriter& begin_object() { return open('{'); }
  JsonWriter& end_object() { return close('}'); }
  JsonWriter& begin_array() { return open('['); }
  JsonWriter& end_array() { return close(']'); }
  // The next value belongs to key (inside an object).
  JsonWriter& key(std::string_view k) {
    comma();
    string_body(k);
    out_ += ':';
    after_key_ = true;
    return *this;
  }
  JsonWriter& value(std::int64_t v) {
    comma();
    char buf[24];
    const auto end = std::to_chars(buf, buf + sizeof buf, v).ptr;
    out_.append(buf, end);
    return *this;
  }
  JsonWriter& value(int v) { return value(static_cast<std::int64_t>(v)); }
  JsonWriter& value(bool v) {
    comma();
    out_ += v ? "true" : "false";
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
    out_ += json;
    return *this;
  }

  std::string take() { return std::move(out_); }

 private:
  JsonWriter& open(char c) {
    comma();
    out_ += c;
    first_ = true;
    return *this;
  }
  JsonWriter& close(char c) {
    out_ += c;
    first_ = false;
    return *this;
  }
  // A comma before every element but the first of its container, and never after a key.
  void comma() {
    if (after_key_) {
      after_key_ = false;
      return;
    }
    if (!first_) out_ += ',';
    first_ = false;
  }
  void string_body(std::string_view s) {
    out_ += '"';
    std::size_t plain = 0;  // start of the run of characters that need no escape
    for (std::size_t i = 0; i < s.size(); ++i) {
      const auto c = static_cast<unsigned char>(s[i]);
      if (c != '"' && c != '\\' && c >= 0x20) continue;
      out_.append(s.data() + plain, i - plain);
      plain = i + 1;
      if (c == '"' || c == '\\') {
        out_ += '\\';
        out_ += s[i];
      } else {
        static constexpr char kHex[] = "0123456789abcdef";
        out_ += "\\u00";
        out_ += kHex[c >> 4];
        out_ += kHex[c & 0xF];
      }
    }
    out_.append(s.data() + plain, s.size() - plain);
    out_ += '"';
  }

  std::string out_;
  bool first_ = true;       // the next element is the first of its container
  bool after_key_ = false;  // a key was just written
};

}  // namespace tilerace::protocol

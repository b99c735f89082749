#include "server/net/static_files.hpp"

#include <string>
#include <system_error>

namespace tilerace::server {

namespace {

int hex_value(char c) noexcept {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

// Percent-decodes path; nullopt on a malformed escape, NUL, backslash or an encoded '/'.
std::optional<std::string> decode_path(std::string_view path) {
  std::string out;
  for (std::size_t i = 0; i < path.size(); ++i) {
    char c = path[i];
    if (c == '%') {
      if (i + 2 >= path.size()) return std::nullopt;
      const int hi = hex_value(path[i + 1]), lo = hex_value(path[i + 2]);
      if (hi < 0 || lo < 0) return std::nullopt;
      c = static_cast<char>(hi * 16 + lo);
      if (c == '/') return std::nullopt;
      i += 2;
    }
    if (c == '\0' || c == '\\') return std::nullopt;
    out.push_back(c);
  }
  return out;
}

}  // namespace

std::optional<std::filesystem::path> resolve_static(const std::filesystem::path& root,
                                                    std::string_view target) {
  namespace fs = std::filesystem;
  target = target.substr(0, target.find_first_of("?#"));
  if (target.empty() || target.front() != '/') return std::nullopt;
  const auto decoded = decode_path(target);
  if (!decoded) return std::nullopt;
  std::string relative = decoded->substr(1);
  if (relative.empty()) relative = "index.html";
  for (const auto& part : fs::path(relative)) {
    if (part == "..") return std::nullopt;
  }
  std::error_code ec;
  fs::path real = fs::canonical(root / relative, ec);
  if (!ec && fs::is_directory(real, ec)) real = fs::canonical(real / "index.html", ec);  // /admin
  if (ec || !fs::is_regular_file(real, ec)) return std::nullopt;
  // Inside root: the real path must start with root followed by a separator.
  const auto& r = root.native();
  const auto& p = real.native();
  if (p.size() <= r.size() || p.compare(0, r.size(), r) != 0 || p[r.size()] != '/') {
    return std::nullopt;
  }
  return real;
}

std::string_view content_type(const std::filesystem::path& file) noexcept {
  const std::string ext = file.extension().string();
  if (ext == ".html") return "text/html; charset=utf-8";
  if (ext == ".js" || ext == ".mjs") return "text/javascript; charset=utf-8";
  if (ext == ".css") return "text/css; charset=utf-8";
  if (ext == ".json" || ext == ".webmanifest") return "application/json";
  if (ext == ".svg") return "image/svg+xml";
  if (ext == ".png") return "image/png";
  if (ext == ".ico") return "image/x-icon";
  if (ext == ".txt") return "text/plain; charset=utf-8";
  if (ext == ".woff2") return "font/woff2";
  return "application/octet-stream";
}

}  // namespace tilerace::server

#pragma once
// Maps a request target to a file under the web root, refusing anything that would leave it.
#include <filesystem>
#include <optional>
#include <string_view>

namespace tilerace::server {

// The regular file that target (path and query, as received) names under root: "/" is
// index.html, and so is a folder's path its index.html. nullopt for "..", encoded dots or slashes,
// NUL, or a path whose real location (symlinks resolved) is outside root. Requires root to be
// canonical.
std::optional<std::filesystem::path> resolve_static(const std::filesystem::path& root,
                                                    std::string_view target);

// The Content-Type for a file name's extension.
std::string_view content_type(const std::filesystem::path& file) noexcept;

}  // namespace tilerace::server

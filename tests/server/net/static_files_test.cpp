#include "server/net/static_files.hpp"

#include <gtest/gtest.h>
#include <stdlib.h>

#include <fstream>

#include <vector>
#include "tests/temp_dir.hpp"

namespace tilerace::server {
namespace {

namespace fs = std::filesystem;

class StaticFiles : public ::testing::Test {
 protected:
  void SetUp() override {
    root_ = dir_.path();
    std::ofstream(root_ / "index.html") << "x";
    fs::create_directory(root_ / "js");
    std::ofstream(root_ / "js" / "app.js") << "x";
    fs::create_directory(root_ / "admin");
    std::ofstream(root_ / "admin" / "index.html") << "x";
    fs::create_symlink("/etc/hostname", root_ / "out");
    // A sibling whose name starts like the root must not count as inside it.
    std::ofstream(root_.string() + "-evil.txt") << "x";
  }
  void TearDown() override { fs::remove(root_.string() + "-evil.txt"); }
  testing::TempDir dir_;
  fs::path root_;
};

TEST_F(StaticFiles, ResolvesFilesInsideTheRoot) {
  EXPECT_EQ(resolve_static(root_, "/"), root_ / "index.html");
  EXPECT_EQ(resolve_static(root_, "/index.html?v=2#top"), root_ / "index.html");
  EXPECT_EQ(resolve_static(root_, "/js/app.js"), root_ / "js" / "app.js");
  EXPECT_EQ(resolve_static(root_, "/js/%61pp.js"), root_ / "js" / "app.js");
  EXPECT_EQ(resolve_static(root_, "/js/./app.js"), root_ / "js" / "app.js");
  // A folder is its index.html (the /admin console); one without stays refused (/js).
  EXPECT_EQ(resolve_static(root_, "/admin"), root_ / "admin" / "index.html");
  EXPECT_EQ(resolve_static(root_, "/admin/"), root_ / "admin" / "index.html");
}

TEST_F(StaticFiles, RefusesEverythingElse) {
  const std::string evil = "/../" + root_.filename().string() + "-evil.txt";
  for (const std::string& target : std::vector<std::string>{
           "", "index.html", "/..", "/../etc/passwd", "/js/../../etc/passwd", "/%2e%2e/etc/passwd",
           "/js%2fapp.js", "/%00", "/index.html%00", "/%", "/%4", "/%g0", "/out", "/js",
           "/js\\..\\index.html", "//etc/hostname", "/missing.html", evil}) {
    EXPECT_FALSE(resolve_static(root_, target).has_value()) << target;
  }
}

TEST(ContentType, ByExtension) {
  EXPECT_EQ(content_type("a.html"), "text/html; charset=utf-8");
  EXPECT_EQ(content_type("a.js"), "text/javascript; charset=utf-8");
  EXPECT_EQ(content_type("a.css"), "text/css; charset=utf-8");
  EXPECT_EQ(content_type("a.svg"), "image/svg+xml");
  EXPECT_EQ(content_type("a.bin"), "application/octet-stream");
}

}  // namespace
}  // namespace tilerace::server

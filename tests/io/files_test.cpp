// read_input_file and write_output_file: byte caps, non-regular files, safe replacement.
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <string>

#include <gtest/gtest.h>

#include "test_util.h"
#include "topoplan/io/formats.h"

namespace topoplan {
namespace {

namespace fs = std::filesystem;

class Files : public ::testing::Test {
 protected:
  void SetUp() override {
    char tmpl[] = "/tmp/topoplan-files-XXXXXX";
    ASSERT_NE(::mkdtemp(tmpl), nullptr);
    dir_ = tmpl;
  }
  void TearDown() override {
    std::error_code ec;
    fs::permissions(dir_, fs::perms::owner_all, ec);
    fs::remove_all(dir_, ec);
  }
  std::string path(const std::string& name) const { return dir_ + "/" + name; }
  static void put(const std::string& p, const std::string& text) {
    std::ofstream(p, std::ios::binary) << text;
  }
  std::string dir_;
};

TEST_F(Files, ReadsARegularFileWhole) {
  put(path("a.txt"), "hello\nworld\n");
  Result<std::string> r = read_input_file(path("a.txt"));
  ASSERT_TRUE(r.ok()) << r.error().to_string();
  EXPECT_EQ(*r, "hello\nworld\n");
}

TEST_F(Files, CapIsExactAndTheMessageSaysHowToRaiseIt) {
  put(path("a.txt"), std::string(1000, 'x'));
  ReadLimits limits;
  limits.max_bytes = 1000;
  EXPECT_TRUE(read_input_file(path("a.txt"), limits).ok());
  limits.max_bytes = 999;
  Result<std::string> r = read_input_file(path("a.txt"), limits);
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error().file, path("a.txt"));
  EXPECT_NE(r.error().message.find("larger than the input limit of 999 bytes"), std::string::npos)
      << r.error().message;
  EXPECT_NE(r.error().message.find("--max-input-mib"), std::string::npos);
}

TEST_F(Files, DirectoryIsRefusedNotReadAsEmpty) {
  Result<std::string> r = read_input_file(dir_);
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error().message, "is a directory, not a file");
  // A directory is not an empty plan (which would be a valid 0-action plan).
  const Task t = load_task(test::domain_path("horse-breeder.toml")).value();
  EXPECT_FALSE(load_plan(t.domain, dir_).ok());
}

TEST_F(Files, MissingFileGivesTheReason) {
  Result<std::string> r = read_input_file(path("nope"));
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error().message, "cannot open the file: No such file or directory");
}

TEST_F(Files, CharacterDeviceIsReadThroughTheCap) {
  ReadLimits limits;
  limits.max_bytes = 1 << 20;
  Result<std::string> r = read_input_file("/dev/zero", limits);
  ASSERT_FALSE(r.ok());  // /dev/zero never ends: refused once past the cap, not after 1 GiB
  EXPECT_NE(r.error().message.find("limit of 1 MiB"), std::string::npos) << r.error().message;
  Result<std::string> null = read_input_file("/dev/null", limits);
  ASSERT_TRUE(null.ok());
  EXPECT_TRUE(null->empty());
}

TEST_F(Files, NamedPipeWithoutWriterTimesOut) {
  ASSERT_EQ(::mkfifo(path("fifo").c_str(), 0600), 0);
  ReadLimits limits;
  limits.idle_seconds = 0.2;
  Result<std::string> r = read_input_file(path("fifo"), limits);
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.error().message.find("no data from a pipe"), std::string::npos) << r.error().message;
}

TEST_F(Files, PipeWithAWriterIsRead) {
  int fds[2];
  ASSERT_EQ(::pipe(fds), 0);
  ASSERT_EQ(::write(fds[1], "abc", 3), 3);
  ::close(fds[1]);
  Result<std::string> r = read_input_file("/dev/fd/" + std::to_string(fds[0]));
  ::close(fds[0]);
  ASSERT_TRUE(r.ok()) << r.error().to_string();
  EXPECT_EQ(*r, "abc");
}

TEST_F(Files, WriteReplacesThroughARenameAndKeepsTheMode) {
  put(path("out.txt"), "old");
  ::chmod(path("out.txt").c_str(), 0640);
  ASSERT_FALSE(write_output_file(path("out.txt"), "new text").has_value());
  EXPECT_EQ(test::read_text(path("out.txt")), "new text");
  struct stat st {};
  ASSERT_EQ(::stat(path("out.txt").c_str(), &st), 0);
  EXPECT_EQ(st.st_mode & 0777, 0640u);
  for (const auto& e : fs::directory_iterator(dir_))
    EXPECT_EQ(e.path().filename().string().find(".tmp-"), std::string::npos) << e.path();
}

TEST_F(Files, WriteRefusesToOverwriteAnInputByAnyName) {
  put(path("in.toml"), "domain");
  ASSERT_EQ(::symlink(path("in.toml").c_str(), path("alias.toml").c_str()), 0);
  const std::string inputs[] = {path("in.toml")};
  for (const std::string& out : {path("in.toml"), path("alias.toml"), dir_ + "/./in.toml"}) {
    std::optional<Error> e = write_output_file(out, "plan", inputs);
    ASSERT_TRUE(e.has_value()) << out;
    EXPECT_NE(e->message.find("refusing to write the output over the input file"),
              std::string::npos);
  }
  EXPECT_EQ(test::read_text(path("in.toml")), "domain");
}

TEST_F(Files, FailedWritesAreErrorsWithTheReason) {
  std::optional<Error> e = write_output_file(path("no/such/dir/out.txt"), "x");
  ASSERT_TRUE(e.has_value());
  EXPECT_NE(e->message.find("cannot write the file"), std::string::npos);
  if (::access("/dev/full", W_OK) == 0) {
    e = write_output_file("/dev/full", "x");
    ASSERT_TRUE(e.has_value());
    EXPECT_NE(e->message.find("No space left on device"), std::string::npos) << e->message;
  }
  EXPECT_FALSE(write_output_file("/dev/null", "x").has_value());
  e = write_output_file(dir_, "x");
  ASSERT_TRUE(e.has_value());
}

TEST_F(Files, ASymlinkedOutputReplacesItsTargetAndKeepsTheLink) {
  put(path("target.txt"), "old");
  ASSERT_EQ(::symlink(path("target.txt").c_str(), path("link.txt").c_str()), 0);
  ASSERT_FALSE(write_output_file(path("link.txt"), "new").has_value());
  EXPECT_TRUE(fs::is_symlink(path("link.txt")));
  EXPECT_EQ(test::read_text(path("target.txt")), "new");
}

}  // namespace
}  // namespace topoplan

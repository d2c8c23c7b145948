// The native reader parses large files a piece at a time (src/io/toml_split.h): these tests pin
// that reading in chunks gives exactly what reading the whole document gives, with the errors on
// the same file lines, and that the splitter never splits inside a string, an array or a
// sub-table.
#include <filesystem>

#include <gtest/gtest.h>

#include "../../src/io/toml_split.h"
#include "test_util.h"
#include "topoplan/io/formats.h"

namespace topoplan {
namespace {

using io_detail::parse_native_chunked;

// Every chunk size gives the whole-document result: same task, or same error at the same line.
// `split`: whether the reader reads the text in chunks (false: it must fall back to whole).
// Large texts are checked with parse_native's chunk size only (the others are slow on them).
void expect_same(const std::string& text, const char* what, bool split = true) {
  SCOPED_TRACE(what);
  const bool large = text.size() > io_detail::kNativeChunkBytes;
  bool read_whole = false;
  (void)parse_native_chunked(text, "f.toml", large ? io_detail::kNativeChunkBytes : 1, &read_whole);
  EXPECT_EQ(read_whole, !split);
  const Result<Task> whole = parse_native_chunked(text, "f.toml", 0);
  std::vector<size_t> sizes = {io_detail::kNativeChunkBytes};
  if (!large) sizes.insert(sizes.end(), {1, 64, 4096});
  for (size_t chunk : sizes) {
    SCOPED_TRACE("chunk bytes " + std::to_string(chunk));
    const Result<Task> part = parse_native_chunked(text, "f.toml", chunk);
    ASSERT_EQ(part.ok(), whole.ok())
        << (whole.ok() ? part.error().to_string() : whole.error().to_string());
    if (whole.ok()) {
      EXPECT_TRUE(part->domain.to_def() == whole->domain.to_def());
      EXPECT_TRUE(part->instances == whole->instances);
    } else {
      EXPECT_EQ(part.error().to_string(), whole.error().to_string());
    }
  }
}

constexpr const char* kHead = R"([domain]
name = "d"

[[variable]]
name = "x"
values = ["a", "b", "c"]

[[variable]]
name = "y"
values = ["a", "b"]
)";

// `n` actions x: a -> b, each 5 lines plus a blank line; action i's header is at line
// first_action_line + 6 i.
std::string many_actions(int n) {
  std::string s = kHead;
  for (int i = 0; i < n; ++i)
    s += "\n[[action]]\nname = \"act" + std::to_string(i) +
         "\"\npre = { x = \"a\" }\npost = { x = \"b\" }\nprevail = { y = \"a\" }\n";
  return s;
}
constexpr int kFirstActionLine = 12;

TEST(NativeChunks, DomainsReadAlikeWholeAndInChunks) {
  for (const auto& e : std::filesystem::directory_iterator(test::domain_path(""))) {
    if (e.path().extension() != ".toml") continue;
    expect_same(test::read_text(e.path().string()), e.path().filename().c_str());
  }
}

TEST(NativeChunks, LargeFileIsReadInSeveralChunks) {
  const std::string text =
      many_actions(30000) +
      "\n[[instance]]\ninit = { x = \"a\", y = \"a\" }\ngoal = { x = \"b\" }\n";
  ASSERT_GT(text.size(), 2 * io_detail::kNativeChunkBytes);
  auto r = parse_native(text, "big.toml");
  ASSERT_TRUE(r.ok()) << r.error().to_string();
  EXPECT_EQ(r->domain.num_actions(), 30000);
  EXPECT_EQ(r->domain.action_name(29999), "act29999");
  ASSERT_EQ(r->instances.size(), 1u);
  expect_same(text, "30000 actions");
}

TEST(NativeChunks, ErrorsInLaterChunksCarryTheirFileLine) {
  // A semantic error (unknown variable) and a syntax error, each in action 25000 of 30000: far
  // past the first chunk of parse_native.
  const int bad = 25000;
  const int line = kFirstActionLine + 6 * bad;
  std::string text = many_actions(30000);
  const std::string needle = "name = \"act" + std::to_string(bad) + "\"\npre = { x";
  const size_t at = text.find(needle);
  ASSERT_NE(at, std::string::npos);

  std::string unknown = text;
  unknown.replace(at + needle.size() - 1, 1, "z");
  auto r = parse_native(unknown, "big.toml");
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error().line, line + 2) << r.error().to_string();
  EXPECT_NE(r.error().message.find("unknown variable 'z'"), std::string::npos);
  expect_same(unknown, "unknown variable");

  std::string syntax = text;
  syntax.replace(at + needle.size() - 1, 1, "= =");
  r = parse_native(syntax, "big.toml");
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error().line, line + 2) << r.error().to_string();
  expect_same(syntax, "syntax error");

  // The limit check counts actions across chunks.
  std::string duplicate = text;
  duplicate.replace(at + 11, 5, "0");  // "act25000" -> "act0"
  r = parse_native(duplicate, "big.toml");
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error().line, line + 1) << r.error().to_string();
  EXPECT_NE(r.error().message.find("first defined at line " + std::to_string(kFirstActionLine + 1)),
            std::string::npos)
      << r.error().message;
}

TEST(NativeChunks, HeadersInsideStringsArraysAndCommentsDoNotSplit) {
  const std::string tail =
      "\n[[instance]]\ninit = { x = \"a\", y = \"a\" }\ngoal = { x = \"b\" }\n";
  const std::string act = "\n[[action]]\npost = { x = \"b\" }\n";
  // A multi-line basic string whose line continuation makes the name "[[class]]"; the line
  // inside the string that looks like a header must not start a section.
  const std::string continued =
      std::string(kHead) + act + "name = \"\"\"\\\n[[class]]\"\"\"\n" + tail;
  auto r = parse_native_chunked(continued, "f.toml", 1);
  ASSERT_TRUE(r.ok()) << r.error().to_string();
  EXPECT_EQ(r->domain.action_name(0), "[[class]]");
  expect_same(continued, "line continuation");
  // The same with a multi-line literal string: an error (a newline in a name), same line.
  expect_same(std::string(kHead) + act + "name = '''x\n[[class]]\nname = \"c\"'''\n" + tail,
              "multi-line literal");
  // Quotes that close a multi-line string late, escapes, '#' and brackets inside strings.
  expect_same(std::string(kHead) + act + "name = \"\"\"a\\\"\"\"\"\"\n" + tail, "extra quotes");
  expect_same(std::string(kHead) + act + "name = \"a\\\"[[x]] # \"\n" + tail, "escaped quote");
  expect_same(std::string(kHead) + act + "name = 'q # [[instance]]'\n" + tail, "literal");
  // A nested array whose line starts with '[' (an error: names must be strings).
  expect_same(std::string(kHead) + act +
                  "name = \"a\"\n\n[[class]]\nname = \"c\"\nactions = [\n"
                  "[\"a\"],\n]\n" +
                  tail,
              "nested array");
  // Found by fuzz_native: a control character in a comment before the first header, which the
  // chunked reader accepted (it did not parse the text before the first header).
  expect_same(std::string("# a\0b\n", 6) + kHead, "NUL in a leading comment");
  expect_same(std::string("# a\x01b\n", 6) + kHead, "control character in a leading comment");
  // A header in a comment, a header followed by a comment, blanks around the key.
  expect_same(std::string(kHead) +
                  "# [[instance]]\n  [[ action ]]  # c\nname = \"a\"\n"
                  "post = { x = \"b\" }\n" +
                  tail,
              "comments and blanks");
}

TEST(NativeChunks, SubTablesStayWithTheirSection) {
  // [action.post] belongs to the last [[action]]: it must be parsed with it.
  const std::string sub = std::string(kHead) +
                          "\n[[action]]\nname = \"a\"\n[action.post]\nx = \"b\"\n"
                          "[action.prevail]\ny = \"a\"\n\n[[action]]\nname = \"b\"\n"
                          "[action.post]\nx = \"c\"\n";
  auto r = parse_native_chunked(sub, "f.toml", 1);
  ASSERT_TRUE(r.ok()) << r.error().to_string();
  EXPECT_EQ(r->domain.num_actions(), 2);
  EXPECT_EQ(r->domain.prevail(0).size(), 1u);
  expect_same(sub, "sub-tables");
  // A sub-table of an earlier array after another section, a quoted header key, root keys,
  // [domain] twice: documents the splitter leaves whole, read as before.
  expect_same(std::string(kHead) +
                  "\n[[action]]\nname = \"a\"\n\n[[class]]\nname = \"c\"\n"
                  "actions = [\"a\"]\n[action.post]\nx = \"b\"\n",
              "sub-table after another section", false);
  expect_same(std::string(kHead) + "\n[[\"action\"]]\nname = \"a\"\npost = { x = \"b\" }\n",
              "quoted key", false);
  expect_same(
      "variable = [{ name = \"x\", values = [\"a\", \"b\"] }]\n[[action]]\nname = \"a\"\n"
      "post = { x = \"b\" }\n",
      "root key", false);
  expect_same(std::string(kHead) + "\n[domain]\nname = \"e\"\n", "domain twice", false);
  expect_same(std::string(kHead) + "\n[[domain]]\nname = \"e\"\n", "domain as array", false);
  expect_same(std::string(kHead) + "\n[action]\nname = \"e\"\n", "action as table", false);
  expect_same(std::string(kHead) + "\n[other]\nname = \"e\"\n", "unknown table", false);
}

TEST(NativeChunks, OrderOfSectionsDoesNotMatter) {
  // Instances, classes and actions before the variables they name; CRLF; a byte-order mark.
  const std::string text =
      "# comment\n\n[[instance]]\ninit = { x = \"a\", y = \"a\" }\ngoal = { x = \"b\" }\n"
      "\n[[class]]\nname = \"c\"\nactions = [\"b\", \"a\"]\n"
      "\n[[action]]\nname = \"a\"\npost = { x = \"b\" }\n" +
      std::string(kHead) + "\n[[action]]\nname = \"b\"\npost = { y = \"b\" }\n";
  auto r = parse_native_chunked(text, "f.toml", 1);
  ASSERT_TRUE(r.ok()) << r.error().to_string();
  EXPECT_EQ(r->domain.action_name(0), "a");
  EXPECT_EQ(r->domain.action_name(1), "b");
  expect_same(text, "out of order");
  std::string crlf;
  for (char c : text) crlf += c == '\n' ? std::string("\r\n") : std::string(1, c);
  expect_same(crlf, "CRLF");
  expect_same("\xEF\xBB\xBF" + text, "byte-order mark");
  expect_same(
      "\xEF\xBB\xBF" + std::string(kHead) + "\n[[action]]\nname = \"a\"\npost = { x = \"b\" }\n",
      "BOM then header");
}

TEST(NativeChunks, SplitterSectionsAndLines) {
  const std::string text =
      "# c\n[domain]\nname = \"\"\"\n[[x]]\n\"\"\"\n[[action]]\n[action.post]\n"
      "v = [\n[1],\n]\n  [[ class ]]\n";
  auto s = io_detail::split_toml_sections(text);
  ASSERT_TRUE(s.has_value());
  ASSERT_EQ(s->size(), 4u);
  EXPECT_EQ((*s)[0].key, "");
  EXPECT_EQ((*s)[0].end, 4u);
  EXPECT_EQ((*s)[1].key, "domain");
  EXPECT_FALSE((*s)[1].array);
  EXPECT_EQ((*s)[1].line, 2);
  EXPECT_EQ((*s)[2].key, "action");
  EXPECT_TRUE((*s)[2].array);
  EXPECT_EQ((*s)[2].line, 6);
  EXPECT_EQ((*s)[3].key, "class");
  EXPECT_EQ((*s)[3].line, 11);
  EXPECT_EQ((*s)[3].begin, text.rfind("  [[ class"));
  EXPECT_EQ((*s)[3].end, text.size());
  EXPECT_FALSE(io_detail::split_toml_sections("[[a]]\n[b.c]\n").has_value());
  EXPECT_FALSE(io_detail::split_toml_sections("[\"a\"]\n").has_value());
}

}  // namespace
}  // namespace topoplan

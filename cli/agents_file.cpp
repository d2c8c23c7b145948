#include "agents_file.h"

#include <toml++/toml.h>
#include <algorithm>
#include <cctype>
#include <cmath>
#include <string_view>

#include "files.h"
#include "topoplan/io/formats.h"

namespace topoplan::cli {
namespace {

// The key of a top-level header written at the start of a line ("[[event]]" → "event"), or "".
std::string header_key(std::string_view line) {
  if (line.empty() || line[0] != '[') return "";
  size_t i = line.size() > 1 && line[1] == '[' ? 2 : 1;
  const size_t start = i;
  while (i < line.size() && (std::isalnum(static_cast<unsigned char>(line[i])) != 0 ||
                             line[i] == '_' || line[i] == '-'))
    ++i;
  if (i == start || i >= line.size() || line[i] != ']') return "";
  return std::string(line.substr(start, i - start));
}

bool is_agent_section(const std::string& key) {
  return key == "agents" || key == "goal" || key == "event";
}

int line_of(const toml::node& n) {
  return static_cast<int>(n.source().begin.line);
}

class Reader {
 public:
  Reader(std::string file, AgentsFile& out) : file_(std::move(file)), out_(out) {}
  std::optional<Error> read(std::string_view text);

 private:
  Error fail(int line, const std::string& message) const { return Error{message, file_, line}; }
  std::optional<Error> facts(const toml::node* node, int line, const std::string& where,
                             bool partial_goal, std::vector<ValueId>* values,
                             std::vector<Fact>* list);
  std::optional<Error> classes(const toml::node* node, int line, std::vector<ClassId>& out);
  std::optional<Error> keys(const toml::table& t, std::initializer_list<std::string_view> allowed,
                            const std::string& where);
  const Domain& domain() const { return out_.task.domain; }

  std::string file_;
  AgentsFile& out_;
};

std::optional<Error> Reader::keys(const toml::table& t,
                                  std::initializer_list<std::string_view> allowed,
                                  const std::string& where) {
  for (auto&& [key, node] : t) {
    (void)node;
    if (std::find(allowed.begin(), allowed.end(), key.str()) != allowed.end()) continue;
    std::string list;
    for (std::string_view a : allowed) list += (list.empty() ? "" : ", ") + std::string(a);
    return fail(
        static_cast<int>(key.source().begin.line),
        "unknown key '" + std::string(key.str()) + "' in " + where + " (allowed: " + list + ")");
  }
  return std::nullopt;
}

std::optional<Error> Reader::facts(const toml::node* node, int line, const std::string& where,
                                   bool partial_goal, std::vector<ValueId>* values,
                                   std::vector<Fact>* list) {
  const toml::table* t = node != nullptr ? node->as_table() : nullptr;
  if (t == nullptr) return fail(line, where + " needs a table of facts, e.g. { door = \"open\" }");
  if (t->empty()) return fail(line, where + ": no facts");
  if (values != nullptr) values->assign(static_cast<size_t>(domain().num_variables()), kUndefined);
  for (auto&& [key, value] : *t) {
    const int at = static_cast<int>(key.source().begin.line);
    const std::optional<VarId> v = domain().find_variable(key.str());
    if (!v) return fail(at, where + ": no variable '" + std::string(key.str()) + "'");
    const std::optional<std::string> name = value.value<std::string>();
    if (!name)
      return fail(at, where + ": the value of '" + std::string(key.str()) + "' must be a string");
    const std::optional<ValueId> x = domain().find_value(*v, *name);
    if (!x)
      return fail(
          at, where + ": variable '" + std::string(key.str()) + "' has no value '" + *name + "'");
    if (values != nullptr) (*values)[static_cast<size_t>(*v)] = *x;
    if (list != nullptr) list->push_back(Fact{*v, *x});
  }
  (void)partial_goal;
  return std::nullopt;
}

std::optional<Error> Reader::classes(const toml::node* node, int line, std::vector<ClassId>& out) {
  auto one = [&](const toml::node& n) -> std::optional<Error> {
    const std::optional<std::string> name = n.value<std::string>();
    if (!name) return fail(line_of(n), "a class is named by a string");
    const std::optional<ClassId> c = domain().find_class(*name);
    if (!c) return fail(line_of(n), "no class '" + *name + "'");
    out.push_back(*c);
    return std::nullopt;
  };
  if (node == nullptr) return std::nullopt;
  if (const toml::array* a = node->as_array()) {
    for (const toml::node& n : *a)
      if (auto e = one(n)) return e;
    if (a->empty()) return fail(line, "an empty class list");
    return std::nullopt;
  }
  return one(*node);
}

std::optional<Error> Reader::read(std::string_view text) {
  toml::table root;
  try {
    root = toml::parse(text, file_);
  } catch (const toml::parse_error& e) {
    return fail(static_cast<int>(e.source().begin.line), std::string(e.description()));
  }
  if (const toml::node* s = root.get("agents")) {
    const toml::table* t = s->as_table();
    if (t == nullptr) return fail(line_of(*s), "[agents] must be a table");
    if (auto e = keys(*t, {"decision_period", "max_plan_age", "action_frames"}, "[agents]"))
      return e;
    out_.has_settings = true;
    auto integer = [&](const char* key, int64_t min, int64_t max,
                       auto& dst) -> std::optional<Error> {
      const toml::node* n = t->get(key);
      if (n == nullptr) return std::nullopt;
      const std::optional<int64_t> v = n->value<int64_t>();
      if (!v || *v < min || *v > max)
        return fail(line_of(*n), std::string("[agents] ") + key + " must be an integer in [" +
                                     std::to_string(min) + ", " + std::to_string(max) + "]");
      dst = static_cast<std::remove_reference_t<decltype(dst)>>(*v);
      return std::nullopt;
    };
    if (auto e = integer("decision_period", 1, 1 << 20, out_.decision_period)) return e;
    if (auto e = integer("max_plan_age", 0, int64_t{1} << 30, out_.max_plan_age)) return e;
    if (auto e = integer("action_frames", 1, 1 << 16, out_.action_frames)) return e;
  }
  if (const toml::node* s = root.get("goal")) {
    const toml::array* a = s->as_array();
    if (a == nullptr) return fail(line_of(*s), "goals are [[goal]] tables");
    for (const toml::node& n : *a) {
      const toml::table* t = n.as_table();
      const int line = line_of(n);
      if (t == nullptr) return fail(line, "goals are [[goal]] tables");
      if (auto e = keys(*t, {"name", "class", "facts"}, "[[goal]]")) return e;
      AgentsFile::Goal g;
      const std::optional<std::string> name = (*t)["name"].value<std::string>();
      if (!name || name->empty()) return fail(line, "[[goal]] needs a name");
      g.name = *name;
      if (auto e = classes(t->get("class"), line, g.classes)) return e;
      if (auto e = facts(t->get("facts"), line, "goal '" + g.name + "'", true, &g.values, nullptr))
        return e;
      out_.goals.push_back(std::move(g));
    }
  }
  if (const toml::node* s = root.get("event")) {
    const toml::array* a = s->as_array();
    if (a == nullptr) return fail(line_of(*s), "events are [[event]] tables");
    for (const toml::node& n : *a) {
      const toml::table* t = n.as_table();
      const int line = line_of(n);
      if (t == nullptr) return fail(line, "events are [[event]] tables");
      if (auto e = keys(*t, {"frame", "class", "share", "set"}, "[[event]]")) return e;
      AgentsFile::SensedEvent ev;
      ev.line = line;
      const std::optional<int64_t> frame = (*t)["frame"].value<int64_t>();
      if (!frame || *frame < 0) return fail(line, "[[event]] needs frame = an integer >= 0");
      ev.frame = *frame;
      std::vector<ClassId> cls;
      if (auto e = classes(t->get("class"), line, cls)) return e;
      if (cls.size() > 1) return fail(line, "[[event]] names one class");
      if (!cls.empty()) ev.npc_class = cls[0];
      if (const toml::node* sh = t->get("share")) {
        const std::optional<double> v = sh->value<double>();
        if (!v || !std::isfinite(*v) || *v < 0 || *v > 1)
          return fail(line_of(*sh), "[[event]] share must be a number in [0, 1]");
        ev.share = *v;
      }
      if (auto e = facts(t->get("set"), line, "[[event]] set", false, nullptr, &ev.set)) return e;
      out_.events.push_back(std::move(ev));
    }
    std::stable_sort(out_.events.begin(), out_.events.end(),
                     [](const auto& x, const auto& y) { return x.frame < y.frame; });
  }
  return std::nullopt;
}

}  // namespace

Result<AgentsFile> read_agents_file(const std::string& path) {
  Result<std::string> text = read_input_file(path, input_limits());
  if (!text) return text.error();
  // Two texts of the same lines: the domain's (agent sections blanked) and the agents'.
  std::string domain_text, agent_text;
  domain_text.reserve(text.value().size());
  agent_text.reserve(text.value().size());
  bool agent_section = false;
  std::string_view rest = text.value();
  while (!rest.empty()) {
    const size_t nl = rest.find('\n');
    const std::string_view line =
        rest.substr(0, nl == std::string_view::npos ? rest.size() : nl + 1);
    rest.remove_prefix(line.size());
    const std::string key = header_key(line);
    if (!key.empty()) agent_section = is_agent_section(key);
    const bool has_newline = !line.empty() && line.back() == '\n';
    (agent_section ? agent_text : domain_text) += line;
    (agent_section ? domain_text : agent_text) += has_newline ? "\n" : "";
  }
  Result<Task> task = parse_native(domain_text, path);
  if (!task) return task.error();
  AgentsFile out;
  out.task = std::move(task).value();
  Reader reader(path, out);
  if (auto e = reader.read(agent_text)) return *e;
  return out;
}

}  // namespace topoplan::cli

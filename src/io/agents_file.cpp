// The agents file reader and its scripted engine (topoplan/io/agents_file.h).
#include "topoplan/io/agents_file.h"

#include <toml++/toml.h>
#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdio>
#include <optional>
#include <string_view>

#include "toml_reader.h"
#include "topoplan/runtime/limits.h"

namespace topoplan {
namespace {

// The key of a top-level header written at the start of a line ("[[event]]" → "event"), or "".
std::string_view header_key(std::string_view line) {
  if (line.empty() || line[0] != '[') return {};
  size_t i = line.size() > 1 && line[1] == '[' ? 2 : 1;
  const size_t start = i;
  while (i < line.size() && (std::isalnum(static_cast<unsigned char>(line[i])) != 0 ||
                             line[i] == '_' || line[i] == '-'))
    ++i;
  if (i == start || i >= line.size() || line[i] != ']') return {};
  return line.substr(start, i - start);
}

class Reader : public toml_detail::TomlReader {
 public:
  Reader(std::string file, AgentsFile& out)
      : TomlReader(std::move(file), toml_detail::quote_verbatim), out_(out) {}
  // Reads the agent sections; false: error() says why.
  bool read(std::string_view text);
  const Error& error() const { return err_; }

 private:
  bool settings(const toml::node& s);
  bool goal(const toml::node& n);
  bool event(const toml::node& n);
  bool facts(const toml::node* node, int line, const std::string& where,
             std::vector<ValueId>* values, std::vector<Fact>* list);
  bool classes(const toml::node* node, int line, std::vector<ClassId>& out);
  const Domain& domain() const { return out_.task.domain; }

  AgentsFile& out_;
};

bool Reader::facts(const toml::node* node, int line, const std::string& where,
                   std::vector<ValueId>* values, std::vector<Fact>* list) {
  const toml::table* t = node != nullptr ? node->as_table() : nullptr;
  if (t == nullptr) return fail(line, where + " needs a table of facts, e.g. { door = \"open\" }");
  if (t->empty()) return fail(line, where + ": no facts");
  if (values != nullptr) values->assign(static_cast<size_t>(domain().num_variables()), kUndefined);
  for (auto&& [key, value] : *t) {
    const int at = line_of(key.source());
    const std::string k(key.str());
    const std::optional<VarId> v = domain().find_variable(k);
    if (!v) return fail(at, where + ": no variable '" + k + "'");
    const std::optional<std::string> name = value.value<std::string>();
    if (!name) return fail(at, where + ": the value of '" + k + "' must be a string");
    const std::optional<ValueId> x = domain().find_value(*v, *name);
    if (!x) return fail(at, where + ": variable '" + k + "' has no value '" + *name + "'");
    if (values != nullptr) (*values)[static_cast<size_t>(*v)] = *x;
    if (list != nullptr) list->push_back(Fact{*v, *x});
  }
  return true;
}

bool Reader::classes(const toml::node* node, int line, std::vector<ClassId>& out) {
  auto one = [&](const toml::node& n) {
    const std::optional<std::string> name = n.value<std::string>();
    if (!name) return fail(line_of(n), "a class is named by a string");
    const std::optional<ClassId> c = domain().find_class(*name);
    if (!c) return fail(line_of(n), "no class '" + *name + "'");
    out.push_back(*c);
    return true;
  };
  if (node == nullptr) return true;
  if (const toml::array* a = node->as_array()) {
    for (const toml::node& n : *a)
      if (!one(n)) return false;
    if (a->empty()) return fail(line, "an empty class list");
    return true;
  }
  return one(*node);
}

bool Reader::settings(const toml::node& s) {
  const toml::table* t = s.as_table();
  if (t == nullptr) return fail(line_of(s), "[agents] must be a table");
  if (!check_keys(*t, {"decision_period", "max_plan_age", "action_frames"}, "[agents]"))
    return false;
  // The table's ranges and words (limits.h), those of AgentWorldDef at every door.
  auto integer = [&](const LimitSpec& spec, auto& dst) {
    const toml::node* n = t->get(spec.name);
    if (n == nullptr) return true;
    const std::optional<int64_t> v = n->value_exact<int64_t>();
    const std::optional<double> x = n->value<double>();
    const std::string where = "'" + std::string(spec.name) + "' of [agents]";
    if (!v) {
      if (auto e = check_limit(spec, x ? *x : std::nan(""), where))
        return fail(line_of(*n), e->message);
      return fail(line_of(*n), where + ": not a number");
    }
    if (auto e = check_limit(spec, *v, where)) return fail(line_of(*n), e->message);
    dst = static_cast<std::remove_reference_t<decltype(dst)>>(*v);
    return true;
  };
  return integer(limits::kAgentsDecisionPeriod, out_.decision_period) &&
         integer(limits::kAgentsMaxPlanAge, out_.max_plan_age) &&
         integer(limits::kAgentsActionFrames, out_.action_frames);
}

bool Reader::goal(const toml::node& n) {
  const toml::table* t = n.as_table();
  const int line = line_of(n);
  if (t == nullptr) return fail(line, "goals are [[goal]] tables");
  if (!check_keys(*t, {"name", "class", "facts"}, "[[goal]]")) return false;
  AgentsFile::Goal g;
  const std::optional<std::string> name = (*t)["name"].value<std::string>();
  if (!name || name->empty()) return fail(line, "[[goal]] needs a name");
  g.name = *name;
  if (!classes(t->get("class"), line, g.classes) ||
      !facts(t->get("facts"), line, "goal '" + g.name + "'", &g.values, nullptr))
    return false;
  out_.goals.push_back(std::move(g));
  return true;
}

bool Reader::event(const toml::node& n) {
  const toml::table* t = n.as_table();
  const int line = line_of(n);
  if (t == nullptr) return fail(line, "events are [[event]] tables");
  if (!check_keys(*t, {"frame", "class", "share", "set"}, "[[event]]")) return false;
  AgentsFile::SensedEvent ev;
  ev.line = line;
  const std::optional<int64_t> frame = (*t)["frame"].value<int64_t>();
  if (!frame || *frame < 0) return fail(line, "[[event]] needs frame = an integer >= 0");
  ev.frame = *frame;
  std::vector<ClassId> cls;
  if (!classes(t->get("class"), line, cls)) return false;
  if (cls.size() > 1) return fail(line, "[[event]] names one class");
  if (!cls.empty()) ev.npc_class = cls[0];
  if (const toml::node* sh = t->get("share")) {
    const std::optional<double> v = sh->value<double>();
    if (!v || !std::isfinite(*v) || *v < 0 || *v > 1)
      return fail(line_of(*sh), "[[event]] share must be a number in [0, 1]");
    ev.share = *v;
  }
  if (!facts(t->get("set"), line, "[[event]] set", nullptr, &ev.set)) return false;
  out_.events.push_back(std::move(ev));
  return true;
}

bool Reader::read(std::string_view text) {
  toml::table root;
  if (!parse(text, root)) return false;
  if (const toml::node* s = root.get("agents"))
    if (!settings(*s)) return false;
  if (const toml::node* s = root.get("goal")) {
    const toml::array* a = s->as_array();
    if (a == nullptr) return fail(line_of(*s), "goals are [[goal]] tables");
    for (const toml::node& n : *a)
      if (!goal(n)) return false;
  }
  if (const toml::node* s = root.get("event")) {
    const toml::array* a = s->as_array();
    if (a == nullptr) return fail(line_of(*s), "events are [[event]] tables");
    for (const toml::node& n : *a)
      if (!event(n)) return false;
    std::stable_sort(out_.events.begin(), out_.events.end(),
                     [](const auto& x, const auto& y) { return x.frame < y.frame; });
  }
  return true;
}

// What the file leaves implicit: per class the variables it changes and its start state, and
// without [[goal]] tables the routines of the instances.
void complete(AgentsFile& f) {
  const Domain& d = f.task.domain;
  const auto classes = static_cast<size_t>(std::max(1, d.num_classes()));
  std::vector<std::vector<uint8_t>> changed(classes, std::vector<uint8_t>(d.num_variables(), 0));
  f.changes.assign(classes, {});
  f.start.assign(classes, std::vector<ValueId>(d.num_variables(), 0));
  for (size_t c = 0; c < classes; ++c) {
    const auto mask = d.action_mask(d.num_classes() > 0 ? static_cast<ClassId>(c) : kAllActions);
    for (ActionId a = 0; a < d.num_actions(); ++a)
      if (mask[static_cast<size_t>(a)] != 0)
        for (const Effect& e : d.effects(a)) changed[c][e.var] = 1;
    for (VarId v = 0; v < d.num_variables(); ++v)
      if (changed[c][v] != 0) f.changes[c].push_back(v);
    for (const Instance& inst : f.task.instances)
      if (inst.npc_class == static_cast<ClassId>(c) || inst.npc_class == kAllActions) {
        f.start[c] = inst.init;
        break;
      }
  }
  if (!f.goals.empty()) return;
  for (const Instance& inst : f.task.instances) {
    AgentsFile::Goal g;
    g.name = inst.name.empty() ? "instance" : inst.name;
    const ClassId c = inst.npc_class == kAllActions ? 0 : inst.npc_class;
    if (inst.npc_class != kAllActions) g.classes = {c};
    g.values.assign(inst.goal.size(), kUndefined);
    for (VarId v = 0; v < d.num_variables(); ++v)
      if (changed[static_cast<size_t>(c)][v] != 0) g.values[v] = inst.goal[v];
    f.goals.push_back(std::move(g));
  }
}

}  // namespace

AgentsFileText split_agents_file(std::string_view text) {
  AgentsFileText out;
  out.domain.reserve(text.size());
  out.agents.reserve(text.size());
  bool agent_section = false;
  while (!text.empty()) {
    const size_t nl = text.find('\n');
    const std::string_view line =
        text.substr(0, nl == std::string_view::npos ? text.size() : nl + 1);
    text.remove_prefix(line.size());
    const std::string_view key = header_key(line);
    if (!key.empty()) agent_section = key == "agents" || key == "goal" || key == "event";
    const bool has_newline = !line.empty() && line.back() == '\n';
    (agent_section ? out.agents : out.domain) += line;
    (agent_section ? out.domain : out.agents) += has_newline ? "\n" : "";
  }
  return out;
}

Result<AgentsFile> parse_agents_file(std::string_view text, const std::string& filename) {
  const AgentsFileText parts = split_agents_file(text);
  Result<Task> task = parse_native(parts.domain, filename);
  if (!task) return task.error();
  AgentsFile out;
  out.task = std::move(task).value();
  if (Reader reader(filename, out); !reader.read(parts.agents)) return reader.error();
  complete(out);
  if (out.goals.empty()) return Error{"no goals: add [[goal]] tables or instances", filename, 0};
  return out;
}

Result<AgentsFile> load_agents_file(const std::string& path, const ReadLimits& limits) {
  Result<std::string> text = read_input_file(path, limits);
  if (!text) return text.error();
  return parse_agents_file(text.value(), path);
}

std::optional<Error> populate_agents(const AgentsFile& file, int32_t agents,
                                     agents::AgentWorld& world) {
  const int32_t classes = file.num_classes();
  std::vector<std::vector<agents::GoalId>> lists(static_cast<size_t>(classes));
  for (const AgentsFile::Goal& g : file.goals) {
    Result<agents::GoalId> id = world.add_goal(g.name, g.values);
    if (!id) return id.error();
    for (int32_t c = 0; c < classes; ++c)
      if (g.classes.empty() || std::find(g.classes.begin(), g.classes.end(), c) != g.classes.end())
        lists[static_cast<size_t>(c)].push_back(id.value());
  }
  for (int32_t c = 0; c < classes; ++c) {
    Result<int32_t> list = world.add_goal_list(lists[static_cast<size_t>(c)]);
    if (!list) return list.error();
    if (auto e = world.set_class_goals(c, list.value())) return e;
  }
  for (int32_t i = 0; i < agents; ++i) {
    Result<agents::AgentId> id =
        world.add_agent(i % classes, file.start[static_cast<size_t>(i % classes)]);
    if (!id) return id.error();
  }
  return std::nullopt;
}

ScriptedEngine::ScriptedEngine(const AgentsFile& file, int32_t agents, uint64_t seed)
    : file_(file),
      agents_(agents),
      seed_(seed),
      rng_(seed),
      wheel_(static_cast<size_t>(file.action_frames) + 1) {}

namespace {

// A deterministic coin for agent i at frame f: true with probability `share`.
bool chosen(uint64_t seed, int64_t frame, int32_t agent, double share) {
  if (share >= 1.0) return true;
  SplitMix64 r(seed ^ (static_cast<uint64_t>(frame) * 0x9E3779B97F4A7C15ull) ^
               (static_cast<uint64_t>(agent) << 20));
  return r.unit() < share;
}

}  // namespace

void ScriptedEngine::before_update(World& world, double sense, bool scripted) {
  const Domain& d = file_.task.domain;
  auto& due = wheel_[static_cast<size_t>(frame_ % static_cast<int64_t>(wheel_.size()))];
  for (const auto& [agent, action] : due)
    if (world.running_action(agent) == action)
      for (const Effect& e : d.effects(action)) world.set_fact(agent, e.var, e.post);
  due.clear();
  while (next_event_ < file_.events.size() && file_.events[next_event_].frame <= frame_) {
    const AgentsFile::SensedEvent& ev = file_.events[next_event_++];
    if (ev.frame < frame_ || !scripted) continue;
    for (int32_t i = 0; i < agents_; ++i)
      if ((ev.npc_class == kAllActions || world.npc_class(i) == ev.npc_class) &&
          chosen(seed_ + static_cast<uint64_t>(ev.line), frame_, i, ev.share))
        for (const Fact& x : ev.set) world.set_fact(i, x.var, x.value);
  }
  const auto sensing = static_cast<int64_t>(std::clamp(sense, 0.0, 1.0) * agents_);
  for (int64_t k = 0; k < sensing; ++k) {
    const int32_t i = rng_.below(agents_);
    const auto& vars = file_.changes[static_cast<size_t>(world.npc_class(i))];
    if (vars.empty()) continue;
    const VarId v = vars[static_cast<size_t>(rng_.below(static_cast<int32_t>(vars.size())))];
    world.set_fact(i, v, rng_.below(d.domain_size(v)));
  }
}

void ScriptedEngine::observe(const agents::Event& e) {
  for (uint64_t x : {uint64_t(uint32_t(e.agent)), uint64_t(e.kind), uint64_t(e.detail),
                     uint64_t(e.step), uint64_t(uint32_t(e.action)), uint64_t(uint32_t(e.goal))})
    hash_ = (hash_ ^ x) * 1099511628211ull;
  if (e.kind == agents::EventKind::kStartAction)
    wheel_[static_cast<size_t>((frame_ + file_.action_frames) %
                               static_cast<int64_t>(wheel_.size()))]
        .emplace_back(e.agent, e.action);
}

std::string ScriptedEngine::hash_text() const {
  char text[32];
  std::snprintf(text, sizeof text, "%016llx", static_cast<unsigned long long>(hash_));
  return text;
}

}  // namespace topoplan

// The native domain format (TOML, parsed by toml++): the reader (writer: native_writer.cpp).
// Reference: docs/formats.md.
//
// Design: everything is named, nothing is positional. The reader resolves every name itself
// (variables, values, actions, classes) so each error carries the line of the offending key or
// value; Domain::compile then re-validates the model rules as the single source of truth.
// Unknown keys are errors: a typo ("previal") must not silently drop a condition. TOML tables
// do not keep key order, so effects, pre-conditions and prevails are stored in variable order.
//
// Memory: toml++'s tree of a whole file takes about 14 times the file. The reader therefore
// splits the text at its top-level headers (toml_split.h) and parses it about a MiB at a time,
// in the order the model needs (domain, variables, actions, classes, then instances), dropping
// each piece's tree once its tables are in the DomainDef. A document the splitter does not model
// (root keys, quoted header keys, a sub-table of another array) is parsed whole, as before.
#include <algorithm>
#include <array>
#include <unordered_map>
#include <utility>

#include "text.h"
#include "toml_reader.h"
#include "toml_split.h"
#include "topoplan/io/formats.h"

namespace topoplan {
namespace {

using toml_detail::Empty;
using toml_detail::line_of;
using toml_detail::type_name;

struct Named {
  int32_t id = 0;
  int line = 0;
};

// The kinds of top-level tables, in the order the reader needs them.
enum class Part { kDomain, kVariable, kAction, kClass, kInstance };
constexpr std::array<std::string_view, 5> kPartKey = {"domain", "variable", "action", "class",
                                                      "instance"};

// A run of consecutive sections of one kind, parsed as one document.
struct Chunk {
  Part part = Part::kDomain;
  size_t begin = 0;
  size_t end = 0;
  int line = 1;
};

// Groups the sections of `text` into chunks of about `chunk_bytes`; nullopt when the document
// must be parsed whole (see the file comment).
std::optional<std::vector<Chunk>> plan_chunks(std::string_view text, size_t chunk_bytes) {
  auto sections = io_detail::split_toml_sections(text);
  if (!sections) return std::nullopt;
  std::vector<Chunk> chunks;
  bool domain = false;
  for (size_t k = 1; k < sections->size(); ++k) {
    const io_detail::TomlSection& s = (*sections)[k];
    auto it = std::find(kPartKey.begin(), kPartKey.end(), s.key);
    if (it == kPartKey.end()) return std::nullopt;
    const auto part = static_cast<Part>(it - kPartKey.begin());
    if (s.array != (part != Part::kDomain)) return std::nullopt;
    if (part == Part::kDomain && std::exchange(domain, true)) return std::nullopt;
    if (!chunks.empty() && chunks.back().part == part &&
        chunks.back().end - chunks.back().begin < chunk_bytes) {
      chunks.back().end = s.end;
    } else {
      chunks.push_back(Chunk{part, s.begin, s.end, s.line});
    }
  }
  if (chunks.empty()) return std::nullopt;
  return chunks;
}

class NativeReader : toml_detail::TomlReader {
 public:
  explicit NativeReader(const std::string& file) : TomlReader(file, io_detail::quote) {}
  // `chunks` null: the whole text as one document. `fallback` is set when a chunk turns out not
  // to be self-contained; the caller then reads the text whole with a fresh reader.
  Result<Task> read(std::string_view text, const std::vector<Chunk>* chunks, bool& fallback);

 private:
  // A string-valued key; `line` gets the line of its value (of the table when absent).
  bool get_string(const toml::table& t, std::string_view key, const std::string& where,
                  bool required, std::string& out, int& line) {
    return TomlReader::get_string(t, key, where, required, Empty::kAllow, out, &line);
  }

  // Registers a unique name: "duplicate variable 'a' (first defined at line 3)".
  bool unique(std::unordered_map<std::string, Named>& index, const std::string& name, Named named,
              const char* kind) {
    if (auto [it, inserted] = index.emplace(name, named); !inserted)
      return fail(named.line, std::string("duplicate ") + kind + " " + quote(name) +
                                  " (first defined at line " + std::to_string(it->second.line) +
                                  ")");
    return true;
  }

  bool check_name(std::string_view name, const std::string& what, int line) {
    if (auto why = io_detail::name_problem(name))
      return fail(line, what + " " + quote(name) + " " + *why);
    return true;
  }

  const toml::table* get_table(const toml::table& t, std::string_view key, const std::string& where,
                               bool required, bool& ok) {
    ok = true;
    const toml::node* n = t.get(key);
    if (!n) {
      if (required) ok = fail_missing(line_of(t), where, key);
      return nullptr;
    }
    if (!n->is_table()) {
      ok = fail(line_of(*n), "'" + std::string(key) + "' of " + where +
                                 " must be a table such as { variable = \"value\" }, found " +
                                 type_name(*n));
      return nullptr;
    }
    return n->as_table();
  }

  // Resolves { variable = "value", ... } into facts sorted by variable; `lines` gets the line of
  // each fact's key (same order).
  bool assignments(const toml::table& t, const std::string& where, std::vector<Fact>& facts,
                   std::vector<int>* lines = nullptr) {
    std::vector<std::pair<Fact, int>> out;
    for (auto&& [key, node] : t) {
      const int kline = line_of(key.source());
      auto v = var_index_.find(std::string(key.str()));
      if (v == var_index_.end())
        return fail(kline, "unknown variable " + quote(key.str()) + " in " + where +
                               io_detail::list_if_short(var_names_));
      const VariableDef& var = def_.variables[static_cast<size_t>(v->second.id)];
      if (!node.is_string())
        return fail(line_of(node), "the value of " + quote(var.name) + " in " + where +
                                       " must be a string (a value name), found " +
                                       type_name(node));
      const std::string& value = node.as_string()->get();
      const auto& values = value_index_[static_cast<size_t>(v->second.id)];
      auto x = values.find(value);
      if (x == values.end()) {
        std::vector<std::string_view> names(var.values.begin(), var.values.end());
        return fail(line_of(node), "unknown value " + quote(value) + " for variable " +
                                       quote(var.name) + " in " + where +
                                       io_detail::list_if_short(names));
      }
      out.push_back({Fact{v->second.id, x->second}, kline});
    }
    std::sort(out.begin(), out.end(),
              [](const auto& a, const auto& b) { return a.first.var < b.first.var; });
    facts.clear();
    if (lines) lines->clear();
    for (const auto& [f, l] : out) {
      facts.push_back(f);
      if (lines) lines->push_back(l);
    }
    return true;
  }

  using Step = bool (NativeReader::*)(const toml::table&);
  // Runs `step` on the tables of one kind: on the whole document, or chunk by chunk.
  bool each(Part part, Step step);

  bool read_domain(const toml::table& root);
  bool read_variables(const toml::table& root);
  bool read_actions(const toml::table& root);
  bool read_classes(const toml::table& root);
  bool read_instances(const toml::table& root);

  std::string_view text_;
  const std::vector<Chunk>* chunks_ = nullptr;
  toml::table whole_;  // the whole document when it is not read in chunks
  bool fallback_ = false;

  DomainDef def_;
  std::unordered_map<std::string, Named> var_index_;
  std::vector<std::string_view> var_names_;
  std::vector<std::unordered_map<std::string, ValueId>> value_index_;
  std::unordered_map<std::string, Named> action_index_;
  std::unordered_map<std::string, Named> class_index_;
  std::vector<int32_t> mark_;                   // scratch: per-variable or per-action stamps
  std::vector<std::string_view> action_names_;  // for messages, when there are few
  std::vector<std::string_view> class_names_;   // idem
  std::unordered_map<std::string, Named> instance_index_;
  const Domain* domain_ = nullptr;  // compiled, for the instances
  std::vector<Instance> instances_;
};

bool NativeReader::each(Part part, Step step) {
  if (!chunks_) return (this->*step)(whole_);
  const std::string_view key = kPartKey[static_cast<size_t>(part)];
  for (const Chunk& c : *chunks_) {
    if (c.part != part) continue;
    toml::table root;
    line_offset_ = c.line - 1;
    if (!parse(text_.substr(c.begin, c.end - c.begin), root)) return false;
    for (auto&& [k, node] : root) {
      (void)node;
      if (k.str() != key) {  // the splitter misjudged the document: read it whole
        fallback_ = true;
        return false;
      }
    }
    if (!(this->*step)(root)) return false;
  }
  line_offset_ = 0;
  return true;
}

bool NativeReader::read_domain(const toml::table& root) {
  const toml::node* n = root.get("domain");
  if (!n) return true;
  const toml::table* t = n->as_table();
  if (!t) return fail(line_of(*n), "'domain' must be a table ([domain]), found " + type_name(*n));
  if (!check_keys(*t, {"name"}, "[domain]")) return false;
  int line = 0;
  if (!get_string(*t, "name", "[domain]", false, def_.name, line)) return false;
  if (t->get("name") && !check_name(def_.name, "domain name", line)) return false;
  return true;
}

bool NativeReader::read_variables(const toml::table& root) {
  std::vector<const toml::table*> items;
  if (!array_of_tables(root, "variable", items)) return false;
  for (const toml::table* t : items) {
    const int tline = line_of(*t);
    if (def_.variables.size() >= static_cast<size_t>(kMaxVariables))
      return fail(tline, "too many variables (limit " + std::to_string(kMaxVariables) + ")");
    if (!check_keys(*t, {"name", "values"}, "[[variable]]")) return false;
    VariableDef var;
    int line = 0;
    if (!get_string(*t, "name", "[[variable]]", true, var.name, line)) return false;
    if (!check_name(var.name, "variable name", line)) return false;
    if (!unique(var_index_, var.name, {static_cast<VarId>(def_.variables.size()), line},
                "variable"))
      return false;
    const std::string who = "variable " + quote(var.name);
    const toml::node* vals = t->get("values");
    if (!vals) return fail(tline, who + " is missing the key 'values'");
    const toml::array* arr = vals->as_array();
    if (!arr)
      return fail(line_of(*vals),
                  "'values' of " + who + " must be an array of strings, found " + type_name(*vals));
    if (arr->empty()) return fail(line_of(*vals), who + " has no values");
    if (arr->size() > static_cast<size_t>(kMaxDomainSize))
      return fail(line_of(*vals), who + " has too many values (" + std::to_string(arr->size()) +
                                      ", limit " + std::to_string(kMaxDomainSize) + ")");
    std::unordered_map<std::string, ValueId> values;
    for (const toml::node& el : *arr) {
      if (!el.is_string())
        return fail(line_of(el), "values of " + who + " must be strings, found " + type_name(el));
      const std::string& value = el.as_string()->get();
      if (!check_name(value, who + ": value name", line_of(el))) return false;
      if (!values.emplace(value, static_cast<ValueId>(var.values.size())).second)
        return fail(line_of(el), who + ": duplicate value " + quote(value));
      var.values.push_back(value);
    }
    value_index_.push_back(std::move(values));
    def_.variables.push_back(std::move(var));
  }
  return true;
}

bool NativeReader::read_actions(const toml::table& root) {
  std::vector<const toml::table*> items;
  if (!array_of_tables(root, "action", items)) return false;
  for (const toml::table* t : items) {
    if (def_.actions.size() >= static_cast<size_t>(kMaxActions))
      return fail(line_of(*t), "too many actions (limit " + std::to_string(kMaxActions) + ")");
    if (!check_keys(*t, {"name", "cost", "pre", "post", "prevail"}, "[[action]]")) return false;
    ActionDef act;
    int line = 0;
    if (!get_string(*t, "name", "[[action]]", true, act.name, line)) return false;
    if (!check_name(act.name, "action name", line)) return false;
    const auto id = static_cast<ActionId>(def_.actions.size());
    if (!unique(action_index_, act.name, {id, line}, "action")) return false;
    const std::string who = "action " + quote(act.name);
    if (const toml::node* c = t->get("cost")) {
      if (!c->is_integer())
        return fail(line_of(*c),
                    "'cost' of " + who + " must be an integer, found " + type_name(*c));
      act.cost = c->as_integer()->get();
      if (act.cost < 0) return fail(line_of(*c), "'cost' of " + who + " must not be negative");
      if (act.cost > kMaxCost)
        return fail(line_of(*c),
                    "'cost' of " + who + " is above the limit " + std::to_string(kMaxCost));
    }
    bool ok = true;
    const toml::table* post = get_table(*t, "post", who, true, ok);
    if (!ok) return false;
    const toml::table* pre = get_table(*t, "pre", who, false, ok);
    if (!ok) return false;
    const toml::table* prv = get_table(*t, "prevail", who, false, ok);
    if (!ok) return false;
    std::vector<Fact> post_facts, pre_facts, prv_facts;
    std::vector<int> pre_lines, prv_lines;
    if (!assignments(*post, "'post' of " + who, post_facts)) return false;
    if (post_facts.empty())
      return fail(line_of(*post), who + " changes nothing: 'post' needs at least one variable");
    if (pre && !assignments(*pre, "'pre' of " + who, pre_facts, &pre_lines)) return false;
    if (prv && !assignments(*prv, "'prevail' of " + who, prv_facts, &prv_lines)) return false;
    // mark_[v] == stamp: v is changed by this action (O(1) test, no per-action allocation).
    const int32_t stamp = id + 1;
    for (const Fact& f : post_facts) mark_[static_cast<size_t>(f.var)] = stamp;
    auto in_post = [&](VarId v) { return mark_[static_cast<size_t>(v)] == stamp; };
    for (size_t i = 0; i < pre_facts.size(); ++i)
      if (!in_post(pre_facts[i].var))
        return fail(pre_lines[i],
                    who + ": 'pre' names " +
                        quote(def_.variables[static_cast<size_t>(pre_facts[i].var)].name) +
                        ", which 'post' does not change (a condition on an unchanged variable "
                        "belongs in 'prevail')");
    for (size_t i = 0; i < prv_facts.size(); ++i)
      if (in_post(prv_facts[i].var))
        return fail(prv_lines[i],
                    who + ": variable " +
                        quote(def_.variables[static_cast<size_t>(prv_facts[i].var)].name) +
                        " is in both 'post' and 'prevail'");
    // Both lists are sorted by variable and pre ⊆ post: merge them.
    size_t k = 0;
    for (const Fact& f : post_facts) {
      Effect e{f.var, kUndefined, f.value};
      if (k < pre_facts.size() && pre_facts[k].var == f.var) e.pre = pre_facts[k++].value;
      act.effects.push_back(e);
    }
    act.prevail = std::move(prv_facts);
    def_.actions.push_back(std::move(act));
  }
  return true;
}

bool NativeReader::read_classes(const toml::table& root) {
  std::vector<const toml::table*> items;
  if (!array_of_tables(root, "class", items)) return false;
  for (const toml::table* t : items) {
    if (!check_keys(*t, {"name", "actions"}, "[[class]]")) return false;
    NpcClassDef cls;
    int line = 0;
    if (!get_string(*t, "name", "[[class]]", true, cls.name, line)) return false;
    if (!check_name(cls.name, "class name", line)) return false;
    const auto id = static_cast<ClassId>(def_.classes.size());
    if (!unique(class_index_, cls.name, {id, line}, "class")) return false;
    const std::string who = "class " + quote(cls.name);
    const toml::node* acts = t->get("actions");
    if (!acts) return fail(line_of(*t), who + " is missing the key 'actions'");
    const toml::array* arr = acts->as_array();
    if (!arr)
      return fail(
          line_of(*acts),
          "'actions' of " + who + " must be an array of action names, found " + type_name(*acts));
    const int32_t stamp = id + 1;
    for (const toml::node& el : *arr) {
      if (!el.is_string())
        return fail(line_of(el),
                    "'actions' of " + who + " must hold strings, found " + type_name(el));
      const std::string& name = el.as_string()->get();
      auto a = action_index_.find(name);
      if (a == action_index_.end())
        return fail(line_of(el), who + ": unknown action " + quote(name) +
                                     io_detail::list_if_short(action_names_));
      int32_t& mark = mark_[static_cast<size_t>(a->second.id)];
      if (mark == stamp)
        return fail(line_of(el), who + ": action " + quote(name) + " is listed twice");
      mark = stamp;
      cls.actions.push_back(a->second.id);
    }
    def_.classes.push_back(std::move(cls));
  }
  return true;
}

bool NativeReader::read_instances(const toml::table& root) {
  std::vector<const toml::table*> items;
  if (!array_of_tables(root, "instance", items)) return false;
  for (const toml::table* t : items) {
    if (!check_keys(*t, {"name", "class", "init", "goal"}, "[[instance]]")) return false;
    Instance inst;
    int line = 0;
    if (!get_string(*t, "name", "[[instance]]", false, inst.name, line)) return false;
    if (t->get("name")) {
      if (!check_name(inst.name, "instance name", line)) return false;
      if (!unique(instance_index_, inst.name, {0, line}, "instance")) return false;
    }
    const std::string who = inst.name.empty()
                                ? "the instance at line " + std::to_string(line_of(*t))
                                : "instance " + quote(inst.name);
    std::string cls;
    if (!get_string(*t, "class", who, false, cls, line)) return false;
    if (t->get("class")) {
      auto c = class_index_.find(cls);
      if (c == class_index_.end())
        return fail(line, who + ": unknown class " + quote(cls) +
                              (def_.classes.empty() ? std::string(" (the domain has no classes)")
                                                    : io_detail::list_if_short(class_names_)));
      inst.npc_class = c->second.id;
    }
    bool ok = true;
    const toml::table* init = get_table(*t, "init", who, true, ok);
    if (!ok) return false;
    const toml::table* goal = get_table(*t, "goal", who, true, ok);
    if (!ok) return false;
    std::vector<Fact> facts;
    if (!assignments(*init, "'init' of " + who, facts)) return false;
    if (facts.size() != def_.variables.size()) {
      std::string missing;
      int count = 0;
      size_t k = 0;
      for (size_t v = 0; v < def_.variables.size(); ++v) {
        if (k < facts.size() && facts[k].var == static_cast<VarId>(v)) {
          ++k;
          continue;
        }
        if (++count <= 5) missing += (missing.empty() ? "" : ", ") + quote(def_.variables[v].name);
      }
      if (count > 5) missing += ", ... (" + std::to_string(count) + " in all)";
      return fail(line_of(*init),
                  "'init' of " + who + " must give every variable a value; missing: " + missing);
    }
    inst.init.assign(def_.variables.size(), kUndefined);
    for (const Fact& f : facts) inst.init[static_cast<size_t>(f.var)] = f.value;
    if (!assignments(*goal, "'goal' of " + who, facts)) return false;
    if (facts.empty())
      return fail(line_of(*goal), "'goal' of " + who + " is empty (give at least one variable)");
    inst.goal.assign(def_.variables.size(), kUndefined);
    for (const Fact& f : facts) inst.goal[static_cast<size_t>(f.var)] = f.value;
    if (auto bad = domain_->check_instance(inst)) return fail(line_of(*t), bad->message);
    instances_.push_back(std::move(inst));
  }
  return true;
}

Result<Task> NativeReader::read(std::string_view text, const std::vector<Chunk>* chunks,
                                bool& fallback) {
  text_ = text;
  chunks_ = chunks;
  auto failed = [&]() -> Result<Task> {
    fallback = fallback_;
    return err_;
  };
  if (chunks_) {
    // What precedes the first header: toml++ judges it (a comment may hold a bad character);
    // root keys there are for the whole-document reader.
    toml::table head;
    if (!parse(text.substr(0, chunks_->front().begin), head)) return failed();
    if (!head.empty()) {
      fallback = true;
      return err_;
    }
  }
  if (!chunks_ &&
      (!parse(text, whole_) ||
       !check_keys(whole_, {"domain", "variable", "action", "class", "instance"}, "the file")))
    return failed();
  if (!each(Part::kDomain, &NativeReader::read_domain) ||
      !each(Part::kVariable, &NativeReader::read_variables))
    return failed();
  if (def_.variables.empty()) {
    fail(1, "the domain has no variables (add at least one [[variable]] table)");
    return failed();
  }
  for (const VariableDef& v : def_.variables) var_names_.push_back(v.name);
  mark_.assign(def_.variables.size(), 0);
  if (!each(Part::kAction, &NativeReader::read_actions)) return failed();
  mark_.assign(def_.actions.size(), 0);
  if (def_.actions.size() <= 10)
    for (const ActionDef& a : def_.actions) action_names_.push_back(a.name);
  if (!each(Part::kClass, &NativeReader::read_classes)) return failed();
  // The tables of variables, actions and classes are in def_ now: free what only they needed
  // (the bulk of a large file's memory) before the domain is compiled next to def_.
  whole_.erase("action");
  whole_.erase("class");
  std::unordered_map<std::string, Named>().swap(action_index_);
  action_names_.clear();
  auto domain = Domain::compile(def_);
  std::vector<ActionDef>().swap(def_.actions);  // compiled; instances need only the variables
  if (!domain) return Error{domain.error().message, file_, 0};
  Task task{std::move(domain).value(), {}};
  domain_ = &task.domain;
  if (def_.classes.size() <= 10)
    for (const NpcClassDef& c : def_.classes) class_names_.push_back(c.name);
  if (!each(Part::kInstance, &NativeReader::read_instances)) return failed();
  task.instances = std::move(instances_);
  return task;
}

}  // namespace

Result<Task> io_detail::parse_native_chunked(std::string_view text, const std::string& filename,
                                             size_t chunk_bytes, bool* whole) {
  bool fallback = false;
  if (whole) *whole = false;
  if (chunk_bytes > 0) {
    if (auto chunks = plan_chunks(text, chunk_bytes)) {
      Result<Task> task = NativeReader(filename).read(text, &*chunks, fallback);
      if (!fallback) return task;
    }
  }
  if (whole) *whole = true;
  return NativeReader(filename).read(text, nullptr, fallback);
}

Result<Task> parse_native(std::string_view text, const std::string& filename) {
  return io_detail::parse_native_chunked(text, filename, io_detail::kNativeChunkBytes);
}

}  // namespace topoplan

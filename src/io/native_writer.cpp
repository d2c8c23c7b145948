// The native domain format (TOML): the writer (the reader is native.cpp). Reference:
// docs/formats.md. Names are written as TOML strings with escapes, keys bare when they can be;
// effects, pre-conditions and prevails in variable order.
#include <algorithm>

#include "text.h"
#include "topoplan/io/formats.h"

namespace topoplan {
namespace {

void append_string(std::string& out, std::string_view s) {
  static constexpr char kHex[] = "0123456789ABCDEF";
  out += '"';
  for (char c : s) {
    const auto u = static_cast<unsigned char>(c);
    switch (c) {
      case '"':
        out += "\\\"";
        break;
      case '\\':
        out += "\\\\";
        break;
      case '\n':
        out += "\\n";
        break;
      case '\t':
        out += "\\t";
        break;
      case '\r':
        out += "\\r";
        break;
      default:
        if (io_detail::is_control(u)) {
          out += "\\u00";
          out += kHex[u >> 4];
          out += kHex[u & 15];
        } else {
          out += c;
        }
    }
  }
  out += '"';
}

void append_key(std::string& out, std::string_view key) {
  const bool bare = !key.empty() && std::all_of(key.begin(), key.end(), [](char c) {
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' ||
           c == '-';
  });
  if (bare)
    out += key;
  else
    append_string(out, key);
}

template <typename Facts>
void append_facts(std::string& out, const Domain& d, const Facts& facts) {
  out += "{ ";
  bool first = true;
  for (const auto& [var, value] : facts) {
    if (!first) out += ", ";
    first = false;
    append_key(out, d.variable_name(var));
    out += " = ";
    append_string(out, d.value_name(var, value));
  }
  out += first ? "}" : " }";
}

void append_state(std::string& out, const Domain& d, const std::vector<ValueId>& state) {
  std::vector<std::pair<VarId, ValueId>> facts;
  for (size_t v = 0; v < state.size() && v < static_cast<size_t>(d.num_variables()); ++v)
    if (state[v] != kUndefined) facts.emplace_back(static_cast<VarId>(v), state[v]);
  append_facts(out, d, facts);
}

}  // namespace

std::string write_native(const Task& task) {
  const Domain& d = task.domain;
  std::string out = "# topoplan domain (native format, see docs/formats.md)\n\n[domain]\n";
  if (!d.name().empty()) {
    out += "name = ";
    append_string(out, d.name());
    out += "\n";
  }
  for (VarId v = 0; v < d.num_variables(); ++v) {
    out += "\n[[variable]]\nname = ";
    append_string(out, d.variable_name(v));
    out += "\nvalues = [";
    for (ValueId x = 0; x < d.domain_size(v); ++x) {
      if (x) out += ", ";
      append_string(out, d.value_name(v, x));
    }
    out += "]\n";
  }
  for (ActionId a = 0; a < d.num_actions(); ++a) {
    out += "\n[[action]]\nname = ";
    append_string(out, d.action_name(a));
    out += "\n";
    if (d.cost(a) != 1) out += "cost = " + std::to_string(d.cost(a)) + "\n";
    std::vector<std::pair<VarId, ValueId>> pre, post, prv;
    for (const Effect& e : d.effects(a)) {
      if (e.pre != kUndefined) pre.emplace_back(e.var, e.pre);
      post.emplace_back(e.var, e.post);
    }
    for (const Fact& f : d.prevail(a)) prv.emplace_back(f.var, f.value);
    std::sort(pre.begin(), pre.end());
    std::sort(post.begin(), post.end());
    std::sort(prv.begin(), prv.end());
    if (!pre.empty()) {
      out += "pre = ";
      append_facts(out, d, pre);
      out += "\n";
    }
    out += "post = ";
    append_facts(out, d, post);
    out += "\n";
    if (!prv.empty()) {
      out += "prevail = ";
      append_facts(out, d, prv);
      out += "\n";
    }
  }
  for (ClassId c = 0; c < d.num_classes(); ++c) {
    out += "\n[[class]]\nname = ";
    append_string(out, d.class_name(c));
    out += "\nactions = [";
    bool first = true;
    for (ActionId a : d.class_actions(c)) {
      out += first ? "\n  " : ",\n  ";
      first = false;
      append_string(out, d.action_name(a));
    }
    out += first ? "]\n" : ",\n]\n";
  }
  for (const Instance& inst : task.instances) {
    out += "\n[[instance]]\n";
    if (!inst.name.empty()) {
      out += "name = ";
      append_string(out, inst.name);
      out += "\n";
    }
    if (inst.npc_class >= 0 && inst.npc_class < d.num_classes()) {
      out += "class = ";
      append_string(out, d.class_name(inst.npc_class));
      out += "\n";
    }
    out += "init = ";
    append_state(out, d, inst.init);
    out += "\ngoal = ";
    append_state(out, d, inst.goal);
    out += "\n";
  }
  return out;
}

}  // namespace topoplan

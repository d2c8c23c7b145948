// topoplan check TASK [--class NAME] [--json] [--graphs] [--dot FILE]: the class analysis of
// Prévost et al. 2023 (unary, post-unique, single-valued, domain-action graphs, cycles, requestable
// actions, the action graph, C0 / C2S / C2*). docs/classes.md explains every line of the report.
// References: docs/references.md.
//
// Scope: with --class, that class's actions; otherwise the whole action set, followed (text) or
// accompanied (JSON "classes") by one report per NPC class, since post-uniqueness is contextual.
#include <algorithm>
#include <array>
#include <cstdint>
#include <cstdio>
#include <fstream>
#include <memory>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "commands.h"
#include "files.h"
#include "numeric_option.h"
#include "topoplan/runtime/analysis.h"
#include "topoplan/runtime/reform.h"
#include "topoplan/runtime/topo.h"

namespace topoplan::cli {
namespace {

using json = nlohmann::ordered_json;

struct CheckOptions {
  std::string path;
  std::string npc_class;
  bool json = false;
  std::string dot;
  bool graphs = false;  // every edge, not counts (quadratic in the actions of one variable)
};

// Without --graphs, a list of predecessors in the text report shows at most this many names: the
// report then grows with the domain, not with the square of a variable's actions.
constexpr size_t kListedPredecessors = 8;

std::string scope_name(const Domain& d, ClassId c) {
  return c == kAllActions ? std::string("all actions") : "class " + d.class_name(c);
}

std::string kind_name(ClassViolation::Kind k) {
  // In the enum's order, one name per kind.
  static constexpr std::array<std::string_view, 5> kNames = {
      "long_cycle", "tangled_cycle", "requestable_cycle", "two_requestable", "related_requesters"};
  static_assert(static_cast<size_t>(ClassViolation::Kind::kRelatedRequesters) + 1 == kNames.size());
  const auto i = static_cast<size_t>(k);
  return std::string(i < kNames.size() ? kNames[i] : kNames.back());
}

// ---------------------------------------------------------------- text

std::string list(const Domain& d, std::span<const ActionId> as, size_t at_most = SIZE_MAX) {
  std::string s;
  const size_t shown = std::min(as.size(), at_most);
  for (size_t i = 0; i < shown; ++i) s += (i ? ", " : "") + d.action_name(as[i]);
  if (shown < as.size())
    s += ", ... (" + std::to_string(as.size()) + " in all; --graphs lists them)";
  return s.empty() ? "-" : s;
}

std::string yes_no(bool b) {
  return b ? "yes" : "no";
}

void print_text(const Domain& d, const ClassReport& r, bool graphs) {
  std::printf("%s (%d actions)\n", scope_name(d, r.npc_class).c_str(), r.num_analysed);
  std::printf("  unary: %s   post-unique: %s   single-valued: %s   pre-conditions defined: %s\n",
              yes_no(r.unary).c_str(), yes_no(r.post_unique).c_str(),
              yes_no(r.single_valued).c_str(), yes_no(r.pre_defined).c_str());
  for (ActionId a : r.non_unary)
    std::printf("    not unary: %s has %zu effects\n", d.action_name(a).c_str(),
                d.effects(a).size());
  for (const PostConflict& pc : r.post_conflicts)
    std::printf("    not post-unique: %s=%s is set by %s\n", d.variable_name(pc.var).c_str(),
                d.value_name(pc.var, pc.post).c_str(), list(d, pc.actions).c_str());
  for (const PrevailConflict& pc : r.prevail_conflicts) {
    std::string s;
    for (size_t i = 0; i < pc.values.size(); ++i)
      s += std::string(i ? ", " : "") + d.value_name(pc.var, pc.values[i]) + " (" +
           d.action_name(pc.witnesses[i]) + ")";
    std::printf("    not single-valued: %s is required at %s\n", d.variable_name(pc.var).c_str(),
                s.c_str());
  }
  if (!r.undefined_pre.empty())
    std::printf("    undefined pre-conditions: %s\n", list(d, r.undefined_pre).c_str());
  std::printf("  class: %s\n", std::string(to_string(r.structural_class)).c_str());
  if (!r.why_not.empty()) std::printf("  why not smaller: %s\n", r.why_not.c_str());

  std::printf("  domain-action graphs\n");
  for (const VariableReport& vr : r.variables) {
    if (vr.actions.empty()) continue;
    std::printf("    %s: %zu actions, %zu edges, %d component(s)\n",
                d.variable_name(vr.var).c_str(), vr.actions.size(), vr.edges.size(), vr.components);
    for (const DomainCycle& c : vr.cycles)
      std::printf("      %s {%s}, requestable {%s}\n", c.simple ? "cycle" : "tangle",
                  list(d, c.actions).c_str(), list(d, c.requestable).c_str());
    if (!vr.requestable.empty())
      std::printf("      requestable: %s\n", list(d, vr.requestable).c_str());
    if (!vr.ghost_values.empty()) {
      std::string g;
      for (ValueId x : vr.ghost_values) g += (g.empty() ? "" : ", ") + d.value_name(vr.var, x);
      std::printf("      set by no action: %s\n", g.c_str());
    }
  }
  // Table 2 of Prévost et al. 2023: predecessor sets.
  std::printf("  action graph: %zu post-pre edges, %zu post-prevail edges\n", r.pre_edges.size(),
              r.prv_edges.size());
  const auto n = static_cast<size_t>(d.num_actions());
  std::vector<std::vector<ActionId>> npre(n), nprv(n);
  for (const ActionEdge& e : r.pre_edges) npre[static_cast<size_t>(e.to)].push_back(e.from);
  for (const ActionEdge& e : r.prv_edges) nprv[static_cast<size_t>(e.to)].push_back(e.from);
  std::printf("    %-28s %-28s %s\n", "action", "N_pre", "N_prv");
  for (ActionId a = 0; a < d.num_actions(); ++a) {
    if (!r.analysed[static_cast<size_t>(a)]) continue;
    const size_t at_most = graphs ? SIZE_MAX : kListedPredecessors;
    std::string pre = list(d, npre[static_cast<size_t>(a)], at_most);
    if (npre[static_cast<size_t>(a)].empty()) pre = "ghost";
    std::string name = d.action_name(a);
    if (r.is_requestable[static_cast<size_t>(a)]) name += " [req]";
    std::printf("    %-28s %-28s %s\n", name.c_str(), pre.c_str(),
                list(d, nprv[static_cast<size_t>(a)], at_most).c_str());
  }
}

// ---------------------------------------------------------------- JSON

json names(const Domain& d, std::span<const ActionId> as) {
  json j = json::array();
  for (ActionId a : as) j.push_back(d.action_name(a));
  return j;
}

json edges(const Domain& d, std::span<const ActionEdge> es) {
  json j = json::array();
  for (const ActionEdge& e : es) j.push_back({d.action_name(e.from), d.action_name(e.to)});
  return j;
}

// Edge lists only with --graphs (they grow with the square of a variable's actions); their
// counts always.
json to_json(const Domain& d, const ClassReport& r, bool graphs) {
  json j;
  for_each_summary_field(d, r, [&j](const char* key, const auto& value) { j[key] = value; });
  json off;
  off["non_unary"] = names(d, r.non_unary);
  off["post_conflicts"] = json::array();
  for (const PostConflict& pc : r.post_conflicts)
    off["post_conflicts"].push_back({{"variable", d.variable_name(pc.var)},
                                     {"value", d.value_name(pc.var, pc.post)},
                                     {"actions", names(d, pc.actions)}});
  off["prevail_conflicts"] = json::array();
  for (const PrevailConflict& pc : r.prevail_conflicts) {
    json vals = json::array();
    for (size_t i = 0; i < pc.values.size(); ++i)
      vals.push_back({{"value", d.value_name(pc.var, pc.values[i])},
                      {"action", d.action_name(pc.witnesses[i])}});
    off["prevail_conflicts"].push_back({{"variable", d.variable_name(pc.var)}, {"values", vals}});
  }
  off["undefined_pre"] = names(d, r.undefined_pre);
  j["offenders"] = off;
  j["requestable"] = names(d, r.requestable);
  j["variables"] = json::array();
  for (const VariableReport& vr : r.variables) {
    json v;
    v["name"] = d.variable_name(vr.var);
    v["actions"] = names(d, vr.actions);
    v["edge_count"] = vr.edges.size();
    if (graphs) v["edges"] = edges(d, vr.edges);
    v["cycles"] = json::array();
    for (const DomainCycle& c : vr.cycles)
      v["cycles"].push_back({{"actions", names(d, c.actions)},
                             {"requestable", names(d, c.requestable)},
                             {"simple", c.simple}});
    v["requestable"] = names(d, vr.requestable);
    json ghosts = json::array();
    for (ValueId x : vr.ghost_values) ghosts.push_back(d.value_name(vr.var, x));
    v["ghost_values"] = ghosts;
    v["components"] = vr.components;
    j["variables"].push_back(v);
  }
  j["action_graph"] = {{"pre_count", r.pre_edges.size()}, {"prv_count", r.prv_edges.size()}};
  if (graphs) {
    j["action_graph"]["pre"] = edges(d, r.pre_edges);
    j["action_graph"]["prv"] = edges(d, r.prv_edges);
  }
  j["violations"] = json::array();
  for (const ClassViolation& cv : r.violations) {
    json v = {{"kind", kind_name(cv.kind)},
              {"variable", d.variable_name(cv.var)},
              {"cycle", names(d, cv.cycle)},
              {"requestable", names(d, cv.requestable)},
              {"message", cv.message}};
    if (cv.requester_plus >= 0)
      v["requesters"] = {d.action_name(cv.requester_plus), d.action_name(cv.requester_minus)};
    j["violations"].push_back(v);
  }
  return j;
}

// ---------------------------------------------------------------- Graphviz

std::string dot_escape(const std::string& s) {
  std::string out;
  for (char c : s) {
    if (c == '"' || c == '\\') out += '\\';
    out += c;
  }
  return out;
}

// One digraph: each cluster is a domain-action graph G(v); the whole picture is the action graph.
// Post-pre edges blue, post-prevail edges green dashed (Figure 2 of Prévost et al. 2023), cycle
// edges blue and thick, requestable actions filled gold, actions on a cycle drawn with a double
// border.
std::string to_dot(const Domain& d, const ClassReport& r) {
  std::string s = "digraph \"" + dot_escape(d.name()) + " — " +
                  dot_escape(scope_name(d, r.npc_class)) + " (" +
                  std::string(to_string(r.structural_class)) + ")\" {\n";
  s += "  rankdir=LR;\n  node [shape=box, style=rounded, fontname=\"Helvetica\"];\n";
  s += "  edge [fontname=\"Helvetica\"];\n";
  auto node = [&](ActionId a) { return "a" + std::to_string(a); };
  std::vector<uint8_t> drawn(static_cast<size_t>(d.num_actions()), 0);
  for (const VariableReport& vr : r.variables) {
    if (vr.actions.empty()) continue;
    s += "  subgraph cluster_v" + std::to_string(vr.var) + " {\n    label=\"G(" +
         dot_escape(d.variable_name(vr.var)) + ")\";\n    color=gray;\n";
    for (ActionId a : vr.actions) {
      if (drawn[static_cast<size_t>(a)]) continue;  // non-unary actions: first variable only
      drawn[static_cast<size_t>(a)] = 1;
      std::string label = dot_escape(d.action_name(a));
      for (const Effect& e : d.effects(a))
        label += "\\n" + dot_escape(d.variable_name(e.var)) + ": " +
                 (e.pre == kUndefined ? std::string("u") : dot_escape(d.value_name(e.var, e.pre))) +
                 " → " + dot_escape(d.value_name(e.var, e.post));
      s += "    " + node(a) + " [label=\"" + label + "\"";
      if (r.is_requestable[static_cast<size_t>(a)])
        s += ", style=\"rounded,filled\", fillcolor=gold";
      if (r.on_cycle[static_cast<size_t>(a)]) s += ", peripheries=2";
      s += "];\n";
    }
    s += "  }\n";
  }
  // Cycle edges: both endpoints in the same cycle of G(v).
  for (const VariableReport& vr : r.variables) {
    std::vector<int32_t> cyc(static_cast<size_t>(d.num_actions()), -1);
    for (size_t c = 0; c < vr.cycles.size(); ++c)
      for (ActionId a : vr.cycles[c].actions) cyc[static_cast<size_t>(a)] = static_cast<int32_t>(c);
    for (const ActionEdge& e : vr.edges) {
      const bool on = cyc[static_cast<size_t>(e.from)] >= 0 &&
                      cyc[static_cast<size_t>(e.from)] == cyc[static_cast<size_t>(e.to)];
      s += "  " + node(e.from) + " -> " + node(e.to) +
           (on ? " [color=blue, penwidth=3, style=bold];\n" : " [color=blue];\n");
    }
  }
  for (const ActionEdge& e : r.prv_edges)
    s += "  " + node(e.from) + " -> " + node(e.to) + " [color=green4, style=dashed];\n";
  s += "}\n";
  return s;
}

// ---------------------------------------------------------------- instances

// What ℙ makes of one instance of the file, in the designer's terms: planned (length), proven
// unsolvable, or not decided — with ℙ's own explanation (topo.h describe()) and, when ℙ refuses
// the action set, what would change it.
struct InstanceCheck {
  std::string name;
  std::string npc_class;
  int32_t goal_facts = 0;
  std::vector<std::string> free_variables;  // partial goal: variables the goal leaves free
  PlanStatus topo = PlanStatus::kGaveUp;
  int64_t length = 0;
  std::string message;  // ℙ's explanation when it does not plan
  std::string change;   // what would let ℙ decide it (empty when ℙ decides)
  // ℙ after reformulation (reform.h): its answer and the rewrites that bring the task in reach.
  PlanStatus reach = PlanStatus::kGaveUp;
  int64_t reach_length = 0;
  int64_t reach_cost = 0;
  std::string reach_note;  // how: post-unique after reformulation, or producer choices
  std::vector<std::string> advice;
};

InstanceCheck check_instance(const Domain& d, const Instance& inst, size_t index) {
  InstanceCheck c;
  c.name = inst.name.empty() ? "#" + std::to_string(index + 1) : inst.name;
  c.npc_class = inst.npc_class == kAllActions ? "all actions" : d.class_name(inst.npc_class);
  for (VarId v = 0; v < d.num_variables(); ++v) {
    if (inst.goal[static_cast<size_t>(v)] == kUndefined)
      c.free_variables.push_back(d.variable_name(v));
    else
      ++c.goal_facts;
  }
  const ReachResult reach = plan_reach(d, inst);
  c.reach = reach.result.status;
  c.reach_length = static_cast<int64_t>(reach.result.actions.size());
  c.reach_cost = reach.result.cost;
  if (reach.reformulated_pu)
    c.reach_note = "post-unique after reformulation";
  else
    c.reach_note =
        std::to_string(reach.choices) + " producer choice(s)" +
        (reach.optimal_in_choices ? ", optimal among plans with one producer per value" : "");
  if (reach.result.status != PlanStatus::kSolved)
    c.reach_note = limit_words_for(reach.result.message, LimitDoor::kCli);
  c.advice = advise(d, inst);
  const PlanResult r = plan_topo(d, inst);
  c.topo = r.status;
  c.length = static_cast<int64_t>(r.actions.size());
  if (r.status == PlanStatus::kSolved) return c;
  c.message = limit_words_for(r.message, LimitDoor::kCli);
  if (r.status == PlanStatus::kUnsupported) {
    const ClassReport cr = analyze(d, inst.npc_class);
    if (!cr.unary)
      c.change = "ℙ plans only actions that change one variable; split " +
                 d.action_name(cr.non_unary.front()) + " into one action per variable";
    else if (!cr.post_unique)
      c.change = "ℙ needs one action per value set; give " +
                 d.variable_name(cr.post_conflicts.front().var) + "=" +
                 d.value_name(cr.post_conflicts.front().var, cr.post_conflicts.front().post) +
                 " a single producer in this NPC class (or split the class)";
    else if (!cr.pre_defined)
      c.change = "ℙ needs a pre-condition on each changed variable here; " +
                 d.action_name(cr.undefined_pre.front()) +
                 " has none (a GoTo from anywhere): the default planner answers with A*";
  }
  if (c.change.empty() && r.status != PlanStatus::kUnsolvable)
    c.change = "the default planner (auto) answers it with A* within its limits";
  return c;
}

void print_instances(const std::vector<InstanceCheck>& checks) {
  if (checks.empty()) return;
  std::printf("\ninstances (what ℙ gives)\n");
  for (const InstanceCheck& c : checks) {
    std::printf("  %s (%s): goal of %d fact(s)%s\n", c.name.c_str(), c.npc_class.c_str(),
                c.goal_facts, c.free_variables.empty() ? ", total" : ", partial");
    if (c.topo == PlanStatus::kSolved)
      std::printf("    ℙ plans it: %lld actions, each once, minimal\n",
                  static_cast<long long>(c.length));
    else
      std::printf("    ℙ %s: %s\n", std::string(to_string(c.topo)).c_str(), c.message.c_str());
    if (!c.change.empty()) std::printf("    what would change it: %s\n", c.change.c_str());
    if (c.topo == PlanStatus::kSolved && c.advice.empty()) continue;
    if (c.reach == PlanStatus::kSolved)
      std::printf("    ℙ after reformulation (topo-reach): %lld actions, cost %lld (%s)\n",
                  static_cast<long long>(c.reach_length), static_cast<long long>(c.reach_cost),
                  c.reach_note.c_str());
    else
      std::printf("    ℙ after reformulation (topo-reach) %s: %s\n",
                  std::string(to_string(c.reach)).c_str(), c.reach_note.c_str());
    for (const std::string& a : c.advice) std::printf("    advice: %s\n", a.c_str());
  }
}

json to_json(const std::vector<InstanceCheck>& checks) {
  json a = json::array();
  for (const InstanceCheck& c : checks) {
    json j;
    j["name"] = c.name;
    j["class"] = c.npc_class;
    j["goal_facts"] = c.goal_facts;
    j["partial_goal"] = !c.free_variables.empty();
    j["free_variables"] = c.free_variables;
    j["topo"] = std::string(to_string(c.topo));
    if (c.topo == PlanStatus::kSolved) j["length"] = c.length;
    if (!c.message.empty()) j["why"] = c.message;
    if (!c.change.empty()) j["what_would_change_it"] = c.change;
    json reach;
    reach["status"] = std::string(to_string(c.reach));
    if (c.reach == PlanStatus::kSolved) {
      reach["length"] = c.reach_length;
      reach["cost"] = c.reach_cost;
    }
    reach["note"] = c.reach_note;
    j["topo_reach"] = reach;
    j["advice"] = c.advice;
    a.push_back(j);
  }
  return a;
}

// ---------------------------------------------------------------- command

int run_check(const CheckOptions& o) {
  std::optional<Task> task = load_task_only(o.path);
  if (!task) return kExitInputError;
  const Domain& d = task->domain;
  ClassId scope = kAllActions;
  if (!o.npc_class.empty()) {
    std::optional<ClassId> c = d.find_class(o.npc_class);
    if (!c) {
      std::fprintf(stderr, "topoplan check: --class: no NPC class named '%s'\n",
                   o.npc_class.c_str());
      return kExitInputError;
    }
    scope = *c;
  }
  const ClassReport main_report = analyze(d, scope);
  std::vector<ClassReport> per_class;
  if (scope == kAllActions)
    for (ClassId c = 0; c < d.num_classes(); ++c) per_class.push_back(analyze(d, c));

  std::vector<InstanceCheck> checks;
  for (size_t i = 0; i < task->instances.size(); ++i)
    checks.push_back(check_instance(d, task->instances[i], i));

  if (!o.dot.empty()) {
    const std::string inputs[] = {o.path};
    if (!write_output("check", o.dot, to_dot(d, main_report), inputs)) return kExitInputError;
  }
  if (o.json) {
    json j = to_json(d, main_report, o.graphs);
    j["domain"] = d.name();
    if (!per_class.empty()) {
      bool contextual = true;
      j["classes"] = json::array();
      for (const ClassReport& r : per_class) {
        contextual = contextual && r.post_unique;
        j["classes"].push_back(to_json(d, r, o.graphs));
      }
      // Prévost et al. 2023 §1: post-unique within every NPC class.
      j["contextually_post_unique"] = contextual;
    }
    j["instances"] = to_json(checks);
    std::printf("%s\n", j.dump(2).c_str());
    return kExitOk;
  }
  std::printf("domain %s: %s, %s, %s\n\n", d.name().empty() ? "(unnamed)" : d.name().c_str(),
              counted(d.num_variables(), "variable", "variables").c_str(),
              counted(d.num_actions(), "action", "actions").c_str(),
              counted(d.num_classes(), "NPC class", "NPC classes").c_str());
  for (const ClassReport& r : per_class) {
    print_text(d, r, o.graphs);
    std::printf("\n");
  }
  print_text(d, main_report, o.graphs);
  if (!per_class.empty()) {
    std::printf("\nsummary:");
    for (const ClassReport& r : per_class)
      std::printf(" %s=%s", d.class_name(r.npc_class).c_str(),
                  std::string(to_string(r.structural_class)).c_str());
    std::printf(" all=%s\n", std::string(to_string(main_report.structural_class)).c_str());
  }
  print_instances(checks);
  return kExitOk;
}

}  // namespace

void add_check_command(CLI::App& app, int& exit_code) {
  auto [cmd, o] = add_subcommand<CheckOptions>(
      app, exit_code, "check",
      "class analysis: unary / post-unique / single-valued, cycles, requestable "
      "actions, action graph, structural class C0 / C2S / C2* (Prévost et al. 2023)",
      run_check);
  cmd->add_option("TASK", o->path, "task file: native .toml or Fast Downward .sas")->required();
  cmd->add_option("--class", o->npc_class, "analyse only this NPC class's actions");
  cmd->add_flag("--json", o->json, "print one JSON object instead of the text report");
  cmd->add_option("--dot", o->dot, "write the action graph and domain-action graphs (Graphviz)")
      ->check(non_empty_file());
  cmd->add_flag("--graphs", o->graphs,
                "list every edge (--json: the domain-action graphs' and the action graph's edge "
                "lists; text: every predecessor); default: edge counts, predecessor lists cut "
                "at 8");
}

}  // namespace topoplan::cli

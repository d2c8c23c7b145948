// topoplan — class analysis: which SAS-PU class a domain (or one NPC's action set) belongs to.
//
// Prévost et al. 2023 §3-§4 define, for an action set A:
//   * the syntactic restrictions unary (U), post-unique (P) and single-valued (S);
//   * per variable v the domain-action graph G(v) = (A(v), E_pre(A(v))) with an edge a → b
//     when post(a) = pre(b) (Def 1), its cycle Cycle(v) (Def 2) and the requestable actions
//     Req(v): actions whose post satisfies a defined prevail-condition of another action (Def 3);
//   * the action graph G = (A, E_pre ∪ E_prv), E_prv holding a → b when post(a) = prv(b)[v]
//     (Def 6);
//   * the structural classes SAS-PUC0 ⊂ SAS-PUC2^S ⊂ SAS-PUC2^* (Defs 4, 5, 7).
//
// analyze() computes all of it for the actions of one NPC class (contextual post-uniqueness: two
// actions may share a post-condition if no class holds both) or for an explicit action mask, in
// O(|M| + Σ|D_v| + Σ|prv(a)| + |A| + |E_A|) time. docs/classes.md gives the definitions, how
// each is computed, and every decision taken where the papers are ambiguous (undefined
// pre-conditions, disconnected G(v), several cycles, the meaning of "related").
//
// Build-time and cold-path code: the report owns vectors. Planners that need the class on a hot
// path compute it once per NPC class and keep it.
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "topoplan/runtime/compiled.h"
#include "topoplan/runtime/domain.h"

namespace topoplan {

// The smallest structural class of Prévost et al. 2023 that holds, C0 ⊂ C2S ⊂ C2* (kNone: none of
// them, including every action set that is not unary and post-unique). References:
// docs/references.md.
enum class StructuralClass : uint8_t { kC0, kC2S, kC2Star, kNone };

// "C0", "C2S", "C2*", "none".
[[nodiscard]] std::string_view to_string(StructuralClass c);

// A directed edge of the action graph or of a domain-action graph: `from` establishes a condition
// of `to` (its pre-condition for E_pre, a prevail-condition for E_prv).
struct ActionEdge {
  ActionId from = 0;
  ActionId to = 0;
  friend bool operator==(const ActionEdge&, const ActionEdge&) = default;
};

// (P) violated: several analysed actions set `var` to `post`.
struct PostConflict {
  VarId var = 0;
  ValueId post = 0;
  std::vector<ActionId> actions;  // ascending, at least two
};

// (S) violated: analysed actions require `var` at different values in their prevail-conditions.
struct PrevailConflict {
  VarId var = 0;
  std::vector<ValueId> values;      // the distinct values required, ascending, at least two
  std::vector<ActionId> witnesses;  // witnesses[i]: the first action requiring values[i]
};

// One cycle of a domain-action graph. For unary post-unique actions with defined pre-conditions
// every node of G(v) has at most one predecessor, so cycles are simple and disjoint, and this is
// exactly the paper's Cycle(v). In general it is a strongly connected component of G(v) that
// contains a cycle (two or more actions, or one action whose pre equals its post).
struct DomainCycle {
  std::vector<ActionId> actions;      // in cycle order when simple (a → actions[i+1] → ...)
  std::vector<ActionId> requestable;  // Req(v) ∩ cycle, ascending
  bool simple = true;                 // a simple cycle (not a larger strongly connected tangle)
};

// Per-variable analysis (Defs 1-3).
struct VariableReport {
  VarId var = 0;
  std::vector<ActionId> actions;      // A(v): analysed actions with an effect on v, ascending
  std::vector<ActionEdge> edges;      // E_pre(A(v)), sorted by (from, to)
  std::vector<DomainCycle> cycles;    // Cycle(v); empty when G(v) is acyclic
  std::vector<ActionId> requestable;  // Req(v), ascending
  std::vector<ValueId> ghost_values;  // values of v no analysed action produces (ghost actions)
  int32_t components = 0;             // weakly connected components of G(v) (0 when A(v) = ∅)
};

// Why a smaller class does not hold, one entry per offending cycle.
struct ClassViolation {
  enum class Kind : uint8_t {
    kLongCycle,          // a requestable action on a cycle of more than two actions (not C2)
    kTangledCycle,       // a requestable action in a strongly connected tangle (not C2)
    kRequestableCycle,   // a requestable action on a cycle (not C0)
    kTwoRequestable,     // both actions of a 2-cycle requestable (not C2S)
    kRelatedRequesters,  // ... and requesters of a+ and of a- related in G \ G(v) (not C2*)
  };
  Kind kind = Kind::kLongCycle;
  VarId var = 0;
  std::vector<ActionId> cycle;        // the cycle's actions
  std::vector<ActionId> requestable;  // its requestable actions
  ActionId requester_plus = -1;       // kRelatedRequesters: a requester of cycle[0] and ...
  ActionId requester_minus = -1;      // ... a requester of cycle[1], related in G \ G(v)
  std::string message;                // one line, with names
};

struct ClassReport {
  ClassId npc_class = kAllActions;  // the class analysed (kAllActions also for a mask)
  int32_t num_analysed = 0;         // |A|: actions in the class or mask

  // Syntactic restrictions, each with its offenders (empty when the flag is true).
  bool unary = true;                               // (U)
  bool post_unique = true;                         // (P)
  bool single_valued = true;                       // (S)
  bool pre_defined = true;                         // every effect has a defined pre-condition
  std::vector<ActionId> non_unary;                 // actions with more than one effect
  std::vector<PostConflict> post_conflicts;        // sorted by (var, post)
  std::vector<PrevailConflict> prevail_conflicts;  // sorted by var
  std::vector<ActionId> undefined_pre;             // actions with an effect whose pre is kUndefined

  // Defs 1-3, one entry per variable of the domain (index = VarId).
  std::vector<VariableReport> variables;
  // Def 3 over all variables, ascending.
  std::vector<ActionId> requestable;
  // Def 6: the action graph. pre_edges = ∪_v E_pre(A(v)); prv_edges sorted by (from, to).
  std::vector<ActionEdge> pre_edges;
  std::vector<ActionEdge> prv_edges;

  // Per action of the domain (size num_actions()): 1 when analysed / requestable / on a cycle.
  std::vector<uint8_t> analysed;
  std::vector<uint8_t> is_requestable;
  std::vector<uint8_t> on_cycle;

  // Defs 4, 5, 7.
  StructuralClass structural_class = StructuralClass::kNone;
  std::vector<ClassViolation> violations;  // every reason a smaller class fails
  std::string why_not;                     // why the next smaller class does not hold; empty for C0
};

// The report's summary, formatted once for every front end that writes it by key (`topoplan
// check --json`, the Python binding's check()): calls put(key, value) for scope (the class's name,
// or "all"), actions, unary, post_unique, single_valued, pre_defined, class (to_string of the
// structural class) and why_not, in that order; `key` is a const char*, `value` a std::string,
// an int32_t or a bool.
template <class Put>
void for_each_summary_field(const Domain& domain, const ClassReport& r, Put&& put) {
  put("scope", r.npc_class == kAllActions ? std::string("all") : domain.class_name(r.npc_class));
  put("actions", r.num_analysed);
  put("unary", r.unary);
  put("post_unique", r.post_unique);
  put("single_valued", r.single_valued);
  put("pre_defined", r.pre_defined);
  put("class", std::string(to_string(r.structural_class)));
  put("why_not", r.why_not);
}

// Analyses the actions of NPC class `npc_class` (kAllActions: every action of the domain).
[[nodiscard]] ClassReport analyze(const Domain& domain, ClassId npc_class = kAllActions);

// Analyses the actions whose entry in `action_mask` (size num_actions()) is non-zero: a per-NPC
// enabled-action set.
[[nodiscard]] ClassReport analyze(const Domain& domain, std::span<const uint8_t> action_mask);

// Analyses the actions of a compiled action set (its class, or kAllActions for a mask), reading
// the set's value slots and its producer, consumer and requester indexes. The two overloads
// above compile a set and call this one.
[[nodiscard]] ClassReport analyze(const CompiledActionSet& set);

}  // namespace topoplan

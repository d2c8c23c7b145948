// "topo-ijcai": TopoPlan with BuildChain and DFSTopo as Prévost et al. 2023 (IJCAI, §5,
// Procedures 1-3) write them, for comparison with topoplan's own derivation of ℙ
// (docs/algorithm.md, "The papers' pseudocode as written"). Not a product planner: no hot path.
//
// The paper's "fail" is its claim that the instance has no plan. We cannot prove that claim, so a
// fail is returned as kGaveUp with a message that starts with "fail at (procedure.line)"; the
// differential test (tests/papers/) counts such fails on solvable instances as wrong
// "unsolvable" answers. Every emitted plan is validated: an invalid one becomes kGaveUp whose
// message starts with "invalid plan", and is counted (topo_ijcai_invalid_plans()).
//
// The readings we chose where the pseudocode is ambiguous (numbers are (procedure.line)):
//  R1 Input. Definition 8 accepts SAS-PUC0 / C2S / C2* instances with total goals. Anything
//     else (non-unary, not post-unique, undefined pre-conditions, structural class "none", a free
//     goal entry) is refused (kUnsupported / kGaveUp), not guessed at.
//  R2 IDs. a^p_v is the action of the NPC's class producing v = p, or a ghost when there is none;
//     Next is stored per ID (per value), so a ghost can carry a Next (1.5 says it may).
//  R3 (1.1-1.17) BuildChain walks back from a^g through pre-conditions until the value s. Its
//     input demands a^g white; when a caller breaks that (possible at 3.21), we fail.
//  R4 (3.9) "for a ∈ D ∪ T" runs over the set as it grows: actions added by 3.15 and 3.21 are
//     visited too, in insertion order (else their prevail-conditions would never be ordered).
//  R5 (3.10) N_prv(a) is one ID per defined prevail-condition v_j = q of a, ghosts included;
//     3.11-3.17 use v_j, the prevail's variable (the text prints v_i at 3.21, read as v_j: q is a
//     value of v_j).
//  R6 (3.21) BuildChain(v_j, q, s0[v_j]) builds the way back from q to s0[v_j].
//  R7 (3.23) The edge (a, Next(a^q)) is added unless Next(a^q) itself requires v_i = p (then the
//     edge is implied); the test reads prv(Next(a^q))[v_i] with u when undefined. When Next(a^q)
//     is still empty after 3.21 (BuildChain failed), the fail has already stopped the run.
//  R8 (3.27) "Cycle(v_j) is concerned by (C2*)": the cycle of G(v_j) containing a^q holds two
//     requestable actions (Definition 7's case). The edge to a^{s0[v_j]} is added even if that
//     action is not in the plan; DFSTopo never follows an edge to an action outside the plan.
//  R9 (2.3) "the first action to modify s0[v_i]": the first action of the chain from s0[v_i]
//     built last for v_i — the σ2 chain of 3.15 when there is one, else the σ1 chain of 3.4.
//  R10 (2.2) E_D(a) is the set of predecessors of a (DFSTopo appends a after them, 2.11); an
//     edge from a ghost is dropped (a ghost is never in the plan).
//  R11 (3.32) Phase 3 starts DFSTopo from the actions of D ∪ T in insertion order.
#include <atomic>
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "tools/papers/common.h"
#include "topoplan/runtime/analysis.h"
#include "topoplan/runtime/plan.h"
#include "topoplan/tools/papers.h"

namespace topoplan {
namespace {

std::atomic<int64_t> g_invalid_plans{0};

using papers::Color;

struct Fail {
  std::string where;
};

class TopoIjcai {
 public:
  TopoIjcai(const Domain& d, const Instance& inst, const ClassReport& report)
      : d_(d),
        inst_(inst),
        prv_(papers::prevail_table(d, d.action_mask(inst.npc_class))),
        ids_(d, d.action_mask(inst.npc_class)) {
    const int32_t m = d.num_variables();
    next_.assign(ids_.size(), -1);
    color_.assign(static_cast<size_t>(d.num_actions()), Color::kWhite);
    preds_.assign(static_cast<size_t>(d.num_actions()), {});
    first_mod_.assign(static_cast<size_t>(m), -1);
    // R8's test per action, read once from the class analysis.
    in_c2star_cycle_.assign(static_cast<size_t>(d.num_actions()), 0);
    for (const auto& var : report.variables) {
      for (const DomainCycle& c : var.cycles) {
        if (c.requestable.size() != 2) continue;
        for (const ActionId x : c.actions) in_c2star_cycle_[static_cast<size_t>(x)] = 1;
      }
    }
  }

  // Procedure 3. Returns false on a fail (fail_ says where).
  bool run(std::vector<ActionId>& plan) {
    const int32_t m = d_.num_variables();
    for (VarId v = 0; v < m; ++v) {  // Phase 1 (3.2-3.6)
      if (inst_.init[v] != inst_.goal[v]) {
        if (!build_chain(v, inst_.init[v], inst_.goal[v], "3.4")) return false;
      }
    }
    if (order_.empty()) return true;              // (3.7)
    for (size_t k = 0; k < order_.size(); ++k) {  // Phase 2 (3.9), R4: over the growing set
      const ActionId a = order_[k];
      const Effect& ea = d_.effects(a)[0];
      const VarId vi = ea.var;
      const ValueId p = ea.post;
      for (const Fact& f : d_.prevail(a)) {  // (3.10), R5
        const VarId vj = f.var;
        const ValueId q = f.value;
        const ActionId b = ids_.producer[slot(vj, q)];
        if (q != inst_.init[vj]) {  // (3.11)
          if (b < 0)
            return fail("3.12", "prevail " + fact(vj, q) + " of " + d_.action_name(a) +
                                    " has no producer (ghost)");
          if (color_[b] == Color::kWhite) {
            if (!build_chain(vj, inst_.init[vj], q, "3.15")) return false;
          }
          add_edge(b, a);  // (3.17)
        }
        if (q != inst_.goal[vj]) {  // (3.19)
          if (next_[slot(vj, q)] < 0) {
            if (!build_chain(vj, q, inst_.init[vj], "3.21")) return false;  // R6
          }
          const ActionId nx = next_[slot(vj, q)];
          if (nx >= 0 && prv_.get(nx, vi) != p) add_edge(a, nx);  // (3.23-3.24), R7
        }
        if (q == inst_.init[vj] && b >= 0 && in_c2star_cycle_[static_cast<size_t>(b)] != 0)
          add_edge(b, a);  // R8
      }
    }
    for (const ActionId a : order_) {  // Phase 3 (3.32-3.36), R11
      if (color_[a] == Color::kYellow && !dfs_topo(a, plan)) return false;
    }
    return true;
  }

  [[nodiscard]] const std::string& fail_message() const { return fail_.where; }

 private:
  [[nodiscard]] int32_t slot(VarId v, ValueId x) const { return ids_.slot(v, x); }

  [[nodiscard]] std::string fact(VarId v, ValueId x) const { return papers::fact(d_, v, x); }

  bool fail(const char* line, const std::string& why) {
    fail_.where = std::string("fail at (") + line + "): " + why;
    return false;
  }

  void add_edge(ActionId from, ActionId to) {
    if (from >= 0) preds_[static_cast<size_t>(to)].push_back(from);  // R10
  }

  void make_yellow(ActionId a) {
    color_[a] = Color::kYellow;
    order_.push_back(a);
  }

  // Procedure 1 (R3). `caller` names the line of Procedure 3 that called it.
  bool build_chain(VarId v, ValueId s, ValueId g, const char* caller) {
    const ActionId ag = ids_.producer[slot(v, g)];
    if (ag < 0)
      return fail("1.2", "no action produces " + fact(v, g) + " (called at " + caller + ")");
    if (color_[ag] != Color::kWhite)
      return fail("1.input",
                  d_.action_name(ag) + " is already in the plan (called at " + caller + ")");
    make_yellow(ag);  // (1.4)
    ValueId y = d_.effects(ag)[0].pre;
    add_edge(ids_.producer[slot(v, y)], ag);
    if (next_[slot(v, y)] < 0) next_[slot(v, y)] = ag;  // (1.5-1.6)
    ActionId first = ag;
    while (y != s) {  // (1.8)
      const ActionId ay = ids_.producer[slot(v, y)];
      if (ay < 0)
        return fail("1.9", "no action produces " + fact(v, y) + " (called at " + caller + ")");
      if (color_[ay] == Color::kYellow)
        return fail("1.11",
                    d_.action_name(ay) + " is already in the plan (called at " + caller + ")");
      make_yellow(ay);  // (1.13)
      const ValueId x = y;
      y = d_.effects(ay)[0].pre;
      add_edge(ids_.producer[slot(v, y)], ids_.producer[slot(v, x)]);
      if (next_[slot(v, y)] < 0) next_[slot(v, y)] = ids_.producer[slot(v, x)];  // (1.14-1.15)
      first = ay;
    }
    if (s == inst_.init[v]) first_mod_[v] = first;  // R9: the chain from s0 built last
    return true;
  }

  // Procedure 2 (R10); R9 at (2.3).
  bool dfs_topo(ActionId a, std::vector<ActionId>& plan) {
    const auto first_mod = [this](ActionId x) { return first_mod_[d_.effects(x)[0].var] == x; };
    const auto cycle = [this](ActionId b, ActionId x) {
      return fail("2.4", "cycle through " + d_.action_name(b) + " and " + d_.action_name(x));
    };
    return papers::dfs_topo(d_, ids_, preds_, color_, a, first_mod, cycle, plan);
  }

  const Domain& d_;
  const Instance& inst_;
  papers::PairTable prv_;                 // prv(a)[v] in O(1), as the paper counts it
  std::vector<uint8_t> in_c2star_cycle_;  // R8: on a cycle holding two requestable actions
  papers::Ids ids_;                       // a ghost has no producer (R2)
  std::vector<ActionId> next_;            // Next, per ID (R2)
  std::vector<Color> color_;
  std::vector<std::vector<ActionId>> preds_;  // E_DT, as predecessor lists
  std::vector<ActionId> order_;               // D ∪ T in insertion order
  std::vector<ActionId> first_mod_;           // R9, per variable
  Fail fail_;
};

}  // namespace

int64_t topo_ijcai_invalid_plans() {
  return g_invalid_plans.load();
}

PlanResult plan_topo_ijcai(const Domain& domain, const Instance& instance,
                           const PlannerOptions& /*options*/) {
  papers::Call call("topo-ijcai");
  if (auto refused = call.refuse_foreign(domain, instance)) return std::move(*refused);
  const ClassReport report = analyze(domain, instance.npc_class);
  if (!report.unary || !report.post_unique || !report.pre_defined)
    return call.refuse(
        PlanStatus::kUnsupported,
        "topo-ijcai: the actions are not unary, post-unique with defined pre-conditions");
  if (report.structural_class == StructuralClass::kNone)
    return call.refuse(PlanStatus::kGaveUp,
                       "topo-ijcai: outside SAS-PUC0/C2S/C2* (" + report.why_not + ")");
  if (auto refused = call.refuse_partial_goal(instance)) return std::move(*refused);
  TopoIjcai planner(domain, instance, report);
  std::vector<ActionId> plan;
  const bool ran = planner.run(plan);
  return call.finish(domain, instance, ran, planner.fail_message(), std::move(plan),
                     g_invalid_plans);
}

}  // namespace topoplan

// "topo-sas" and "topo-cnia": ℙ as the two versions of "SAS Planning as Topological Sorting" write
// it (Procedures 1-3), for comparison with topoplan's own derivation (docs/algorithm.md, "The
// papers' pseudocode as written"). Not product planners: no hot path.
//  - topo-sas: the English version (seed 003): a two-entry Next per action (First / Last), the
//    m × m Flag matrix deciding whether a requester of s0[v_j] runs before v_j leaves s0 or after
//    it comes back, and DFSTopo's stop test through Last(Next(.)).
//  - topo-cnia: the French CNIA 2022 version (seed 001): a one-entry Next set once, NextInCycle,
//    and the path analysis of its §2.3 (Phase 2) for the same before / after decision.
// As with topo-ijcai, the paper's "fail" comes back as kGaveUp whose message starts with
// "fail at (procedure.line)", and every plan is validated ("invalid plan" otherwise, counted).
//
// Readings (numbers are (procedure.line) of the version named; S = topo-sas, C = topo-cnia):
//  S1 Input. The papers' class is SAS-PU T1: unary, post-unique actions, total initial and goal
//     states. T1 restricts the output and is not checked; actions with an undefined
//     pre-condition, and free goal entries, are refused.
//  S2 IDs. a^p_v is the producer of v = p, or a ghost when there is none; Next is stored per ID,
//     so a ghost (a start value with no producer) carries the chain's first action.
//  S3 (S 1.6, 1.14) "Next(a) ← Next(a) ∪ {b}" appends b unless already there; First is the
//     entry added first, Last the one added last. A third distinct entry is a fail: the paper
//     states that T1 bounds Next by two, and we report where that bound is broken.
//  S4 (S 1.2) BuildChain does not check that a^g is white (unlike the IJCAI version): a yellow
//     a^g is recoloured, not re-added (D is a set), and its edges are added again.
//  S5 (S 3.9, C 3.9) Phase 2 runs over D as it grows, in insertion order (as topo-ijcai's R4).
//  S6 (S 3.10-3.35) N_prv(a^p_{v_i}) is one ID per defined prevail v_j = q of a, ghosts
//     included; a^q below is a^q_{v_j} (the print loses the subscripts; q is a value of v_j).
//  S7 (S 3.15, C 3.23) prv(b)[v_i] with u when undefined: the edge to b is skipped only when b
//     itself requires v_i = p.
//  S8 (S 3.26) The print sets Flag[v_i][v_i]; 3.28 and 3.31 read Flag[v_i][v_j], so 3.26 is read
//     as Flag[v_i][v_j] ← true: an action on v_i has required v_j away from s0[v_j]. The line
//     before 3.28 is read as "else" (of 3.19): the requester's q equals s0[v_j].
//  S9 (S 3.28-3.32) Edges from or to a ghost, or to an empty Last(Next(.)), are dropped. An
//     edge to an action that never turns yellow is kept and never followed (DFSTopo follows
//     yellow and blue actions only).
//  S10 (S 2.3) The predecessor a^q of a^p that is skipped: a^q = N_pre(a^p), pre(a^p) = s0[v_i]
//     and a^p = Last(Next(a^q)); Next is read per ID, so a^q may be a ghost (then no edge).
//  S11 (S 2.2, C 2.2) E_D(a) / N(a) is the set of a's predecessors in E_D.
//  S12 (S 3.38, C 3.36) Phase 3 starts DFSTopo from the actions of D in insertion order.
//  S13 (S 3.26-3.28) The m × m Flag is written only at (v_i, v_j) where an action on v_i has a
//     prevail-condition on v_j, so only those entries are stored (papers::PairTable): the same
//     reads, without initialising m² entries per call.
//  C1 (C 1.17-1.19) The print adds (a^x, a^y) and sets Next(a^x) ← a^y after x ← y, y ← pre(a^y),
//     i.e. orders an action before the producer of its own pre-condition; read as (a^y, a^x) and
//     Next(a^y) ← a^x, as line 1.6 and the procedure's Output say.
//  C2 (C 1.7, 1.18) Next is set once: the first chain through a value fixes it.
//  C3 (C 1.2) As the IJCAI version: BuildChain fails when a^g is already yellow.
//  C4 (C 3.27) "q ∈ Cycle[v_j]": a^q (the producer of s0[v_j]) lies on a cycle of v_j's post-pre
//     graph. Post-uniqueness gives each value one producer, so walking back through
//     pre-conditions from a^q finds that cycle if there is one; NextInCycle(a^q) is the cycle's
//     action whose pre-condition is q.
//  C5 (C 3.28, §2.3 Phase 2) "a^p orders before the modification of s0[v_j]" when some action b
//     of the class with prv(b)[v_j] defined and ≠ s0[v_j] is reachable from a^p by a directed
//     path of the domain's action graph (x → y when post(x) is pre(y) or a prevail of y) whose
//     actions after a^p do not affect v_j. The paper does this in a pre-processing step; we do it
//     per call (a breadth-first search: quadratic, this is a comparison tool).
//  C6 (C 2.3) "the first action to modify s0[v_i]": the first action of the chain from s0[v_i]
//     built last (topo-ijcai's R9).
#include <array>
#include <atomic>
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "tools/papers/common.h"
#include "topoplan/runtime/plan.h"
#include "topoplan/tools/papers.h"

namespace topoplan {
namespace {

std::atomic<int64_t> g_invalid_plans{0};

using papers::Color;
enum class Version : uint8_t { kSas, kCnia };

class TopoSas {
 public:
  TopoSas(const Domain& d, const Instance& inst, Version version)
      : d_(d),
        inst_(inst),
        version_(version),
        prv_(papers::prevail_table(d, d.action_mask(inst.npc_class))),
        flag_(papers::count_prevails(d, d.action_mask(inst.npc_class))),
        ids_(d, d.action_mask(inst.npc_class)) {
    const int32_t m = d.num_variables();
    next_.assign(ids_.size(), {-1, -1});
    const auto mask = d.action_mask(inst.npc_class);
    mask_.assign(mask.begin(), mask.end());
    color_.assign(static_cast<size_t>(d.num_actions()), Color::kWhite);
    in_d_.assign(static_cast<size_t>(d.num_actions()), 0);
    preds_.assign(static_cast<size_t>(d.num_actions()), {});
    first_mod_.assign(static_cast<size_t>(m), -1);
  }

  // Procedure 3. Returns false on a fail (fail_ says where).
  bool run(std::vector<ActionId>& plan) {
    const int32_t m = d_.num_variables();
    for (VarId v = 0; v < m; ++v) {  // Phase 1 (3.2-3.6)
      if (inst_.init[v] != inst_.goal[v] && !build_chain(v, inst_.init[v], inst_.goal[v], "3.4"))
        return false;
    }
    if (order_.empty()) return true;              // (3.7)
    for (size_t k = 0; k < order_.size(); ++k) {  // Phase 2 (3.9), S5
      const ActionId a = order_[k];
      const bool ok = version_ == Version::kSas ? phase2_sas(a) : phase2_cnia(a);
      if (!ok) return false;
    }
    for (const ActionId a : order_) {  // Phase 3, S12
      if (color_[a] == Color::kYellow && !dfs_topo(a, plan)) return false;
    }
    return true;
  }

  [[nodiscard]] const std::string& fail_message() const { return fail_; }

 private:
  [[nodiscard]] int32_t slot(VarId v, ValueId x) const { return ids_.slot(v, x); }
  [[nodiscard]] ActionId first(VarId v, ValueId x) const { return next_[slot(v, x)][0]; }
  [[nodiscard]] ActionId last(VarId v, ValueId x) const {
    const auto& n = next_[slot(v, x)];
    return n[1] >= 0 ? n[1] : n[0];
  }

  [[nodiscard]] std::string fact(VarId v, ValueId x) const { return papers::fact(d_, v, x); }

  bool fail(const std::string& line, const std::string& why) {
    fail_ = "fail at (" + line + "): " + why;
    return false;
  }

  void add_edge(ActionId from, ActionId to) {
    if (from >= 0 && to >= 0) preds_[static_cast<size_t>(to)].push_back(from);  // S9
  }

  void make_yellow(ActionId a) {
    color_[a] = Color::kYellow;
    if (in_d_[a] == 0) {
      in_d_[a] = 1;
      order_.push_back(a);
    }
  }

  // Next(a^y_v) ∪ {b}: S3 (two entries) or C2 (set once).
  bool add_next(VarId v, ValueId y, ActionId b, const char* line) {
    auto& n = next_[slot(v, y)];
    if (version_ == Version::kCnia) {
      if (n[0] < 0) n[0] = b;
      return true;
    }
    if (n[0] == b || n[1] == b) return true;
    if (n[0] < 0) {
      n[0] = b;
    } else if (n[1] < 0) {
      n[1] = b;
    } else {
      return fail(line, "Next of " + fact(v, y) + " would hold a third action, " +
                            d_.action_name(b) + " (T1 bounds it by two)");
    }
    return true;
  }

  // Procedure 1: walks back from a^g through pre-conditions until the value s.
  bool build_chain(VarId v, ValueId s, ValueId g, const char* caller) {
    const bool sas = version_ == Version::kSas;
    const std::string at = std::string(" (called at ") + caller + ")";
    const ActionId ag = ids_.producer[slot(v, g)];
    if (ag < 0) return fail("1.2", "no action produces " + fact(v, g) + at);
    if (!sas && color_[ag] != Color::kWhite)  // C3
      return fail("1.input", d_.action_name(ag) + " is already in the plan" + at);
    make_yellow(ag);  // (1.4)
    ValueId y = d_.effects(ag)[0].pre;
    add_edge(ids_.producer[slot(v, y)], ag);
    if (!add_next(v, y, ag, sas ? "1.6" : "1.8")) return false;
    ActionId chain_first = ag;
    while (y != s) {
      const ActionId ay = ids_.producer[slot(v, y)];
      if (ay < 0) return fail(sas ? "1.8" : "1.11", "no action produces " + fact(v, y) + at);
      if (color_[ay] == Color::kYellow)
        return fail(sas ? "1.10" : "1.13", d_.action_name(ay) + " is already in the plan" + at);
      make_yellow(ay);
      const ValueId x = y;
      y = d_.effects(ay)[0].pre;
      add_edge(ids_.producer[slot(v, y)], ay);  // C1
      if (!add_next(v, y, ids_.producer[slot(v, x)], sas ? "1.14" : "1.19")) return false;
      chain_first = ay;
    }
    if (s == inst_.init[v]) first_mod_[v] = chain_first;  // C6
    return true;
  }

  // A prevail vj = q of `a` where q is not vj's initial value: its producer `aq` (-1, a ghost:
  // the fail at `ghost_line`) is chained from the initial value when still white (Procedure 1
  // called at `chain_line`), then ordered before a. The two versions write these lines alike.
  bool order_producer_first(ActionId a, VarId vj, ValueId q, ActionId aq, const char* ghost_line,
                            const char* chain_line) {
    if (aq < 0)
      return fail(ghost_line, "prevail " + fact(vj, q) + " of " + d_.action_name(a) +
                                  " has no producer (ghost)");
    if (color_[aq] == Color::kWhite && !build_chain(vj, inst_.init[vj], q, chain_line))
      return false;
    add_edge(aq, a);
    return true;
  }

  // Procedure 3, lines 3.10-3.36 of the English version, for one action of D.
  bool phase2_sas(ActionId a) {
    const Effect& ea = d_.effects(a)[0];
    const VarId vi = ea.var;
    const ValueId p = ea.post;
    for (const Fact& f : d_.prevail(a)) {  // (3.10), S6
      const VarId vj = f.var;
      const ValueId q = f.value;
      if (q != inst_.goal[vj]) {  // (3.11)
        if (first(vj, q) < 0 && !build_chain(vj, q, inst_.init[vj], "3.13")) return false;
        const ActionId nx = first(vj, q);
        if (nx >= 0 && prv_.get(nx, vi) != p) add_edge(a, nx);  // (3.15-3.16), S7
      }
      const ActionId aq = ids_.producer[slot(vj, q)];
      if (q != inst_.init[vj]) {  // (3.19)
        // (3.20-3.25)
        if (!order_producer_first(a, vj, q, aq, "3.20", "3.23")) return false;
        flag_.set(vi, vj, 1);  // (3.26), S8, S13
      } else if (flag_.get(vi, vj) != 1) {
        if (aq >= 0 && prv_.get(aq, vi) != p) add_edge(aq, a);  // (3.28-3.29)
      } else {
        const ActionId lst = last(vj, q);
        if (lst >= 0 && prv_.get(lst, vi) != p) add_edge(a, lst);  // (3.31-3.32), S9
      }
    }
    return true;
  }

  // Procedure 3, lines 3.10-3.34 of the CNIA version, for one action of D.
  bool phase2_cnia(ActionId a) {
    const Effect& ea = d_.effects(a)[0];
    const VarId vi = ea.var;
    const ValueId p = ea.post;
    for (const Fact& f : d_.prevail(a)) {  // (3.10)
      const VarId vj = f.var;
      const ValueId q = f.value;
      const ActionId aq = ids_.producer[slot(vj, q)];
      // (3.11-3.17)
      if (q != inst_.init[vj] && !order_producer_first(a, vj, q, aq, "3.12", "3.15")) return false;
      if (q != inst_.goal[vj]) {  // (3.19)
        if (first(vj, q) < 0 && !build_chain(vj, q, inst_.init[vj], "3.21")) return false;
        const ActionId nx = first(vj, q);
        if (nx >= 0 && prv_.get(nx, vi) != p) add_edge(a, nx);  // (3.23-3.24), S7
      }
      if (q == inst_.init[vj] && aq >= 0) {  // (3.27), C4
        const ActionId nic = next_in_cycle(aq);
        if (nic >= 0) {
          if (orders_before(a, vj)) {
            add_edge(a, nic);  // (3.29)
          } else {
            add_edge(aq, a);  // (3.31)
          }
        }
      }
    }
    return true;
  }

  // C4: the action of aq's cycle whose pre-condition is post(aq), or -1 off any cycle.
  [[nodiscard]] ActionId next_in_cycle(ActionId aq) const {
    const Effect& e = d_.effects(aq)[0];
    ActionId cur = aq;
    for (int32_t steps = 0; steps <= d_.domain_size(e.var); ++steps) {
      const ActionId back = ids_.producer[slot(e.var, d_.effects(cur)[0].pre)];
      if (back < 0) return -1;
      if (back == aq) return cur;
      cur = back;
    }
    return -1;
  }

  // C5: the path analysis.
  bool orders_before(ActionId a, VarId vk) {
    if (consumers_.empty()) {
      consumers_.assign(ids_.size(), {});
      for (ActionId b = 0; b < d_.num_actions(); ++b) {
        if (!mask_[b]) continue;
        const Effect& e = d_.effects(b)[0];
        consumers_[slot(e.var, e.pre)].push_back(b);
        for (const Fact& f : d_.prevail(b)) consumers_[slot(f.var, f.value)].push_back(b);
      }
    }
    std::vector<uint8_t> seen(static_cast<size_t>(d_.num_actions()), 0);
    std::vector<ActionId> queue{a};
    seen[a] = 1;
    for (size_t k = 0; k < queue.size(); ++k) {
      const Effect& e = d_.effects(queue[k])[0];
      for (const ActionId b : consumers_[slot(e.var, e.post)]) {
        if (seen[b] != 0) continue;
        seen[b] = 1;
        const ValueId w = prv_.get(b, vk);
        if (w != kUndefined && w != inst_.init[vk]) return true;
        if (d_.effects(b)[0].var != vk) queue.push_back(b);
      }
    }
    return false;
  }

  // Procedure 2 (S10, S11, C6): the skip of (2.3) is S11 in the SAS version, C6 in the other.
  bool dfs_topo(ActionId a, std::vector<ActionId>& plan) {
    const auto skips_pre = [this](ActionId x) {
      const Effect& e = d_.effects(x)[0];
      return version_ == Version::kSas ? e.pre == inst_.init[e.var] && last(e.var, e.pre) == x
                                       : first_mod_[e.var] == x;
    };
    const auto cycle = [this](ActionId b, ActionId x) {
      return fail("2.4", "cycle through " + d_.action_name(b) + " and " + d_.action_name(x));
    };
    return papers::dfs_topo(d_, ids_, preds_, color_, a, skips_pre, cycle, plan);
  }

  const Domain& d_;
  const Instance& inst_;
  Version version_;
  papers::PairTable prv_;   // prv(a)[v] in O(1), as the papers count it
  papers::PairTable flag_;  // Flag[v_i][v_j] = 1 once set (S8, S13)
  std::vector<uint8_t> mask_;
  papers::Ids ids_;                            // a ghost has no producer (S2)
  std::vector<std::array<ActionId, 2>> next_;  // Next per ID: First, Last (S3) / one (C2)
  std::vector<Color> color_;
  std::vector<uint8_t> in_d_;
  std::vector<std::vector<ActionId>> preds_;      // E_D as predecessor lists
  std::vector<ActionId> order_;                   // D in insertion order
  std::vector<ActionId> first_mod_;               // C6, per variable
  std::vector<std::vector<ActionId>> consumers_;  // C5: actions needing each (v, x)
  std::string fail_;
};

PlanResult plan_version(const Domain& domain, const Instance& instance, Version version) {
  const std::string name = version == Version::kSas ? "topo-sas" : "topo-cnia";
  papers::Call call(name);
  if (auto refused = call.refuse_foreign(domain, instance)) return std::move(*refused);
  const auto mask = domain.action_mask(instance.npc_class);
  std::vector<int32_t> offset(static_cast<size_t>(domain.num_variables()) + 1, 0);
  for (VarId v = 0; v < domain.num_variables(); ++v)
    offset[v + 1] = offset[v] + domain.domain_size(v);
  std::vector<uint8_t> produced(static_cast<size_t>(offset.back()), 0);
  for (ActionId a = 0; a < domain.num_actions(); ++a) {
    if (!mask[a]) continue;
    const auto effects = domain.effects(a);
    if (effects.size() != 1 || effects[0].pre == kUndefined)
      return call.refuse(PlanStatus::kUnsupported,
                         name + ": action " + domain.action_name(a) +
                             " is not unary with a defined pre-condition");
    const Effect& e = effects[0];
    if (produced[static_cast<size_t>(offset[e.var] + e.post)]++ != 0)
      return call.refuse(PlanStatus::kUnsupported, name + ": the actions are not post-unique (" +
                                                       domain.variable_name(e.var) + "=" +
                                                       domain.value_name(e.var, e.post) +
                                                       " has two producers)");
  }
  if (auto refused = call.refuse_partial_goal(instance)) return std::move(*refused);
  TopoSas planner(domain, instance, version);
  std::vector<ActionId> plan;
  const bool ran = planner.run(plan);
  return call.finish(domain, instance, ran, planner.fail_message(), std::move(plan),
                     g_invalid_plans);
}

}  // namespace

int64_t topo_sas_invalid_plans() {
  return g_invalid_plans.load();
}

PlanResult plan_topo_sas(const Domain& domain, const Instance& instance,
                         const PlannerOptions& /*options*/) {
  return plan_version(domain, instance, Version::kSas);
}

PlanResult plan_topo_cnia(const Domain& domain, const Instance& instance,
                          const PlannerOptions& /*options*/) {
  return plan_version(domain, instance, Version::kCnia);
}

}  // namespace topoplan

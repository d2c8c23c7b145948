// topoplan — ℙ (TopoPlan): the linear-time planner for unary, post-unique action sets.
//
// Design
// ------
// The papers (Prévost et al. 2023; Prévost et al. 2022; Prévost et al., SAS Planning as
// Topological Sorting) plan SAS-PU tasks by building, per variable, the chain of actions from
// s0[v] to s*[v] (post-uniqueness makes it unique), adding the chains that prevail-conditions
// request, ordering the chosen actions by their pre- and prevail-conditions, and sorting them
// topologically. docs/algorithm.md describes the version implemented here and where (and why) it
// departs from the papers.
//
// Two objects, split by lifetime (as Detour's dtNavMesh / dtNavMeshQuery):
//   * TopoPlanner — built once per CompiledActionSet (Domain, NPC class or action mask): it reads
//     the set's indexes (the sole producer per value, prevail slots and requesters as CSR) and
//     adds the cycle of every domain-action graph and the structural class. Immutable; share it
//     between threads.
//   * TopoScratch — per-thread working memory sized for one planner. plan() never allocates.
//
// Guarantees (checked by tests/topo against the exact search):
//   * a returned plan is valid (plan() re-simulates it before returning; a failed self-check is
//     reported as kGaveUp with kDetailSelfCheck, never as a plan);
//   * a returned plan is minimal in length among all plans, and uses each action at most once;
//   * kUnsolvable only with a proof: a goal or requested value no walk can reach, or — for action
//     sets in C0 or C2S (Prévost et al. 2023, Theorems 1 and 3; docs/references.md) — no plan
//     using each action once. Not C2*: the paper's Theorem 4 is false (a C2* instance may need an
//     action twice; docs/algorithm.md, "Departures from the papers", item 5), so there ℙ gives up;
//   * undefined pre-conditions and partial goals (general path, docs/algorithm.md "Windows"):
//     same guarantees, except that ℙ may give up (kGaveUp) on an instance that has a plan with
//     each action once when several variables' window orders interact;
//   * time O(|A| + |E_A|) per plan; the same plan for the same input.
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "topoplan/runtime/analysis.h"
#include "topoplan/runtime/compiled.h"
#include "topoplan/runtime/domain.h"
#include "topoplan/runtime/plan.h"
#include "topoplan/runtime/result.h"

namespace topoplan {

class TopoPlanner;
namespace detail {
struct FastOrderings;   // src/runtime/topo/orderings.h
struct GeneralAttempt;  // src/runtime/topo/general.h
}  // namespace detail

// Per-thread working memory of one TopoPlanner. Create with TopoPlanner::make_scratch(); reuse
// for every plan() call of that thread.
class TopoScratch {
 public:
  TopoScratch() = default;

  // Diagnostics: the last plan() ran out of the pick_deferred budget (docs/algorithm.md,
  // "Complexity"); later loop choices took the oldest candidate, and an ordering failure of
  // that call was reported as kGaveUp, not kUnsolvable.
  [[nodiscard]] bool pick_budget_spent() const { return pick_capped_ != 0; }

 private:
  friend class TopoPlanner;
  friend struct detail::FastOrderings;
  friend struct detail::GeneralAttempt;
  // (actions << 32) | value slots of the planner it was made for: plan() checks it in one
  // compare instead of two vector sizes.
  uint64_t shape_ = 0;
  // Generation stamp, advanced by 2 per plan: a value slot whose mark is gen_ lies on the walk
  // of its variable, gen_ + 1 marks s0 of its variable; any other value means "unset".
  uint32_t gen_ = 0;
  // Per action, per value slot (value_offset[v] + x) and per variable: one record each, so that
  // the hot loops keep three base pointers in registers instead of eleven.
  // Per action: the two fields every plan touches (8 bytes: an addressing-mode scale), and
  // those only the sort with disjunctive requests and the general path use.
  struct ActRec {
    uint32_t stamp;  // == gen_: chosen for this plan
    int32_t indeg;
  };
  struct ActSort {
    int32_t head;   // first late edge (linked list), -1 none; reset once a late edge exists
    uint8_t state;  // pending, queued, done, deferred
  };
  struct SlotRec {
    uint32_t mark;   // see gen_
    ActionId leave;  // action leaving that value on the walk (-1: final value); s0: σ1's first
  };
  struct VarRec {
    ActionId sigma_first;  // first action of the s0 → goal path (-1 if none)
    int32_t pending_disj;  // requesters of s0[v] (long walks: still unresolved)
    int32_t disj_head;     // their list (linked through disj_next_)
    ActionId loop_first;   // looping walk: f_v, the action leaving the first epoch of s0 (-1:
                           // short walk)
  };
  std::vector<ActRec> act_;
  std::vector<ActSort> act_sort_;
  std::vector<SlotRec> slot_;
  // Per value slot, the self-check's simulated state: == gen_ when the variable holds that value.
  // Apart from slot_ so that both strides (8 and 4 bytes) are addressing-mode scales.
  std::vector<uint32_t> sim_;
  std::vector<VarRec> var_;
  std::vector<VarId> s0_req_vars_;  // variables with a request for their s0 value
  int32_t num_s0_req_vars_ = 0;
  // Late edges of disjunctive requests (the only edges stored; the others are implicit).
  std::vector<int32_t> edge_next_;
  std::vector<ActionId> edge_to_;
  int32_t num_edges_ = 0;
  std::vector<ActionId> disj_action_;  // requests for s0[w]: requester ...
  std::vector<int32_t> disj_next_;
  int32_t num_disj_ = 0;
  std::vector<ActionId> used_;  // actions of the plan, in discovery order
  int32_t num_used_ = 0;
  int64_t work_ =
      0;  // |chosen actions| + |their requests| (the linear budget; -1: not yet computed)
  int64_t pick_work_ = 0;        // spent by pick_deferred passes in this plan
  std::vector<ActionId> queue_;  // Kahn queue
  std::vector<ActionId> deferred_;
  std::vector<int32_t> tmp_indeg_;  // pick_deferred: in-degrees and descendant masks
  std::vector<uint64_t> mask_;
  // General path (undefined pre-conditions, partial goals; docs/algorithm.md, "Windows"): one
  // record per action, value slot, variable and window (window id: the jump action opening it,
  // or |A| + v for the initial window of v), and the explicit edge list.
  struct GActRec {
    int32_t win;    // window whose segment holds the action (-1: none)
    int32_t ireq;   // request edges into it (requesters of its pre value)
    int32_t rnext;  // next ready jump of the same variable (-1: end)
    int32_t rprev;  // previous one (-1: head)
  };
  struct GSlotRec {
    uint32_t walk;  // closure walk that marked it (detects a loop missing s0)
    int32_t win;    // window in which the value is visited (-1: not visited)
  };
  struct GVarRec {
    ActionId e1, e2;      // children of s0: first epoch, after the return to s0
    ActionId reentry;     // action returning to s0 (-1: none)
    ActionId loop_child;  // child of s0 through which the return chain came back (-1)
    ActionId goal_child;  // child of s0 on the goal's chain (-1)
    int32_t nact;         // chosen actions on the variable
    int32_t nroots;       // chosen jumps (actions with no pre-condition on the variable)
    int32_t nwin_left;    // jump windows not yet opened
    int32_t cur;          // current window
    int32_t s0pend;       // requests for s0 still hoping for the first epoch
    int32_t s0head;       // their list (disj_action_ / disj_next_)
    int32_t rhead;        // ready jumps (gact_.rnext)
    int32_t goalwin;      // window that must come last (-1: none)
    int32_t win2;         // window holding the second visit of s0 (-1)
    ValueId simval;       // self-check: simulated value
    uint32_t force;       // == plan id: the return to s0 is forced (retry)
    uint32_t force_late;  // == plan id: ... and s0's only child goes after it
    int32_t hint_head;    // windows worth trying first (hint_win_ / hint_next_)
    uint8_t released;     // the first epoch of s0 was closed with requests left
    uint8_t can_back;     // after a failed attempt: a return to s0 with each action once may exist
    uint8_t held_e1;      // e1 is ready but held for requests of s0
  };
  std::vector<GActRec> gact_;
  std::vector<GSlotRec> gslot_;
  std::vector<GVarRec> gvar_;
  std::vector<int32_t> gwin_pending_;
  std::vector<int32_t> gedge_next_;
  std::vector<ActionId> gedge_to_;
  int32_t gnum_edges_ = 0;
  std::vector<ActionId> hint_win_;  // a member of that window became nearly ready
  std::vector<int32_t> hint_next_;
  int32_t num_hints_ = 0;
  std::vector<uint32_t> trial_mark_;  // trial runs of a window (closable): seen / fired stamps
  uint32_t trial_ = 0;
  std::vector<VarId> jvars_;  // variables with jump windows or a held first epoch
  int32_t num_jvars_ = 0;
  uint32_t gwalk_ = 0;
  uint32_t gplan_ = 0;
  int64_t gbudget_ = 0;
  bool gheuristic_ = false;  // an order choice was made without a safety argument
  // The failure of the last plan() call: its detail bits (plan.h; every bit ℙ sets fits in 16)
  // and the variable / value / action at fault, read into the PlanOutcome plan() returns.
  // failure_ and pick_capped_ share one 32-bit word, which run() clears with one store.
  uint16_t failure_ = kDetailNone;
  uint16_t pick_capped_ = 0;  // a pick pass was skipped for the budget: ordering failures unproven
  VarId failure_var_ = -1;
  ValueId failure_value_ = -1;
  ActionId failure_action_ = -1;
  // Relaxed reachability proof (src/runtime/topo/relax.cpp; only where plan() would give up): per
  // action, its conditions not yet reached; per value slot, reached; the queue of reached slots.
  std::vector<int32_t> relax_count_;
  std::vector<uint8_t> relax_reached_;
  std::vector<int32_t> relax_queue_;
};

class TopoPlanner {
 public:
  // Builds the tables for the actions of `npc_class` (kAllActions: every action). Fails (the
  // message names the actions) when an available action is not unary, or two available actions
  // set the same variable to the same value. Undefined pre-conditions are planned by the general
  // path (docs/algorithm.md, "Windows").
  // Runs the class analysis (analysis.h) to know which failures are proofs.
  [[nodiscard]] static Result<TopoPlanner> create(const Domain& domain,
                                                  ClassId npc_class = kAllActions);
  // Same for an explicit per-NPC action mask (size num_actions(), non-zero = available).
  [[nodiscard]] static Result<TopoPlanner> create(const Domain& domain,
                                                  std::span<const uint8_t> action_mask);
  // Same with the structural class supplied by the caller (skips the analysis). Passing a class
  // smaller than the true one voids the kUnsolvable guarantee.
  [[nodiscard]] static Result<TopoPlanner> create(const Domain& domain,
                                                  std::span<const uint8_t> action_mask,
                                                  StructuralClass structural_class);
  // ℙ on a compiled action set (its indexes are shared, not copied); the analysis runs on the
  // set's actions. Fails as above.
  [[nodiscard]] static Result<TopoPlanner> create(const CompiledActionSet& set);
  // Same with the structural class supplied by the caller (skips the analysis).
  [[nodiscard]] static Result<TopoPlanner> create(const CompiledActionSet& set,
                                                  StructuralClass structural_class);

  // ℙ for a search over producer choices (src/runtime/reform/choice.cpp): the tables of a unary
  // set whose values may have several producers, built once; restrict_to() then makes it ℙ on one
  // post-unique subset in O(|A| + Σ|D_v|) without allocating, so that every subset shares the
  // set's indexes and one TopoScratch. Such a planner is rewritten per subset (one per thread)
  // and claims no structural class: where a class would prove an ordering failure, it gives up.
  // Fails when an available action is not unary. Plans nothing before restrict_to().
  [[nodiscard]] static Result<TopoPlanner> create_restrictable(const CompiledActionSet& set);
  // Keeps the available actions `action_mask` marks (size num_actions()). Returns false, and
  // keeps no action, when two marked actions set the same variable to the same value.
  bool restrict_to(std::span<const uint8_t> action_mask);

  TopoPlanner() = default;

  [[nodiscard]] const Domain& domain() const { return *domain_; }
  [[nodiscard]] StructuralClass structural_class() const { return class_; }
  // Upper bound on plan length: the number of available actions.
  [[nodiscard]] int32_t max_plan_length() const { return num_available_; }

  // Scratch sized for this planner (allocates; do it once per thread).
  [[nodiscard]] TopoScratch make_scratch() const;

  // Plans from the total state `s0` to `goal` (one entry per variable; kUndefined = free) into
  // `out`; *out_len receives the plan length (or, for kBufferTooSmall, the length needed). The
  // hot contract's signature and outcome (planner.h), without a virtual call: kSolved;
  // kUnsolvable (proof, see header comment); kGaveUp (no plan, no proof: the detail bits say
  // why); kBufferTooSmall. No heap allocation.
  [[gnu::always_inline]] PlanOutcome plan(TopoScratch& scratch, std::span<const ValueId> s0,
                                          std::span<const ValueId> goal, std::span<ActionId> out,
                                          int32_t* out_len) const {
    const PlanStatus status = run(scratch, s0, goal, out, out_len);
    if (status == PlanStatus::kSolved) [[likely]]
      return PlanOutcome{PlanStatus::kSolved};
    return failed(scratch, status);
  }

  // The designer's words for an outcome of this planner (explain(domain, outcome), plan.h, after
  // "topo: "); cold path.
  [[nodiscard]] std::string explain(const PlanOutcome& outcome) const;

 private:
  friend struct detail::FastOrderings;
  friend struct detail::GeneralAttempt;

  [[nodiscard]] int32_t slot(VarId v, ValueId x) const { return value_offset_[v] + x; }
  // plan() up to its status; the failure, if any, is left in the scratch.
  PlanStatus run(TopoScratch& s, std::span<const ValueId> s0, std::span<const ValueId> goal,
                 std::span<ActionId> out, int32_t* out_len) const;
  // The outcome of a call that ended with `status` (not kSolved), from the scratch's failure.
  [[gnu::cold]] static PlanOutcome failed(const TopoScratch& s, PlanStatus status);
  // Records the failure (detail bits, plan.h) in the scratch; returns false.
  bool fail(TopoScratch& s, PlanDetail f, VarId v, ValueId x, ActionId a) const;
  // An ordering failure: kUnsolvable when `proof` or when ℙ's class makes it one, else kGaveUp.
  [[nodiscard]] PlanStatus no_plan(const TopoScratch& s, bool proof) const;

  // The fast path (src/runtime/topo/fast.cpp; the sort: src/runtime/topo/order_impl.h). The phases
  // answer a byte: detail::kExtended goes on to the next phase, detail::kToGeneral hands the plan
  // to the general path, anything else is the PlanStatus that ends the plan.
  uint8_t start_walks(TopoScratch& s, const ValueId* s0, const ValueId* goal,
                      uint32_t* goal_diff) const;
  // Returns detail::kExtended (go on), detail::kToGeneral, or the PlanStatus ending the plan.
  uint8_t close_requests(TopoScratch& s, const ValueId* s0, const ValueId* goal) const;
  [[gnu::cold]] PlanStatus goal_unreachable(TopoScratch& s, const ValueId* s0, const ValueId* goal,
                                            VarId v, ValueId g, ActionId a) const;
  // Returns detail::kExtended (the walk now loops), detail::kToGeneral (the general path must
  // plan), or the PlanStatus that ends the plan.
  uint8_t extend_walk(TopoScratch& s, const ValueId* s0, const ValueId* goal, ActionId a,
                      int32_t ps) const;
  void make_long(TopoScratch& s, VarId v, ValueId s0) const;
  [[nodiscard]] bool reaches(VarId v, ValueId from, ValueId to) const;
  void add_edge(TopoScratch& s, ActionId from, ActionId to) const;
  ActionId pick_deferred(TopoScratch& s, const ValueId* s0, int32_t first, int32_t last) const;
  void send_requests_late(TopoScratch& s, const ValueId* s0, ActionId f) const;
  // The sort's self-check failed a condition: replays plan[0, n) from s0 and returns its first
  // action whose condition does not hold (src/runtime/topo/order.cpp). Cold.
  [[gnu::cold]] ActionId first_unsound(TopoScratch& s, const ValueId* s0, const ActionId* plan,
                                       int32_t n) const;
  // The sort's goal test when the state code is not injective (src/runtime/topo/order.cpp).
  [[nodiscard]] bool goal_reached(const TopoScratch& s, const ValueId* goal) const;
  // Sorts the chosen actions into `out` and re-simulates each one as it is emitted (the
  // self-check); returns kSolved, kGaveUp (ordering cycle or failed self-check). kLoops: some
  // request is disjunctive (src/runtime/topo/order.cpp).
  template <bool kLoops>
  PlanStatus order(TopoScratch& s, const ValueId* s0, const ValueId* goal, uint32_t goal_diff,
                   ActionId* out) const;
  // The lists of disjunctive requests per looping variable (src/runtime/topo/order.cpp).
  void list_disjunctive(TopoScratch& s) const;
  // order<true>, out of line (plan() inlines order<false>: src/runtime/topo/order_impl.h).
  PlanStatus order_loops(TopoScratch& s, const ValueId* s0, const ValueId* goal, uint32_t goal_diff,
                         ActionId* out) const;

  // Where plan() would answer kGaveUp (not for bad input or a failed self-check): the relaxed
  // reachability proof (src/runtime/topo/relax.cpp). Returns kUnsolvable (detail
  // kDetailRelaxedUnreachable) when some goal value is unreachable even ignoring deletes, else `st`
  // with the failure kept.
  [[gnu::cold]] PlanStatus relaxed_proof(TopoScratch& s, const ValueId* s0,
                                         const ValueId* goal) const;
  [[gnu::cold, gnu::noinline]] PlanStatus gave_up(TopoScratch& s, const ValueId* s0,
                                                  const ValueId* goal) const;

  // The general path (src/runtime/topo/general*.cpp): undefined pre-conditions and partial goals.
  PlanStatus plan_general(TopoScratch& s, std::span<const ValueId> s0,
                          std::span<const ValueId> goal, std::span<ActionId> out,
                          int32_t* out_len) const;

  // Cycles of the domain-action graphs (construction, src/runtime/topo/build.cpp).
  void find_cycles(int32_t slots, int32_t num_variables);
  // Every table of ℙ over `set` but the class checks (src/runtime/topo/build.cpp).
  void init(const CompiledActionSet& set, StructuralClass structural_class);

  // The indexes ℙ reads: the set's (shared with it, immutable), viewed by the spans below.
  CompiledActionSet set_;
  const Domain* domain_ = nullptr;
  bool general_only_ = false;  // an available action has an undefined pre-condition
  // The self-check's goal test (docs/algorithm.md, "Algorithm", step 5): a state's code is
  // Σ_v value(v)·weight(v), weight(v) = Π_{u<v} |D_u| (mixed radix), injective when
  // Π |D_v| ≤ 2^31, so that (goal code − simulated code) mod 2^32 is 0 exactly when the
  // simulated state reaches the goal. Otherwise the sort scans the goal at the end.
  bool state_code_ = false;
  std::vector<uint32_t> var_weight_;  // per variable: weight(v) (mod 2^32); 0 without state code
  uint32_t code_start_ = 1;           // initial difference: 0, or 1 without state code
  StructuralClass class_ = StructuralClass::kNone;
  int32_t num_available_ = 0;
  uint64_t shape_ = 0;          // (actions << 32) | value slots: the scratch shape plan() expects
  int32_t total_prevails_ = 0;  // Σ |prv(a)| over available actions
  std::span<const int32_t> value_offset_;  // size m+1
  std::span<const ActionId> producer_;     // per slot: the available action setting v = x, or -1
  std::span<const VarId> slot_var_;        // per slot: its variable
  // Prevail-conditions of the available actions as value slots (CSR by action), and the reverse
  // index: per slot, the available actions requesting it (CSR by slot, ascending action id).
  std::span<const int32_t> prv_offset_;  // size |actions| + 1
  std::span<const int32_t> prv_slot_;
  std::span<const int32_t> req_offset_;  // size slots + 1
  std::span<const ActionId> req_action_;
  // ℙ's own tables: the cycle of every domain-action graph.
  std::vector<int32_t> cycle_id_;    // per slot: which cycle it lies on (-1: none)
  std::vector<ValueId> cycle_next_;  // per slot on a cycle: the next value along the cycle
  // Per slot: its producer and the producer's pre-condition (parent), one 8-byte record, so that a
  // walk's step back is one load instead of two dependent ones (producer_, then act_info_).
  struct WalkStep {
    ActionId producer;  // -1: none
    ValueId parent;     // pre(producer); unused without producer
  };
  std::vector<WalkStep> walk_step_;
  // Per variable, what phase 1 reads (one 16-byte record instead of three loads from two arrays).
  struct VarInfo {
    int32_t base;     // value_offset_[v]
    uint32_t size;    // |D_v|
    uint32_t weight;  // var_weight_[v]
    int32_t unused;
  };
  std::vector<VarInfo> var_info_;
  // Per action, one record (one cache line fetch instead of nine arrays): effect variable, pre
  // and post, their slots, the prevail range (prv_*) and the requesters of the post slot
  // (req_*). var = -1 for an unavailable action.
  struct ActInfo {
    VarId var;
    ValueId pre;
    ValueId post;
    int32_t pre_slot;
    int32_t post_slot;
    int32_t prv_begin;
    int32_t prv_end;
    int32_t req_begin;
    int32_t req_end;
    uint32_t code_delta;  // (post − pre)·weight(var) mod 2^32: the action's change of the code
  };
  std::vector<ActInfo> act_info_;
  // Restrictable planners only: the producers of the current subset (producer_ views it).
  std::vector<ActionId> own_producer_;
  std::vector<int32_t> cycle_mark_;  // find_cycles' marks, kept so that restrict_to reuses them
};

// The cold-path PlanFn registered as "topo": builds a TopoPlanner for the instance's class and
// plans once. Non-unary or non-post-unique action sets give kUnsupported.
[[nodiscard]] PlanResult plan_topo(const Domain& domain, const Instance& instance,
                                   const PlannerOptions& options = {});

}  // namespace topoplan

// ℙ's general path, one attempt: the state its phases share (docs/algorithm.md, "Windows").
// general.cpp drives the attempts (retries with a forced return to s0), general_closure.cpp
// chooses the actions and lays out their segments and windows, general_sort.cpp orders them.
#pragma once

#include <cstdint>
#include <span>

#include "topoplan/runtime/topo.h"

namespace topoplan::detail {

// Action states of the general sort.
inline constexpr uint8_t kGeneralPending = 0;
inline constexpr uint8_t kGeneralQueued = 1;
inline constexpr uint8_t kGeneralDone = 2;
inline constexpr uint8_t kGeneralHeld = 3;  // a jump waiting for its window, or a held e1

struct GeneralAttempt {
  using ActRec = TopoScratch::ActRec;
  using GActRec = TopoScratch::GActRec;
  using SlotRec = TopoScratch::SlotRec;
  using GSlotRec = TopoScratch::GSlotRec;
  using GVarRec = TopoScratch::GVarRec;

  GeneralAttempt(const TopoPlanner& planner, TopoScratch& scratch, std::span<const ValueId> s0,
                 std::span<const ValueId> goal, std::span<ActionId> out);
  // kSolved with the plan in `out`; else a failure recorded in the scratch, and *retry_var set
  // when a retry with a forced return to s0 may help (general.cpp).
  PlanStatus run(int32_t* out_len, VarId* retry_var);

  // ---- Closure (general_closure.cpp) ----
  void reset_variables();
  void choose(ActionId a);
  bool add_child_s0(VarId v, ActionId child);
  int need(VarId v, ValueId q, ActionId below, ActionId by);
  [[nodiscard]] PlanStatus status_of(int need_result) const;
  PlanStatus close_goals_and_requests();
  PlanStatus close_reentries();
  // ---- Walk structure ----
  [[nodiscard]] ActionId s0_child_above(VarId v, ValueId y) const;
  void walk_segment(VarId v, int32_t window, ActionId first);
  PlanStatus order_epochs(VarId v);
  PlanStatus lay_out_windows();
  // ---- Orderings (explicit edges) ----
  void add_edge(ActionId from, ActionId to);
  PlanStatus add_orderings();
  // ---- Sort with windows (general_sort.cpp) ----
  void make_ready(ActionId a);
  void release_e1(GVarRec& r);
  [[nodiscard]] bool is_free(VarId w) const;
  [[nodiscard]] bool eligible(VarId w, ActionId jump) const;
  bool closable(VarId w, ActionId jump, bool relaxed);
  void open_window(VarId w, ActionId jump);
  void hint(ActionId to);
  void release_first_epoch(VarId w);
  bool emit_ready();
  bool open_next_window();
  PlanStatus sort(int32_t* out_len, VarId* retry_var);
  // ---- Why the sort got stuck ----
  [[nodiscard]] bool can_return(VarId w) const;
  PlanStatus diagnose_stuck(VarId* retry_var);
  // After a failed attempt asking for a retry: no variable but `retry` could gain from a return
  // to its s0 (general.cpp).
  [[nodiscard]] bool only_return_is(VarId retry) const;

  [[nodiscard]] ValueId s0_of(VarId v) const { return s0[static_cast<size_t>(v)]; }
  [[nodiscard]] ValueId goal_of(VarId v) const { return goal[static_cast<size_t>(v)]; }
  [[nodiscard]] const TopoPlanner::ActInfo& info(ActionId a) const { return act_info[a]; }

  const TopoPlanner& planner;
  TopoScratch& s;
  std::span<const ValueId> s0;
  std::span<const ValueId> goal;
  std::span<ActionId> out;
  const int32_t num_vars;
  const int32_t num_actions;  // window ids: a jump's id, or num_actions + v (initial window)
  const int32_t* const off;   // value offsets
  const ActionId* const producer;
  const VarId* const slot_var;
  const int32_t* const prv_offset;
  const int32_t* const prv_slot;
  const TopoPlanner::ActInfo* const act_info;
  uint32_t gen = 0;
  ActRec* act = nullptr;
  TopoScratch::ActSort* act_sort = nullptr;  // head, state
  GActRec* gact = nullptr;
  SlotRec* slot_rec = nullptr;
  GSlotRec* gslot = nullptr;
  GVarRec* gvar = nullptr;
  int32_t* pending = nullptr;  // per window: members and requesters of its last value not done
  ActionId* used = nullptr;
  // Closure.
  VarId* reentry_work = nullptr;  // worklist of returns to s0 (≤ 3 per variable; s.jvars_)
  int32_t num_reentry_work = 0;
  bool any_forced = false;  // a retry: the added return may bring actions no plan needs
  int32_t unmet = 0;        // goal facts not yet true along the simulated plan
  int64_t work = 0;         // |chosen actions| + |their requests|
  int32_t covered = 0;      // actions placed in a segment
  // Orderings and sort.
  int32_t* edge_next = nullptr;
  ActionId* edge_to = nullptr;
  ActionId* queue = nullptr;
  int32_t queue_head = 0;
  int32_t queue_tail = 0;
  int32_t emitted = 0;
  int64_t trial_budget = 0;
  int64_t trial_spent = 0;
  uint32_t* trial_mark = nullptr;
  int32_t* trial_indeg = nullptr;
};

}  // namespace topoplan::detail

// topoplan::udgoap — goal selection for crowds: the drives/utility layer (Sloan 2015, chapter 3)
// chooses each NPC's SAS goal, then ℙ plans it (through the crowd batch API, crowd.h).
// References: docs/references.md.
//
// Model (docs/udgoap.md, "Goal selection for crowds"):
//   * facts — one float column per fact, structure-of-arrays over the NPCs of a batch;
//   * projection — each SAS variable is read off one fact: the fact rounded (a symbolic fact
//     holding a value id) or, with thresholds, the number of thresholds <= the fact (a numeric
//     fact bucketed); clamped to the variable's domain. This is the NPC's initial state s0;
//   * drives (weight) and candidate goals (NPC class, drive, weight, a fact whose normalised
//     value a response curve turns into the goal's completeness, SAS targets). For an NPC of
//     class c the top-level utility is the weighted mean over the drives that have goals for c
//     of their satisfactions Σ w_g·c_g / Σ w_g (thesis §3.3–3.4, restricted to c's goals);
//   * achieving a goal sets its completeness to 1, so its utility gain is
//         gain_g = (w_d / Σ_d w_d) · (w_g / Σ_{g' ∈ d} w_g') · (1 − c_g),
//     a per-(class, goal) constant times (1 − c_g). A goal whose targets already hold in s0 is
//     complete (gain 0). The NPC's goal is the candidate of highest gain (ties: the lowest index);
//     none when every gain is 0;
//   * the SAS goal is s0 with the chosen candidate's targets (total, as the Western instances
//     are), written packed in the crowd layout next to the packed s0 — exactly a CrowdBatch.
//
// GoalSelector is immutable once created (share it between threads); select() writes only the
// output range it is given, allocates nothing and is deterministic, so a batch cut into ranges
// on any number of threads gives the same output as one call, and as one call per NPC.
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "topoplan/runtime/crowd.h"
#include "topoplan/runtime/domain.h"
#include "topoplan/runtime/result.h"
#include "topoplan/udgoap/model.h"

namespace topoplan::udgoap {

struct SelectionFact {
  std::string name;
  double min = 0.0;  // normalisation bounds for goal completeness
  double max = 1.0;
};

struct VariableProjection {
  int32_t fact = 0;
  std::vector<double> thresholds;  // ascending; empty: the fact is the value id
};

struct SelectionDrive {
  std::string name;
  double weight = 1.0;  // > 0
};

struct CandidateGoal {
  std::string name;
  ClassId npc_class = 0;  // the NPC class that may pursue it (its actions plan it)
  int32_t drive = 0;
  double weight = 1.0;  // > 0, within its drive
  int32_t fact = 0;     // completeness = curve(normalise(fact, min, max))
  Curve curve = Curve::linear();
  std::vector<topoplan::Fact> targets;  // SAS var = value; at least one, distinct variables
};

struct GoalSelectionDef {
  std::vector<SelectionFact> facts;
  std::vector<VariableProjection> projection;  // one per SAS variable
  std::vector<SelectionDrive> drives;
  std::vector<CandidateGoal> goals;
};

// Structure-of-arrays input: N NPCs.
struct GoalSelectionBatch {
  std::span<const uint16_t> npc_class;  // N, classes of the domain
  std::span<const float> facts;         // num_facts * N, column-major: facts[f * N + i]
};

// Caller-owned output; init and goal together with npc_class form a CrowdBatch.
struct GoalSelectionOutput {
  std::span<int32_t> goal;          // N: candidate index, -1 = nothing to gain (goal = s0)
  std::span<float> gain;            // N: utility gain of the chosen goal (0 when none)
  std::span<uint64_t> init;         // N * layout().words(): packed s0
  std::span<uint64_t> packed_goal;  // N * layout().words(): packed s0 with the targets
};

class GoalSelector {
 public:
  // Validates `def` against `domain` (the domain must outlive the selector). Errors name the
  // fact, variable, drive or goal at fault.
  [[nodiscard]] static Result<GoalSelector> create(const Domain& domain, GoalSelectionDef def);

  GoalSelector() = default;

  [[nodiscard]] const GoalSelectionDef& def() const { return def_; }
  [[nodiscard]] const CrowdLayout& layout() const { return layout_; }
  [[nodiscard]] int32_t num_facts() const { return static_cast<int32_t>(def_.facts.size()); }
  // Utility gain factor of goal g for its class: gain = factor · (1 − completeness).
  [[nodiscard]] double factor(int32_t g) const { return factor_[static_cast<size_t>(g)]; }

  // Selects for NPCs [begin, end) of the batch; sizes asserted. No allocation.
  void select(const GoalSelectionBatch& batch, int64_t begin, int64_t end,
              const GoalSelectionOutput& out) const;

  // One NPC (cold path, for tools and tests): facts has num_facts() entries; writes s0 and the
  // SAS goal (one value per variable); returns the candidate index or -1.
  int32_t select_one(ClassId npc_class, std::span<const float> facts, std::span<ValueId> s0,
                     std::span<ValueId> goal, double* gain = nullptr) const;

 private:
  ValueId project(VarId v, float x) const;
  int32_t choose(ClassId c, const float* facts, int64_t stride, const uint64_t* packed_s0,
                 float* gain) const;

  const Domain* domain_ = nullptr;
  GoalSelectionDef def_;
  CrowdLayout layout_;
  std::vector<double> factor_;         // per goal
  std::vector<int32_t> class_offset_;  // CSR: goals of class c
  std::vector<int32_t> class_goals_;
  std::vector<int32_t> target_offset_;  // CSR over goals: their targets
  std::vector<topoplan::Fact> targets_;
  std::vector<ValueId> max_value_;  // per variable: |D_v| − 1
};

// The Western town's goal selection (families.h western()): the 29 variables are facts 0..28
// (value ids), followed by one "need" fact (0 = satisfied .. 100 = urgent) per candidate goal,
// completeness = inverse_linear(need). 14 candidate goals over the 7 classes, 9 drives; the table
// is in docs/udgoap.md. `western` must be western().domain.
[[nodiscard]] GoalSelectionDef western_goal_selection(const Domain& western);

}  // namespace topoplan::udgoap

// Goal selection for crowds (include/topoplan/udgoap/goal_selection.h): facts → s0 → the
// candidate goal of highest utility gain → packed s0 and SAS goal for the crowd planner.
#include "topoplan/udgoap/goal_selection.h"

#include <algorithm>
#include <cassert>
#include <cmath>

#include "runtime/limits/def_check.h"

namespace topoplan::udgoap {
namespace {

Error bad(std::string message) {
  return Error{std::move(message), "", 0};
}

// Weights: finite, > 0 (a weight of 0 would make the goal or drive pointless, and the selector
// divides by sums of weights); at most 1e9.
std::optional<Error> weight(const std::string& where, double w) {
  if (std::isfinite(w) && w > 0.0 && w <= 1e9) return std::nullopt;
  return bad(where + ": 'weight' must be in (0, 1e9], found " + def_check::number(w));
}

}  // namespace

Result<GoalSelector> GoalSelector::create(const Domain& domain, GoalSelectionDef def) {
  const int32_t m = domain.num_variables();
  const int32_t num_facts = static_cast<int32_t>(def.facts.size());
  if (static_cast<int32_t>(def.projection.size()) != m)
    return bad("goal selection: one projection per variable is needed (" + std::to_string(m) + ")");
  if (domain.num_classes() == 0) return bad("goal selection: the domain has no NPC classes");
  for (const SelectionFact& f : def.facts) {
    if (!std::isfinite(f.min) || !std::isfinite(f.max) || !(f.max > f.min))
      return bad("goal selection: fact '" + f.name + "' needs finite 'min' < 'max', found [" +
                 def_check::number(f.min) + ", " + def_check::number(f.max) + "]");
  }
  for (VarId v = 0; v < m; ++v) {
    const VariableProjection& p = def.projection[static_cast<size_t>(v)];
    if (p.fact < 0 || p.fact >= num_facts)
      return bad("goal selection: variable '" + domain.variable_name(v) + "' reads no fact");
    if (!std::all_of(p.thresholds.begin(), p.thresholds.end(),
                     [](double x) { return std::isfinite(x); }))
      return bad("goal selection: thresholds of '" + domain.variable_name(v) + "' must be finite");
    if (!std::is_sorted(p.thresholds.begin(), p.thresholds.end()) ||
        static_cast<int32_t>(p.thresholds.size()) >= domain.domain_size(v))
      return bad("goal selection: thresholds of '" + domain.variable_name(v) +
                 "' must be ascending and fewer than its values");
  }
  for (const SelectionDrive& d : def.drives) {
    if (auto e = weight("goal selection: drive '" + d.name + "'", d.weight)) return *e;
  }
  GoalSelector s;
  s.domain_ = &domain;
  s.layout_ = CrowdLayout(domain);
  const size_t num_goals = def.goals.size();
  for (const CandidateGoal& g : def.goals) {
    const std::string where = "goal selection: goal '" + g.name + "'";
    if (g.npc_class < 0 || g.npc_class >= domain.num_classes()) return bad(where + ": bad class");
    if (g.drive < 0 || g.drive >= static_cast<int32_t>(def.drives.size()))
      return bad(where + ": bad drive");
    if (auto e = weight(where, g.weight)) return *e;
    if (auto e = check(g.curve, where)) return *e;
    if (g.fact < 0 || g.fact >= num_facts) return bad(where + ": bad fact");
    if (g.targets.empty()) return bad(where + ": no targets");
    for (size_t i = 0; i < g.targets.size(); ++i) {
      const topoplan::Fact& t = g.targets[i];
      if (t.var < 0 || t.var >= m || t.value < 0 || t.value >= domain.domain_size(t.var))
        return bad(where + ": target out of range");
      for (size_t j = 0; j < i; ++j) {
        if (g.targets[j].var == t.var) return bad(where + ": two targets on one variable");
      }
    }
  }
  // Per class: Σ of drive weights (drives with goals for the class) and per drive Σ goal weights.
  const size_t num_classes = static_cast<size_t>(domain.num_classes());
  const size_t num_drives = def.drives.size();
  std::vector<double> drive_goal_w(num_classes * num_drives, 0.0);
  for (const CandidateGoal& g : def.goals) {
    drive_goal_w[static_cast<size_t>(g.npc_class) * num_drives + static_cast<size_t>(g.drive)] +=
        g.weight;
  }
  std::vector<double> class_drive_w(num_classes, 0.0);
  for (size_t c = 0; c < num_classes; ++c) {
    for (size_t d = 0; d < num_drives; ++d) {
      if (drive_goal_w[c * num_drives + d] > 0.0) class_drive_w[c] += def.drives[d].weight;
    }
  }
  s.factor_.resize(num_goals);
  for (size_t i = 0; i < num_goals; ++i) {
    const CandidateGoal& g = def.goals[i];
    const size_t c = static_cast<size_t>(g.npc_class);
    const size_t d = static_cast<size_t>(g.drive);
    s.factor_[i] =
        def.drives[d].weight / class_drive_w[c] * g.weight / drive_goal_w[c * num_drives + d];
  }
  s.class_offset_.assign(num_classes + 1, 0);
  for (const CandidateGoal& g : def.goals) ++s.class_offset_[static_cast<size_t>(g.npc_class) + 1];
  for (size_t c = 0; c < num_classes; ++c) s.class_offset_[c + 1] += s.class_offset_[c];
  s.class_goals_.resize(num_goals);
  std::vector<int32_t> fill(s.class_offset_.begin(), s.class_offset_.end() - 1);
  for (size_t i = 0; i < num_goals; ++i) {  // goal order kept within a class (ties)
    s.class_goals_[static_cast<size_t>(fill[static_cast<size_t>(def.goals[i].npc_class)]++)] =
        static_cast<int32_t>(i);
  }
  s.target_offset_.push_back(0);
  for (const CandidateGoal& g : def.goals) {
    s.targets_.insert(s.targets_.end(), g.targets.begin(), g.targets.end());
    s.target_offset_.push_back(static_cast<int32_t>(s.targets_.size()));
  }
  for (VarId v = 0; v < m; ++v) s.max_value_.push_back(domain.domain_size(v) - 1);
  s.def_ = std::move(def);
  return s;
}

ValueId GoalSelector::project(VarId v, float x) const {
  const VariableProjection& p = def_.projection[static_cast<size_t>(v)];
  ValueId value = 0;
  if (p.thresholds.empty()) {
    // Round half up and clamp, without std::nearbyint (a libm call that saves the FP state).
    const float hi = static_cast<float>(max_value_[static_cast<size_t>(v)]);
    const float r = x + 0.5f;
    value = r >= 1.0f
                ? (r < hi + 0.5f ? static_cast<ValueId>(r) : max_value_[static_cast<size_t>(v)])
                : 0;
  } else {
    for (double t : p.thresholds) value += static_cast<double>(x) >= t ? 1 : 0;
  }
  return value;
}

int32_t GoalSelector::choose(ClassId c, const float* facts, int64_t stride, const uint64_t* s0,
                             float* gain) const {
  int32_t best = -1;
  double best_gain = 0.0;
  for (int32_t k = class_offset_[static_cast<size_t>(c)];
       k < class_offset_[static_cast<size_t>(c) + 1]; ++k) {
    const int32_t g = class_goals_[static_cast<size_t>(k)];
    const CandidateGoal& goal = def_.goals[static_cast<size_t>(g)];
    bool holds = true;
    for (int32_t t = target_offset_[static_cast<size_t>(g)];
         t < target_offset_[static_cast<size_t>(g) + 1]; ++t) {
      const topoplan::Fact& f = targets_[static_cast<size_t>(t)];
      const CrowdLayout::Field& field = layout_.field(f.var);
      holds =
          holds && ((s0[field.word] >> field.shift) & field.mask) == static_cast<uint64_t>(f.value);
    }
    if (holds) continue;  // complete already: gain 0
    const SelectionFact& fact = def_.facts[static_cast<size_t>(goal.fact)];
    const double x = normalise(static_cast<double>(facts[goal.fact * stride]), fact.min, fact.max);
    const double completeness = evaluate(goal.curve, x);
    const double gn = factor_[static_cast<size_t>(g)] * (1.0 - completeness);
    if (gn > best_gain + 1e-12) {
      best_gain = gn;
      best = g;
    }
  }
  *gain = static_cast<float>(best_gain);
  return best;
}

void GoalSelector::select(const GoalSelectionBatch& batch, int64_t begin, int64_t end,
                          const GoalSelectionOutput& out) const {
  const int64_t n = static_cast<int64_t>(batch.npc_class.size());
  const int32_t words = layout_.words();
  const int32_t m = domain_->num_variables();
  assert(0 <= begin && begin <= end && end <= n);
  assert(static_cast<int64_t>(batch.facts.size()) == n * num_facts());
  assert(static_cast<int64_t>(out.goal.size()) == n && static_cast<int64_t>(out.gain.size()) == n);
  assert(static_cast<int64_t>(out.init.size()) == n * words);
  assert(static_cast<int64_t>(out.packed_goal.size()) == n * words);
  // Tiles of kTile NPCs: variable-major projection (each fact column read contiguously), then
  // the choice per NPC on its packed state.
  constexpr int64_t kTile = 64;
  for (int64_t tile = begin; tile < end; tile += kTile) {
    const int64_t tile_end = std::min(end, tile + kTile);
    std::fill(out.init.data() + tile * words, out.init.data() + tile_end * words, uint64_t{0});
    for (VarId v = 0; v < m; ++v) {
      const float* column = batch.facts.data() +
                            static_cast<int64_t>(def_.projection[static_cast<size_t>(v)].fact) * n;
      const CrowdLayout::Field& field = layout_.field(v);
      uint64_t* word = out.init.data() + field.word;
      for (int64_t i = tile; i < tile_end; ++i) {
        word[i * words] |= static_cast<uint64_t>(project(v, column[i])) << field.shift;
      }
    }
    for (int64_t i = tile; i < tile_end; ++i) {
      const float* facts = batch.facts.data() + i;
      const uint64_t* init = out.init.data() + i * words;
      uint64_t* goal = out.packed_goal.data() + i * words;
      const ClassId c = batch.npc_class[static_cast<size_t>(i)];
      assert(c >= 0 && c + 1 < static_cast<int32_t>(class_offset_.size()));
      float gain = 0.0f;
      const int32_t g = choose(c, facts, n, init, &gain);
      out.goal[static_cast<size_t>(i)] = g;
      out.gain[static_cast<size_t>(i)] = gain;
      std::copy(init, init + words, goal);
      if (g < 0) continue;
      for (int32_t t = target_offset_[static_cast<size_t>(g)];
           t < target_offset_[static_cast<size_t>(g) + 1]; ++t) {
        const topoplan::Fact& f = targets_[static_cast<size_t>(t)];
        const CrowdLayout::Field& field = layout_.field(f.var);
        goal[field.word] = (goal[field.word] & ~(field.mask << field.shift)) |
                           (static_cast<uint64_t>(f.value) << field.shift);
      }
    }
  }
}

int32_t GoalSelector::select_one(ClassId npc_class, std::span<const float> facts,
                                 std::span<ValueId> s0, std::span<ValueId> goal,
                                 double* gain) const {
  const int32_t m = domain_->num_variables();
  assert(static_cast<int32_t>(facts.size()) == num_facts());
  assert(static_cast<int32_t>(s0.size()) == m && static_cast<int32_t>(goal.size()) == m);
  for (VarId v = 0; v < m; ++v) {
    s0[static_cast<size_t>(v)] =
        project(v, facts[static_cast<size_t>(def_.projection[static_cast<size_t>(v)].fact)]);
  }
  std::vector<uint64_t> packed(static_cast<size_t>(layout_.words()));  // cold path
  layout_.pack_state(s0, packed.data());
  float g_gain = 0.0f;
  const int32_t g = choose(npc_class, facts.data(), 1, packed.data(), &g_gain);
  if (gain) *gain = g_gain;
  std::copy(s0.begin(), s0.end(), goal.begin());
  if (g >= 0) {
    for (const topoplan::Fact& f : def_.goals[static_cast<size_t>(g)].targets) {
      goal[static_cast<size_t>(f.var)] = f.value;
    }
  }
  return g;
}

GoalSelectionDef western_goal_selection(const Domain& w) {
  GoalSelectionDef def;
  for (VarId v = 0; v < w.num_variables(); ++v) {
    def.facts.push_back({w.variable_name(v), 0.0, static_cast<double>(w.domain_size(v) - 1)});
    def.projection.push_back({v, {}});
  }
  const auto drive = [&](const char* name, double weight) {
    def.drives.push_back({name, weight});
    return static_cast<int32_t>(def.drives.size() - 1);
  };
  const auto goal = [&](const char* name, const char* npc_class, int32_t d, double weight,
                        std::initializer_list<std::pair<const char*, const char*>> targets) {
    CandidateGoal g;
    g.name = name;
    const auto c = w.find_class(npc_class);
    assert(c.has_value());
    g.npc_class = c.value_or(0);
    g.drive = d;
    g.weight = weight;
    def.facts.push_back({std::string(name) + "_need", 0.0, 100.0});
    g.fact = static_cast<int32_t>(def.facts.size() - 1);
    g.curve = Curve::inverse_linear();  // need 0 → complete, 100 → not started
    for (const auto& [var, value] : targets) {
      const auto v = w.find_variable(var);
      assert(v.has_value());
      const auto x = w.find_value(v.value_or(0), value);
      assert(x.has_value());
      g.targets.push_back({v.value_or(0), x.value_or(0)});
    }
    def.goals.push_back(std::move(g));
  };
  const int32_t horses = drive("care_for_the_horses", 1.0);
  goal("feed_the_horses", "HorseBreeder", horses, 2.0,
       {{"haystack", "inFeeder"}, {"water", "inTrough"}});
  goal("water_the_horses", "HorseBreeder", horses, 1.0, {{"water", "inTrough"}});
  const int32_t smithing = drive("smithing", 1.0);
  goal("fire_up_the_forge", "Blacksmith", smithing, 1.0, {{"coal", "inForge"}, {"forge", "hot"}});
  goal("forge_a_horseshoe", "Blacksmith", smithing, 2.0, {{"horseshoe", "punched"}});
  const int32_t saloon = drive("run_the_saloon", 1.0);
  goal("serve_a_whiskey", "Bartender", saloon, 2.0, {{"glass", "served"}});
  goal("sweep_the_saloon", "Bartender", saloon, 1.0, {{"saloonFloor", "swept"}});
  const int32_t herd = drive("tend_the_herd", 1.0);
  goal("round_up_the_herd", "Rancher", herd, 2.0, {{"cattle", "inCorral"}, {"saddle", "onHorse"}});
  goal("saddle_up", "Rancher", herd, 1.0, {{"saddle", "onHorse"}, {"rider", "mounted"}});
  const int32_t trade = drive("trade", 2.0);
  const int32_t books = drive("bookkeeping", 1.0);
  goal("restock_the_store", "Shopkeeper", trade, 2.0,
       {{"crate", "unpacked"}, {"shelves", "stocked"}});
  goal("open_the_shop", "Shopkeeper", trade, 1.0, {{"shutters", "open"}});
  goal("balance_the_ledger", "Shopkeeper", books, 1.0, {{"ledger", "balanced"}});
  const int32_t law = drive("keep_the_law", 2.0);
  const int32_t safety = drive("stay_safe", 1.0);
  goal("bring_in_the_outlaw", "Sheriff", law, 1.0, {{"outlaw", "jailed"}});
  goal("arm_yourself", "Sheriff", safety, 1.0, {{"gunbelt", "worn"}, {"revolver", "loaded"}});
  const int32_t hunger = drive("eat", 1.0);
  goal("cook_breakfast", "Cook", hunger, 1.0, {{"eggs", "fried"}, {"stove", "burning"}});
  return def;
}

}  // namespace topoplan::udgoap

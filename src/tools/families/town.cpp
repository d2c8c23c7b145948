// Crowd towns (topoplan/tools/town.h): seeded NPC populations over any domain.
#include "topoplan/tools/town.h"

#include <algorithm>
#include <array>
#include <cassert>
#include <set>

#include "topoplan/runtime/limits.h"
#include "topoplan/runtime/validate.h"
#include "topoplan/tools/families.h"

namespace topoplan {

namespace {

Error error_of(std::string message) {
  return Error{std::move(message), {}, 0};
}

}  // namespace

void random_walk(const Domain& domain, std::vector<ValueId>& state, SplitMix64& rng, int32_t steps,
                 ClassId npc_class) {
  const std::span<const uint8_t> mask = domain.action_mask(npc_class);
  std::vector<ActionId> options;
  for (int32_t k = 0; k < steps; ++k) {
    options.clear();
    for (ActionId a = 0; a < domain.num_actions(); ++a)
      if (mask[static_cast<size_t>(a)] && applicable(domain, a, state)) options.push_back(a);
    if (options.empty()) return;
    const ActionId a =
        options[static_cast<size_t>(rng.below(static_cast<int32_t>(options.size())))];
    for (const Effect& e : domain.effects(a)) state[static_cast<size_t>(e.var)] = e.post;
  }
}

GoalTown make_goal_town(const Domain& domain, int64_t npcs, int32_t num_facts, uint64_t seed) {
  assert(npcs >= 1 && num_facts >= domain.num_variables() && domain.num_classes() >= 1);
  const auto n = static_cast<size_t>(npcs);
  GoalTown town;
  town.npc_class.resize(n);
  town.facts.assign(n * static_cast<size_t>(num_facts), 0.0f);
  SplitMix64 rng(seed);
  for (size_t i = 0; i < n; ++i) {
    town.npc_class[i] = static_cast<uint16_t>(rng.below(domain.num_classes()));
    for (int32_t k = domain.num_variables(); k < num_facts; ++k)
      town.facts[static_cast<size_t>(k) * n + i] = static_cast<float>(rng.below(101));
    if (rng.below(4) == 0) {  // one variable moved off dawn
      const VarId v = rng.below(domain.num_variables());
      town.facts[static_cast<size_t>(v) * n + i] =
          static_cast<float>(rng.below(domain.domain_size(v)));
    }
  }
  return town;
}

namespace {

// Share of the town per class (Western names); other classes get weight 1.
double western_weight(const std::string& name) {
  static const std::pair<const char*, double> kWeights[] = {
      {"Rancher", 30},   {"HorseBreeder", 15}, {"Cook", 15},  {"Shopkeeper", 15},
      {"Bartender", 10}, {"Blacksmith", 10},   {"Sheriff", 5}};
  for (const auto& [class_name, weight] : kWeights)
    if (name == class_name) return weight;
  return 1;
}

constexpr std::array<std::string_view, 3> kTownNames = {"western", "western-pus", "goap-level"};

}  // namespace

Result<CrowdTown> CrowdTown::create(const Task& task, const CrowdPlanner& planner,
                                    const TownDef& def) {
  // The table of limits (limits.h): the C API, Python and the CLI report the same words.
  if (auto e = check_limit(limits::kTownNpcs, def.npcs, "town")) return *e;
  if (auto e = check_limit(limits::kTownSituations, int64_t{def.situations_per_class}, "town"))
    return *e;
  if (auto e = check_limit(limits::kTownBackgrounds, int64_t{def.backgrounds}, "town")) return *e;
  if (!(def.errand_fraction >= 0 && def.errand_fraction <= 1))
    return error_of("town: errand_fraction must be in [0, 1]");
  const Domain& domain = task.domain;
  const CrowdLayout& layout = planner.layout();
  const int32_t classes = planner.num_classes();
  if (!def.class_weights.empty() && static_cast<int32_t>(def.class_weights.size()) != classes)
    return error_of("town: class_weights needs one weight per class (" + std::to_string(classes) +
                    ")");
  CrowdTown town;
  town.planner_ = &planner;
  town.words_ = layout.words();
  const auto words = static_cast<size_t>(town.words_);
  SplitMix64 rng(def.seed);

  double total = 0;
  for (int32_t c = 0; c < classes; ++c) {
    const double w = !def.class_weights.empty()
                         ? def.class_weights[static_cast<size_t>(c)]
                         : western_weight(domain.num_classes() ? domain.class_name(c) : "");
    if (!(w >= 0)) return error_of("town: class weights must be non-negative");
    total += w;
    town.class_cdf_.push_back(total);
  }
  if (!(total > 0)) return error_of("town: class weights sum to zero");
  for (double& x : town.class_cdf_) x /= total;

  const std::vector<ValueId> dawn(static_cast<size_t>(domain.num_variables()), 0);
  std::vector<uint64_t> packed(words);
  std::set<std::vector<uint64_t>> distinct;
  for (int32_t c = 0; c < classes; ++c) {
    std::vector<uint64_t> mask(words, 0);
    for (VarId v : planner.class_variables(c)) {
      const CrowdLayout::Field& f = layout.field(v);
      mask[static_cast<size_t>(f.word)] |= f.mask << f.shift;
    }
    const ClassId domain_class = domain.num_classes() ? c : kAllActions;
    std::vector<const Instance*> routines;
    for (const Instance& inst : task.instances)
      if (inst.npc_class == domain_class) routines.push_back(&inst);
    const auto pick = [&]() -> const Instance& {
      return *routines[static_cast<size_t>(rng.below(static_cast<int32_t>(routines.size())))];
    };
    std::vector<uint64_t> inits, goals;
    for (int32_t k = 0; k < def.situations_per_class; ++k) {
      // A routine, some steps into it; the routine's goal, or an errand nearby.
      std::vector<ValueId> s0 = routines.empty() ? dawn : pick().init;
      std::vector<ValueId> goal = routines.empty() ? dawn : pick().goal;
      random_walk(domain, s0, rng, rng.below(7), domain_class);
      if (routines.empty() || rng.unit() < def.errand_fraction) {
        goal = s0;
        random_walk(domain, goal, rng, 1 + rng.below(8), domain_class);
      }
      std::vector<uint64_t> key{static_cast<uint64_t>(c)};
      layout.pack_state(s0, packed.data());
      for (size_t w = 0; w < words; ++w) inits.push_back(packed[w] & mask[w]);
      key.insert(key.end(), inits.end() - static_cast<ptrdiff_t>(words), inits.end());
      layout.pack_goal(goal, packed.data());
      for (size_t w = 0; w < words; ++w) goals.push_back(packed[w] & mask[w]);
      key.insert(key.end(), goals.end() - static_cast<ptrdiff_t>(words), goals.end());
      distinct.insert(std::move(key));
    }
    town.situation_init_.push_back(std::move(inits));
    town.situation_goal_.push_back(std::move(goals));
    // A partial goal's rest: every field outside the class's all ones (free).
    std::vector<uint64_t> free_rest(words, 0);
    for (VarId v = 0; v < domain.num_variables(); ++v) {
      const CrowdLayout::Field& f = layout.field(v);
      free_rest[static_cast<size_t>(f.word)] |= f.mask << f.shift;
    }
    for (size_t w = 0; w < words; ++w) free_rest[w] &= ~mask[w];
    town.free_rest_.push_back(std::move(free_rest));
    town.class_mask_.push_back(std::move(mask));
  }
  town.partial_goals_ = def.partial_goals;
  town.distinct_ = static_cast<int64_t>(distinct.size());
  for (int32_t k = 0; k < def.backgrounds; ++k) {  // the rest of the town, somewhere in its day
    std::vector<ValueId> state = dawn;
    random_walk(domain, state, rng, rng.below(40), kAllActions);
    layout.pack_state(state, packed.data());
    town.backgrounds_.insert(town.backgrounds_.end(), packed.begin(), packed.end());
  }
  const auto n = static_cast<size_t>(def.npcs);
  town.npc_class_.resize(n);
  town.init_.resize(n * words);
  town.goal_.resize(n * words);
  for (int64_t i = 0; i < def.npcs; ++i) town.reassign(i, rng);
  return town;
}

void CrowdTown::reassign(int64_t npc, SplitMix64& rng) {
  const auto classes = static_cast<int32_t>(class_cdf_.size());
  const auto drawn = static_cast<int32_t>(
      std::lower_bound(class_cdf_.begin(), class_cdf_.end(), rng.unit()) - class_cdf_.begin());
  const auto c = static_cast<size_t>(std::min(drawn, classes - 1));
  const auto words = static_cast<size_t>(words_);
  const size_t situation =
      static_cast<size_t>(rng.below(static_cast<int32_t>(situation_init_[c].size() / words)));
  const size_t background =
      static_cast<size_t>(rng.below(static_cast<int32_t>(backgrounds_.size() / words)));
  const auto i = static_cast<size_t>(npc);
  npc_class_[i] = static_cast<uint16_t>(c);
  for (size_t k = 0; k < words; ++k) {
    const uint64_t rest = backgrounds_[background * words + k] & ~class_mask_[c][k];
    init_[i * words + k] = rest | situation_init_[c][situation * words + k];
    goal_[i * words + k] =
        (partial_goals_ ? free_rest_[c][k] : rest) | situation_goal_[c][situation * words + k];
  }
}

std::span<const std::string_view> town_names() {
  return kTownNames;
}

GoapLevelParams goap_level_town_params() {
  GoapLevelParams params{
      .locations = 12, .items = 3, .doors = 2, .needs = 2, .classes = 3, .instances = 12};
  return params;
}

Result<Task> town_task(std::string_view name) {
  if (name == "western") return western();
  if (name == "western-pus") return western_pus();
  if (name == "goap-level") return goap_level(goap_level_town_params());
  std::string known;
  for (std::string_view n : kTownNames) known += (known.empty() ? "" : ", ") + std::string(n);
  return error_of("unknown town '" + std::string(name) + "' (built-in towns: " + known + ")");
}

}  // namespace topoplan

#include "town.h"

#include <algorithm>
#include <string>

#include "topoplan/validate.h"

namespace topoplan::wasm {
namespace {

void random_walk(const Domain& d, std::vector<ValueId>& state, Rng& rng, int32_t steps, ClassId c) {
  const std::span<const uint8_t> mask = d.action_mask(c);
  std::vector<ActionId> options;
  for (int32_t k = 0; k < steps; ++k) {
    options.clear();
    for (ActionId a = 0; a < d.num_actions(); ++a)
      if (mask[static_cast<size_t>(a)] && applicable(d, a, state)) options.push_back(a);
    if (options.empty()) return;
    const ActionId a =
        options[static_cast<size_t>(rng.below(static_cast<int32_t>(options.size())))];
    for (const Effect& e : d.effects(a)) state[static_cast<size_t>(e.var)] = e.post;
  }
}

// Share of the town per class (Western names); other classes get weight 1.
double class_weight(const std::string& name) {
  static const std::pair<const char*, double> kWeights[] = {
      {"Rancher", 30},   {"HorseBreeder", 15}, {"Cook", 15},  {"Shopkeeper", 15},
      {"Bartender", 10}, {"Blacksmith", 10},   {"Sheriff", 5}};
  for (const auto& [n, w] : kWeights)
    if (name == n) return w;
  return 1;
}

}  // namespace

void Town::assign(int64_t i, Rng& rng) {
  const double u = rng.unit();
  const auto c = static_cast<int32_t>(std::lower_bound(class_cdf.begin(), class_cdf.end(), u) -
                                      class_cdf.begin());
  const int32_t cls = std::min<int32_t>(c, static_cast<int32_t>(class_cdf.size()) - 1);
  const auto pool =
      static_cast<int32_t>(sit_init[static_cast<size_t>(cls)].size() / static_cast<size_t>(words));
  const int32_t s = rng.below(pool);
  const int32_t b = rng.below(static_cast<int32_t>(background.size() / static_cast<size_t>(words)));
  npc_class[static_cast<size_t>(i)] = static_cast<uint16_t>(cls);
  for (int32_t k = 0; k < words; ++k) {
    const uint64_t m = class_mask[static_cast<size_t>(cls)][static_cast<size_t>(k)];
    const uint64_t bg = background[static_cast<size_t>(b * words + k)] & ~m;
    init[static_cast<size_t>(i * words + k)] =
        bg | sit_init[static_cast<size_t>(cls)][static_cast<size_t>(s * words + k)];
    goal[static_cast<size_t>(i * words + k)] =
        bg | sit_goal[static_cast<size_t>(cls)][static_cast<size_t>(s * words + k)];
  }
}

Town build_town(const Task& task, const CrowdPlanner& planner, int64_t npcs,
                int32_t situations_per_class, Rng& rng) {
  const Domain& d = task.domain;
  const CrowdLayout& layout = planner.layout();
  Town t;
  t.words = layout.words();
  const auto words = static_cast<size_t>(t.words);
  const int32_t classes = planner.num_classes();
  double total = 0;
  for (int32_t c = 0; c < classes; ++c) {
    total += class_weight(d.num_classes() ? d.class_name(c) : "");
    t.class_cdf.push_back(total);
  }
  for (double& x : t.class_cdf) x /= total;
  const std::vector<ValueId> dawn(static_cast<size_t>(d.num_variables()), 0);
  std::vector<uint64_t> packed(words);
  for (int32_t c = 0; c < classes; ++c) {
    std::vector<uint64_t> mask(words, 0);
    for (VarId v : planner.class_variables(c)) {
      const CrowdLayout::Field& f = layout.field(v);
      mask[static_cast<size_t>(f.word)] |= f.mask << f.shift;
    }
    const ClassId dc = d.num_classes() ? c : kAllActions;
    std::vector<const Instance*> routines;
    for (const Instance& inst : task.instances)
      if (inst.npc_class == dc) routines.push_back(&inst);
    std::vector<uint64_t> si, sg;
    for (int32_t k = 0; k < situations_per_class; ++k) {
      // A routine, some steps into it; the routine's goal, or (15 %) an errand nearby.
      std::vector<ValueId> s0 =
          routines.empty()
              ? dawn
              : routines[static_cast<size_t>(rng.below(static_cast<int32_t>(routines.size())))]
                    ->init;
      std::vector<ValueId> g =
          routines.empty()
              ? dawn
              : routines[static_cast<size_t>(rng.below(static_cast<int32_t>(routines.size())))]
                    ->goal;
      random_walk(d, s0, rng, rng.below(7), dc);
      if (routines.empty() || rng.unit() < 0.15) {
        g = s0;
        random_walk(d, g, rng, 1 + rng.below(8), dc);
      }
      layout.pack_state(s0, packed.data());
      for (size_t w = 0; w < words; ++w) si.push_back(packed[w] & mask[w]);
      layout.pack_goal(g, packed.data());
      for (size_t w = 0; w < words; ++w) sg.push_back(packed[w] & mask[w]);
    }
    t.sit_init.push_back(std::move(si));
    t.sit_goal.push_back(std::move(sg));
    t.class_mask.push_back(std::move(mask));
  }
  for (int32_t k = 0; k < 256; ++k) {  // the rest of the town, somewhere in its day
    std::vector<ValueId> s = dawn;
    random_walk(d, s, rng, rng.below(40), kAllActions);
    layout.pack_state(s, packed.data());
    t.background.insert(t.background.end(), packed.begin(), packed.end());
  }
  t.npc_class.resize(static_cast<size_t>(npcs));
  t.init.resize(static_cast<size_t>(npcs) * words);
  t.goal.resize(static_cast<size_t>(npcs) * words);
  for (int64_t i = 0; i < npcs; ++i) t.assign(i, rng);
  return t;
}

}  // namespace topoplan::wasm

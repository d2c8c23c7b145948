// MultiPrv_n, MultiPrv_n_Cycle, MultiPrv_2_Cycle and OnePrv_5 (see
// include/topoplan/tools/families.h).
#include <array>
#include <cassert>
#include <string>
#include <utility>

#include "topoplan/tools/families.h"

namespace topoplan {

namespace {

Task compile_task(const DomainDef& def, Instance instance) {
  auto domain = Domain::compile(def);
  assert(domain.ok());
  Task task{std::move(domain).value(), {}};
  task.instances.push_back(std::move(instance));
  return task;
}

VariableDef numbered_variable(int32_t i, int32_t n) {
  VariableDef v;
  v.name = "v" + std::to_string(i);
  for (int32_t x = 0; x < n; ++x) v.values.push_back(std::to_string(x));
  return v;
}

}  // namespace

Task multiprv_n_cycle(int32_t m, int32_t n) {
  assert(m >= 1 && n >= 2 && int64_t{m} * n <= kMaxActions);
  DomainDef def;
  def.name = "multiprv-" + std::to_string(n) + "-cycle-m" + std::to_string(m);
  for (int32_t i = 0; i < m; ++i) def.variables.push_back(numbered_variable(i, n));
  def.actions.reserve(static_cast<size_t>(m) * static_cast<size_t>(n));
  for (int32_t i = 0; i < m; ++i) {
    for (int32_t p = 0; p < n; ++p) {
      ActionDef a;
      a.name = "set-v" + std::to_string(i) + "-" + std::to_string(p);
      a.effects.push_back(Effect{i, p == 0 ? n - 1 : p - 1, p});
      for (int32_t j = i + 1; j < m; ++j) a.prevail.push_back(Fact{j, n / 2});
      def.actions.push_back(std::move(a));
    }
  }
  Instance inst;
  inst.name = "v0-to-" + std::to_string(n - 1);
  inst.init.assign(static_cast<size_t>(m), 0);
  inst.goal.assign(static_cast<size_t>(m), 0);
  inst.goal[0] = n - 1;
  return compile_task(def, std::move(inst));
}

Task multiprv_n(int32_t m, int32_t n) {
  assert(m >= 1 && n >= 2 && int64_t{m} * (n - 1) <= kMaxActions);
  DomainDef def;
  def.name = "multiprv-" + std::to_string(n) + "-m" + std::to_string(m);
  for (int32_t i = 0; i < m; ++i) def.variables.push_back(numbered_variable(i, n));
  def.actions.reserve(static_cast<size_t>(m) * static_cast<size_t>(n - 1));
  for (int32_t i = 0; i < m; ++i) {
    for (int32_t p = 1; p < n; ++p) {
      ActionDef a;
      a.name = "set-v" + std::to_string(i) + "-" + std::to_string(p);
      a.effects.push_back(Effect{i, p - 1, p});
      for (int32_t j = i + 1; j < m; ++j) a.prevail.push_back(Fact{j, 1});
      def.actions.push_back(std::move(a));
    }
  }
  Instance inst;
  inst.name = "all-to-" + std::to_string(n - 1);
  inst.init.assign(static_cast<size_t>(m), 0);
  inst.goal.assign(static_cast<size_t>(m), n - 1);
  return compile_task(def, std::move(inst));
}

Task multiprv_2_cycle(int32_t m) {
  return multiprv_n_cycle(m, 2);
}

Task oneprv_5(int32_t m) {
  assert(m >= 1);
  constexpr int32_t kValues = 5;
  DomainDef def;
  def.name = "oneprv-5-m" + std::to_string(m);
  for (int32_t i = 0; i < m; ++i) def.variables.push_back(numbered_variable(i, kValues));
  for (int32_t i = 0; i < m; ++i) {
    for (int32_t p = 1; p < kValues; ++p) {
      ActionDef a;
      a.name = "set-v" + std::to_string(i) + "-" + std::to_string(p);
      a.effects.push_back(Effect{i, p - 1, p});
      if (i + 1 < m) a.prevail.push_back(Fact{i + 1, kValues / 2});
      def.actions.push_back(std::move(a));
    }
  }
  Instance inst;
  inst.name = "all-to-4";
  inst.init.assign(static_cast<size_t>(m), 0);
  inst.goal.assign(static_cast<size_t>(m), kValues - 1);
  return compile_task(def, std::move(inst));
}

std::span<const FamilyInfo> families() {
  static constexpr std::array kFamilies = {
      FamilyInfo{"multiprv-n", "MultiPrv_n (acyclic): m fixed, time vs n (Figure 1, SAS)"},
      FamilyInfo{"multiprv-n-cycle", "MultiPrv_n_Cycle: m fixed, time vs n (Figure 1)"},
      FamilyInfo{"multiprv-2-cycle", "MultiPrv_2_Cycle (the tunnel): time vs m (Figure 2)"},
      FamilyInfo{"oneprv-5", "OnePrv_5: time vs m (Figure 2)"},
      FamilyInfo{"western", "Western, 29 variables, 7 NPC classes: time vs NPCs (Figure 3)"},
      FamilyInfo{"western-pus", "Western-PUS, 19 binary variables: time vs NPCs (Figure 3)"},
  };
  return kFamilies;
}

}  // namespace topoplan

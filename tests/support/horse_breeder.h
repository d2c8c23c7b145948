// The Horse Breeder domains of the papers, built in code for tests that must not depend on the
// file readers. Value ids follow the tables: v0 haystack, v1 bucket, v2 water.
#pragma once

#include <vector>

#include "topoplan/runtime/domain.h"

namespace topoplan::testing {

// Prévost et al. 2023 (IJCAI), Table 1. Action ids a1..a7 of the paper are 0..6 here.
inline DomainDef horse_breeder_000_def() {
  DomainDef d;
  d.name = "horse-breeder";
  d.variables = {{"haystack", {"none", "inHands", "inFeeder"}},
                 {"bucket", {"none", "inHands"}},
                 {"water", {"inSource", "inBucket", "inTrough"}}};
  d.actions = {
      {"DropHaystack", 1, {{0, 1, 0}}, {}},
      {"TakeHaystack", 1, {{0, 0, 1}}, {{1, 0}}},
      {"FillHorseFeeder", 1, {{0, 1, 2}}, {}},
      {"DropBucket", 1, {{1, 1, 0}}, {}},
      {"PickUpBucket", 1, {{1, 0, 1}}, {{0, 0}}},
      {"FillBucketWithWater", 1, {{2, 0, 1}}, {{1, 1}}},
      {"FillHorseTrough", 1, {{2, 1, 2}}, {{1, 1}}},
  };
  return d;
}

// Prévost et al., SAS as Topological Sorting Table 1 (different prevail-conditions).
inline DomainDef horse_breeder_003_def() {
  DomainDef d;
  d.name = "horse-breeder-003";
  d.variables = {{"haystack", {"stored", "inHands", "inFeeder"}},
                 {"bucket", {"onFloor", "inHands"}},
                 {"water", {"inFountain", "inBucket", "inTrough"}}};
  d.actions = {
      {"StoreHaystack", 1, {{0, 1, 0}}, {{1, 0}}},
      {"TakeHaystack", 1, {{0, 0, 1}}, {{1, 0}}},
      {"FillHorseFeeder", 1, {{0, 1, 2}}, {{1, 0}}},
      {"DropBucket", 1, {{1, 1, 0}}, {{0, 0}}},
      {"PickUpBucket", 1, {{1, 0, 1}}, {{0, 0}}},
      {"FillBucketWithWater", 1, {{2, 0, 1}}, {{1, 1}}},
      {"FillHorseTrough", 1, {{2, 1, 2}}, {{1, 1}}},
  };
  return d;
}

// Every total state of the Horse Breeder variables (3 × 2 × 3), for tests over every pair.
inline std::vector<std::vector<ValueId>> horse_breeder_states() {
  std::vector<std::vector<ValueId>> states;
  for (ValueId x = 0; x < 3; ++x)
    for (ValueId y = 0; y < 2; ++y)
      for (ValueId z = 0; z < 3; ++z) states.push_back({x, y, z});
  return states;
}

inline Instance make_instance(std::vector<ValueId> init, std::vector<ValueId> goal,
                              ClassId npc_class = kAllActions) {
  Instance i;
  i.init = std::move(init);
  i.goal = std::move(goal);
  i.npc_class = npc_class;
  return i;
}

}  // namespace topoplan::testing

// Class analysis on hand-made domains: both Horse Breeder tables, one domain per class and per
// failure, and every decision docs/classes.md takes where the papers are silent.
#include "topoplan/runtime/analysis.h"

#include <gtest/gtest.h>

#include <algorithm>

#include "../support/horse_breeder.h"
#include "compile.h"

namespace topoplan {
namespace {

using A = std::vector<ActionId>;
using E = std::vector<ActionEdge>;

using testing::compile_or_die;

// Variables named v0.., values 0..size-1 named "0", "1", ...
DomainDef vars(std::initializer_list<int> sizes) {
  DomainDef d;
  d.name = "t";
  int i = 0;
  for (int s : sizes) {
    VariableDef v;
    v.name = "v" + std::to_string(i++);
    for (int x = 0; x < s; ++x) v.values.push_back(std::to_string(x));
    d.variables.push_back(v);
  }
  return d;
}

void act(DomainDef& d, const std::string& name, VarId v, ValueId pre, ValueId post,
         std::vector<Fact> prv = {}) {
  d.actions.push_back({name, 1, {{v, pre, post}}, std::move(prv)});
}

// Predecessor sets N_pre / N_prv of Table 2 (Prévost et al. 2023) from the report's edges.
// References: docs/references.md.
A preds(const std::vector<ActionEdge>& edges, ActionId to) {
  A out;
  for (const ActionEdge& e : edges)
    if (e.to == to) out.push_back(e.from);
  return out;
}

TEST(Analysis, ToString) {
  EXPECT_EQ(to_string(StructuralClass::kC0), "C0");
  EXPECT_EQ(to_string(StructuralClass::kC2S), "C2S");
  EXPECT_EQ(to_string(StructuralClass::kC2Star), "C2*");
  EXPECT_EQ(to_string(StructuralClass::kNone), "none");
}

TEST(Analysis, HorseBreeder000IsC2StarNotC2S) {
  const Domain d = compile_or_die(testing::horse_breeder_000_def());
  const ClassReport r = analyze(d);
  EXPECT_EQ(r.num_analysed, 7);
  EXPECT_TRUE(r.unary);
  EXPECT_TRUE(r.post_unique);
  EXPECT_TRUE(r.pre_defined);
  // Bucket is required in hands (FillBucketWithWater) and on the floor (TakeHaystack).
  EXPECT_FALSE(r.single_valued);
  ASSERT_EQ(r.prevail_conflicts.size(), 1u);
  EXPECT_EQ(r.prevail_conflicts[0].var, 1);
  EXPECT_EQ(r.prevail_conflicts[0].values, (std::vector<ValueId>{0, 1}));
  EXPECT_EQ(r.prevail_conflicts[0].witnesses, (A{1, 5}));

  // Def 2: Cycle(v0) = {a1, a2}, Cycle(v1) = {a4, a5}, Cycle(v2) = ∅ (ids are paper ids - 1).
  ASSERT_EQ(r.variables.size(), 3u);
  ASSERT_EQ(r.variables[0].cycles.size(), 1u);
  EXPECT_EQ(r.variables[0].cycles[0].actions, (A{0, 1}));
  ASSERT_EQ(r.variables[1].cycles.size(), 1u);
  EXPECT_EQ(r.variables[1].cycles[0].actions, (A{3, 4}));
  EXPECT_TRUE(r.variables[2].cycles.empty());
  // Def 3: Req = {a1, a4, a5}.
  EXPECT_EQ(r.requestable, (A{0, 3, 4}));
  EXPECT_EQ(r.variables[0].requestable, (A{0}));
  EXPECT_EQ(r.variables[1].requestable, (A{3, 4}));
  EXPECT_EQ(r.variables[0].cycles[0].requestable, (A{0}));
  EXPECT_EQ(r.variables[1].cycles[0].requestable, (A{3, 4}));
  // Water = inSource is set by no action: the ghost of v2.
  EXPECT_EQ(r.variables[2].ghost_values, (std::vector<ValueId>{0}));
  EXPECT_TRUE(r.variables[0].ghost_values.empty());
  for (const VariableReport& v : r.variables) EXPECT_EQ(v.components, 1);

  // Table 2: N_pre and N_prv.
  const std::vector<A> npre = {{1}, {0}, {1}, {4}, {3}, {}, {5}};
  const std::vector<A> nprv = {{}, {3}, {}, {}, {0}, {4}, {4}};
  for (ActionId a = 0; a < 7; ++a) {
    EXPECT_EQ(preds(r.pre_edges, a), npre[static_cast<size_t>(a)]) << "N_pre of a" << a + 1;
    EXPECT_EQ(preds(r.prv_edges, a), nprv[static_cast<size_t>(a)]) << "N_prv of a" << a + 1;
  }
  EXPECT_EQ(r.prv_edges, (E{{0, 4}, {3, 1}, {4, 5}, {4, 6}}));
  EXPECT_EQ(r.pre_edges, (E{{0, 1}, {1, 0}, {1, 2}, {3, 4}, {4, 3}, {5, 6}}));

  EXPECT_EQ(r.structural_class, StructuralClass::kC2Star);
  EXPECT_NE(r.why_not.find("bucket"), std::string::npos) << r.why_not;
  EXPECT_NE(r.why_not.find("both actions"), std::string::npos) << r.why_not;
  EXPECT_EQ(std::count_if(r.violations.begin(), r.violations.end(),
                          [](const ClassViolation& v) {
                            return v.kind == ClassViolation::Kind::kRelatedRequesters;
                          }),
            0);
}

// The table of Prévost et al., SAS as Topological Sorting: every haystack action needs the bucket
// on the floor and both bucket actions need the haystack stored. Req = {StoreHaystack, DropBucket,
// PickUpBucket}; the bucket cycle has two requestable actions whose requesters ({the three haystack
// actions} and {the two water actions}) fall apart once G(bucket) is removed: C2*, like the table
// of Prévost et al. 2023.
TEST(Analysis, HorseBreeder003IsC2Star) {
  const Domain d = compile_or_die(testing::horse_breeder_003_def());
  const ClassReport r = analyze(d);
  EXPECT_TRUE(r.unary);
  EXPECT_TRUE(r.post_unique);
  EXPECT_FALSE(r.single_valued);
  EXPECT_EQ(r.requestable, (A{0, 3, 4}));
  EXPECT_EQ(r.variables[0].cycles[0].actions, (A{0, 1}));
  EXPECT_EQ(r.variables[0].cycles[0].requestable, (A{0}));
  EXPECT_EQ(r.variables[1].cycles[0].requestable, (A{3, 4}));
  EXPECT_EQ(r.prv_edges, (E{{0, 3}, {0, 4}, {3, 0}, {3, 1}, {3, 2}, {4, 5}, {4, 6}}));
  EXPECT_EQ(r.structural_class, StructuralClass::kC2Star);
}

TEST(Analysis, LongCycleWithoutRequestableIsC0) {
  DomainDef def = vars({3, 2});
  act(def, "a", 0, 0, 1);
  act(def, "b", 0, 1, 2);
  act(def, "c", 0, 2, 0);
  act(def, "d", 1, 0, 1);
  const ClassReport r = analyze(compile_or_die(def));
  ASSERT_EQ(r.variables[0].cycles.size(), 1u);
  EXPECT_EQ(r.variables[0].cycles[0].actions, (A{0, 1, 2}));
  EXPECT_TRUE(r.requestable.empty());
  EXPECT_EQ(r.structural_class, StructuralClass::kC0);
  EXPECT_TRUE(r.why_not.empty());
  EXPECT_TRUE(r.violations.empty());
}

TEST(Analysis, LongCycleWithRequestableIsNone) {
  DomainDef def = vars({3, 2});
  act(def, "a", 0, 0, 1);
  act(def, "b", 0, 1, 2);
  act(def, "c", 0, 2, 0);
  act(def, "d", 1, 0, 1, {{0, 2}});  // requests b
  const ClassReport r = analyze(compile_or_die(def));
  EXPECT_EQ(r.requestable, (A{1}));
  EXPECT_EQ(r.on_cycle, (std::vector<uint8_t>{1, 1, 1, 0}));
  EXPECT_EQ(r.structural_class, StructuralClass::kNone);
  ASSERT_EQ(r.violations.size(), 1u);
  EXPECT_EQ(r.violations[0].kind, ClassViolation::Kind::kLongCycle);
  EXPECT_EQ(r.violations[0].cycle, (A{0, 1, 2}));
  EXPECT_NE(r.why_not.find("3 actions"), std::string::npos) << r.why_not;
}

TEST(Analysis, TreeAndAcyclicRequestsAreC0) {
  DomainDef def = vars({3, 2});
  act(def, "a", 0, 0, 1);
  act(def, "b", 0, 1, 2);
  act(def, "c", 1, 0, 1, {{0, 2}});
  act(def, "d", 1, 1, 0, {{0, 1}});  // 2-cycle on v1, nobody requests v1
  const ClassReport r = analyze(compile_or_die(def));
  EXPECT_FALSE(r.single_valued);
  EXPECT_EQ(r.requestable, (A{0, 1}));
  EXPECT_EQ(r.variables[1].cycles.size(), 1u);
  EXPECT_EQ(r.structural_class, StructuralClass::kC0);
}

TEST(Analysis, TwoCycleWithOneRequestableIsC2S) {
  DomainDef def = vars({2, 2});
  act(def, "on", 0, 0, 1);
  act(def, "off", 0, 1, 0);
  act(def, "use", 1, 0, 1, {{0, 1}});
  const ClassReport r = analyze(compile_or_die(def));
  EXPECT_TRUE(r.single_valued);
  EXPECT_EQ(r.structural_class, StructuralClass::kC2S);
  ASSERT_EQ(r.violations.size(), 1u);
  EXPECT_EQ(r.violations[0].kind, ClassViolation::Kind::kRequestableCycle);
  EXPECT_NE(r.why_not.find("{on}"), std::string::npos) << r.why_not;
}

// On/Off with requesters of "on" and of "off" that are tied together through a third action:
// not C2* (Def 7). Without the tie, C2*.
TEST(Analysis, RelatedRequestersAreNone) {
  DomainDef def = vars({2, 2, 2, 2});
  act(def, "on", 0, 0, 1);
  act(def, "off", 0, 1, 0);
  act(def, "x", 1, 0, 1, {{0, 1}});  // requests on
  act(def, "y", 2, 0, 1, {{0, 0}});  // requests off
  {
    const ClassReport r = analyze(compile_or_die(def));
    EXPECT_EQ(r.structural_class, StructuralClass::kC2Star) << r.why_not;
  }
  act(def, "z", 3, 0, 1, {{1, 1}, {2, 1}});  // x → z ← y in E_prv
  const ClassReport r = analyze(compile_or_die(def));
  EXPECT_EQ(r.structural_class, StructuralClass::kNone);
  const auto it = std::find_if(r.violations.begin(), r.violations.end(), [](const auto& v) {
    return v.kind == ClassViolation::Kind::kRelatedRequesters;
  });
  ASSERT_NE(it, r.violations.end());
  EXPECT_EQ(it->var, 0);
  EXPECT_EQ(it->cycle, (A{0, 1}));
  EXPECT_EQ(it->requester_plus, 2);   // x requests cycle[0] = "on"
  EXPECT_EQ(it->requester_minus, 3);  // y requests cycle[1] = "off"
  EXPECT_NE(r.why_not.find("related"), std::string::npos) << r.why_not;
}

// "Related" is weak connectivity: a path in either direction, or through a common successor or
// predecessor, counts. Here x and y only share a predecessor w (w's post is required by both).
TEST(Analysis, RelatedThroughCommonPredecessor) {
  DomainDef def = vars({2, 2, 2, 2});
  act(def, "on", 0, 0, 1);
  act(def, "off", 0, 1, 0);
  act(def, "x", 1, 0, 1, {{0, 1}, {3, 1}});
  act(def, "y", 2, 0, 1, {{0, 0}, {3, 1}});
  act(def, "w", 3, 0, 1);
  const ClassReport r = analyze(compile_or_die(def));
  EXPECT_EQ(r.structural_class, StructuralClass::kNone) << r.why_not;
}

// The requesters are related through an E_pre chain of another variable.
TEST(Analysis, RelatedThroughPreChain) {
  DomainDef def = vars({2, 3});
  act(def, "on", 0, 0, 1);
  act(def, "off", 0, 1, 0);
  act(def, "x", 1, 0, 1, {{0, 1}});
  act(def, "y", 1, 1, 2, {{0, 0}});
  const ClassReport r = analyze(compile_or_die(def));
  EXPECT_EQ(r.structural_class, StructuralClass::kNone) << r.why_not;
}

TEST(Analysis, NonUnaryIsNoneWithOffenders) {
  DomainDef def = vars({2, 2});
  act(def, "a", 0, 0, 1);
  def.actions.push_back({"both", 1, {{0, 1, 0}, {1, 0, 1}}, {}});
  const ClassReport r = analyze(compile_or_die(def));
  EXPECT_FALSE(r.unary);
  EXPECT_EQ(r.non_unary, (A{1}));
  EXPECT_EQ(r.structural_class, StructuralClass::kNone);
  EXPECT_NE(r.why_not.find("not unary"), std::string::npos);
  // Best effort: the graphs still include the action on both variables.
  EXPECT_EQ(r.variables[0].actions, (A{0, 1}));
  EXPECT_EQ(r.variables[1].actions, (A{1}));
  EXPECT_EQ(r.variables[0].cycles.size(), 1u);
}

TEST(Analysis, NonPostUniqueWithOffenders) {
  DomainDef def = vars({3, 2});
  act(def, "a", 0, 0, 1);
  act(def, "b", 0, 2, 1);
  act(def, "c", 0, 1, 2);
  act(def, "d", 1, 0, 1);
  act(def, "e", 1, 0, 1);
  const ClassReport r = analyze(compile_or_die(def));
  EXPECT_FALSE(r.post_unique);
  ASSERT_EQ(r.post_conflicts.size(), 2u);
  EXPECT_EQ(r.post_conflicts[0].var, 0);
  EXPECT_EQ(r.post_conflicts[0].post, 1);
  EXPECT_EQ(r.post_conflicts[0].actions, (A{0, 1}));
  EXPECT_EQ(r.post_conflicts[1].var, 1);
  EXPECT_EQ(r.post_conflicts[1].actions, (A{3, 4}));
  EXPECT_EQ(r.structural_class, StructuralClass::kNone);
  EXPECT_NE(r.why_not.find("not post-unique"), std::string::npos);
}

// Prévost et al. 2023 §1: post-uniqueness is contextual. Two actions setting v0 = 1 may coexist as
// long as no NPC class holds both.
TEST(Analysis, ContextualPostUniquenessThroughClasses) {
  DomainDef def = vars({2, 2});
  act(def, "walk", 0, 0, 1);
  act(def, "ride", 0, 0, 1);
  act(def, "back", 0, 1, 0);
  act(def, "work", 1, 0, 1, {{0, 1}});
  def.classes = {{"walker", {0, 2, 3}}, {"rider", {1, 2, 3}}};
  const Domain d = compile_or_die(def);
  const ClassReport all = analyze(d);
  EXPECT_FALSE(all.post_unique);
  EXPECT_EQ(all.structural_class, StructuralClass::kNone);
  for (ClassId c = 0; c < 2; ++c) {
    const ClassReport r = analyze(d, c);
    EXPECT_EQ(r.npc_class, c);
    EXPECT_EQ(r.num_analysed, 3);
    EXPECT_TRUE(r.post_unique);
    EXPECT_EQ(r.structural_class, StructuralClass::kC2S) << r.why_not;
    EXPECT_EQ(r.analysed[static_cast<size_t>(1 - c)], 0);
  }
  // The mask variant agrees with the class variant.
  const std::vector<uint8_t> mask = {0, 1, 1, 1};
  const ClassReport m = analyze(d, std::span<const uint8_t>(mask));
  EXPECT_EQ(m.npc_class, kAllActions);
  EXPECT_TRUE(m.post_unique);
  EXPECT_EQ(m.requestable, analyze(d, 1).requestable);
  EXPECT_EQ(m.prv_edges, analyze(d, 1).prv_edges);
  EXPECT_EQ(m.structural_class, StructuralClass::kC2S);
}

TEST(Analysis, NonSingleValuedOffenders) {
  DomainDef def = vars({3, 2, 2, 2});
  act(def, "a", 1, 0, 1, {{0, 2}});
  act(def, "b", 2, 0, 1, {{0, 0}});
  act(def, "c", 3, 0, 1, {{0, 2}});
  act(def, "d", 3, 1, 0, {{0, 1}});
  const ClassReport r = analyze(compile_or_die(def));
  EXPECT_FALSE(r.single_valued);
  ASSERT_EQ(r.prevail_conflicts.size(), 1u);
  EXPECT_EQ(r.prevail_conflicts[0].var, 0);
  EXPECT_EQ(r.prevail_conflicts[0].values, (std::vector<ValueId>{0, 1, 2}));
  EXPECT_EQ(r.prevail_conflicts[0].witnesses, (A{1, 3, 0}));
  // No action changes v0: every value is a ghost, nothing is requestable.
  EXPECT_EQ(r.variables[0].ghost_values.size(), 3u);
  EXPECT_EQ(r.structural_class, StructuralClass::kC0);
}

// Decision: an undefined pre-condition (SAS+) means the action may follow any other action of
// its variable, so G(v) gets an edge from each of them.
TEST(Analysis, UndefinedPreEdgesFromEveryOtherAction) {
  DomainDef def = vars({3});
  act(def, "reset", 0, kUndefined, 0);
  act(def, "step", 0, 0, 1);
  act(def, "more", 0, 1, 2);
  const ClassReport r = analyze(compile_or_die(def));
  EXPECT_FALSE(r.pre_defined);
  EXPECT_EQ(r.undefined_pre, (A{0}));
  EXPECT_EQ(r.variables[0].edges, (E{{0, 1}, {1, 0}, {1, 2}, {2, 0}}));
  // Two cycles through "reset" form one strongly connected tangle that is not a simple cycle.
  ASSERT_EQ(r.variables[0].cycles.size(), 1u);
  EXPECT_FALSE(r.variables[0].cycles[0].simple);
  EXPECT_EQ(r.variables[0].cycles[0].actions, (A{0, 1, 2}));
  EXPECT_EQ(r.structural_class, StructuralClass::kC0);  // nothing requestable
}

TEST(Analysis, TangledCycleWithRequestableIsNone) {
  DomainDef def = vars({3, 2});
  act(def, "a", 0, kUndefined, 0);
  act(def, "b", 0, kUndefined, 1);
  act(def, "c", 0, kUndefined, 2);
  act(def, "d", 1, 0, 1, {{0, 2}});
  const ClassReport r = analyze(compile_or_die(def));
  ASSERT_EQ(r.variables[0].cycles.size(), 1u);
  EXPECT_FALSE(r.variables[0].cycles[0].simple);
  EXPECT_EQ(r.structural_class, StructuralClass::kNone);
  ASSERT_FALSE(r.violations.empty());
  EXPECT_EQ(r.violations[0].kind, ClassViolation::Kind::kTangledCycle);
}

// An undefined pre next to a single other action is just a 2-cycle.
TEST(Analysis, UndefinedPreTwoCycle) {
  DomainDef def = vars({2, 2});
  act(def, "on", 0, kUndefined, 1);
  act(def, "off", 0, 1, 0);
  act(def, "use", 1, 0, 1, {{0, 1}});
  const ClassReport r = analyze(compile_or_die(def));
  ASSERT_EQ(r.variables[0].cycles.size(), 1u);
  EXPECT_TRUE(r.variables[0].cycles[0].simple);
  EXPECT_EQ(r.structural_class, StructuralClass::kC2S);
}

// Decision: an action whose pre equals its post is a cycle of one action (a self-loop of G(v)).
// Requestable, it keeps the domain out of C0 but inside C2S.
TEST(Analysis, SelfLoopIsAOneActionCycle) {
  DomainDef def = vars({2, 2});
  act(def, "stay", 0, 1, 1);
  act(def, "use", 1, 0, 1, {{0, 1}});
  const ClassReport r = analyze(compile_or_die(def));
  EXPECT_EQ(r.variables[0].edges, (E{{0, 0}}));
  ASSERT_EQ(r.variables[0].cycles.size(), 1u);
  EXPECT_EQ(r.variables[0].cycles[0].actions, (A{0}));
  EXPECT_EQ(r.structural_class, StructuralClass::kC2S);
}

// Decision: when G(v) is not weakly connected, each part counts as a variable of its own (seed
// 000 §3), so Def 7 removes only the part holding the cycle. Here x and y are tied through r, an
// action of v0's other part: related, hence not C2*.
TEST(Analysis, DisconnectedDomainActionGraphRemovesOnlyThePart) {
  DomainDef def = vars({4, 2, 2});
  act(def, "on", 0, 0, 1);
  act(def, "off", 0, 1, 0);
  act(def, "r", 0, 2, 3, {{1, 1}, {2, 1}});
  act(def, "x", 1, 0, 1, {{0, 1}});
  act(def, "y", 2, 0, 1, {{0, 0}});
  const ClassReport r = analyze(compile_or_die(def));
  EXPECT_EQ(r.variables[0].components, 2);
  EXPECT_EQ(r.variables[0].ghost_values, (std::vector<ValueId>{2}));
  EXPECT_EQ(r.structural_class, StructuralClass::kNone) << r.why_not;
}

TEST(Analysis, EmptyClassIsC0) {
  DomainDef def = vars({2});
  act(def, "a", 0, 0, 1);
  def.classes = {{"idle", {}}};
  const ClassReport r = analyze(compile_or_die(def), 0);
  EXPECT_EQ(r.num_analysed, 0);
  EXPECT_TRUE(r.variables[0].actions.empty());
  EXPECT_EQ(r.variables[0].components, 0);
  EXPECT_EQ(r.structural_class, StructuralClass::kC0);
}

}  // namespace
}  // namespace topoplan

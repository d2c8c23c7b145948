// CrowdPlanner: per NPC class, ℙ over the projection of the domain on the variables the class
// can change (effect variables of its actions) or read (their prevail-conditions).
//
// Why the projection gives the same plans: ℙ only ever visits a variable through an action that
// sets it or a prevail that reads it; any other variable v has no producer in the class, so ℙ on
// the whole domain either ignores it (goal free or equal to s0) or fails in phase 1 on it, which
// is a proof (kUnsolvable). The projection keeps the variables and the actions in their original
// relative order, so every loop of ℙ visits the same things in the same order; the structural
// class (which failures are proofs) is taken from the planner of the whole class.
#include <algorithm>
#include <atomic>
#include <string>
#include <string_view>
#include <vector>

#include "topoplan/runtime/crowd.h"

namespace topoplan {

namespace {
std::atomic<uint64_t> g_next_stamp{1};

Error error_of(std::string message) {
  return Error{std::move(message), {}, 0};
}

// The projection of the domain on a class (`mask`: its actions): the variables its actions set or
// read, in the domain's order (their domain ids appended to `vars`), and its actions, in the
// domain's order (their domain ids appended to `to_global`).
DomainDef projection_def(const Domain& domain, std::span<const uint8_t> mask, std::string name,
                         std::vector<VarId>& vars, std::vector<ActionId>& to_global) {
  const int32_t m = domain.num_variables();
  std::vector<uint8_t> used(static_cast<size_t>(m), 0);
  for (ActionId a = 0; a < domain.num_actions(); ++a) {
    if (!mask[static_cast<size_t>(a)]) continue;
    for (const Effect& e : domain.effects(a)) used[static_cast<size_t>(e.var)] = 1;
    for (const Fact& f : domain.prevail(a)) used[static_cast<size_t>(f.var)] = 1;
  }
  std::vector<VarId> local(static_cast<size_t>(m), -1);
  DomainDef def;
  def.name = std::move(name);
  for (VarId v = 0; v < m; ++v) {
    if (!used[static_cast<size_t>(v)]) continue;
    local[static_cast<size_t>(v)] = static_cast<VarId>(vars.size());
    vars.push_back(v);
    VariableDef var;
    var.name = domain.variable_name(v);
    for (ValueId x = 0; x < domain.domain_size(v); ++x)
      var.values.push_back(domain.value_name(v, x));
    def.variables.push_back(std::move(var));
  }
  for (ActionId a = 0; a < domain.num_actions(); ++a) {
    if (!mask[static_cast<size_t>(a)]) continue;
    ActionDef act;
    act.name = domain.action_name(a);
    act.cost = domain.cost(a);
    for (Effect e : domain.effects(a)) {
      e.var = local[static_cast<size_t>(e.var)];
      act.effects.push_back(e);
    }
    for (Fact f : domain.prevail(a)) {
      f.var = local[static_cast<size_t>(f.var)];
      act.prevail.push_back(f);
    }
    def.actions.push_back(std::move(act));
    to_global.push_back(a);
  }
  return def;
}

// ℙ's own copy of the projection `def` (projection_def) keeps every action of the domain at its
// domain id (the class's actions as projected, every other one a placeholder masked out), so that ℙ
// writes the output's action ids itself: no remapping per plan. ℙ never looks at an unavailable
// action, and the available ones are the same actions in the same order.
// (A projection has variables: Domain::compile refuses one without.)
DomainDef wide_def(const Domain& domain, std::span<const uint8_t> mask, DomainDef def) {
  std::vector<ActionDef> compact = std::move(def.actions);
  def.actions.clear();
  def.actions.reserve(static_cast<size_t>(domain.num_actions()));
  size_t next = 0;
  for (ActionId a = 0; a < domain.num_actions(); ++a) {
    if (mask[static_cast<size_t>(a)]) {
      def.actions.push_back(std::move(compact[next++]));
    } else {
      ActionDef placeholder;
      placeholder.name = domain.action_name(a);
      placeholder.effects.push_back(Effect{0, kUndefined, 0});
      def.actions.push_back(std::move(placeholder));
    }
  }
  return def;
}
// ℙ's part of a class it cannot take whole (`mask`: the class's actions): its unary actions,
// and of several that set one variable to one value, only the cheapest (the lowest id among
// equals). ℙ plans with these alone; what it cannot answer with them goes to the chain
// (CrowdPlanner::topo_part).
std::vector<uint8_t> topo_part_mask(const Domain& domain, std::span<const uint8_t> mask) {
  std::vector<uint8_t> part(mask.begin(), mask.end());
  std::vector<ActionId> producer;  // per value slot: the kept producer (-1: none yet)
  std::vector<int32_t> first(static_cast<size_t>(domain.num_variables()) + 1, 0);
  for (VarId v = 0; v < domain.num_variables(); ++v)
    first[static_cast<size_t>(v) + 1] = first[static_cast<size_t>(v)] + domain.domain_size(v);
  producer.assign(static_cast<size_t>(first.back()), -1);
  for (ActionId a = 0; a < domain.num_actions(); ++a) {
    if (!part[static_cast<size_t>(a)]) continue;
    if (!domain.is_unary(a)) {
      part[static_cast<size_t>(a)] = 0;
      continue;
    }
    const Effect e = domain.effects(a)[0];
    ActionId& kept = producer[static_cast<size_t>(first[static_cast<size_t>(e.var)] + e.post)];
    if (kept >= 0 && domain.cost(kept) <= domain.cost(a)) {
      part[static_cast<size_t>(a)] = 0;
    } else {
      if (kept >= 0) part[static_cast<size_t>(kept)] = 0;
      kept = a;
    }
  }
  return part;
}
}  // namespace

Result<CrowdPlanner> CrowdPlanner::create(const Domain& domain) {
  CrowdPlanner p;
  p.domain_ = &domain;
  p.layout_ = CrowdLayout(domain);
  p.stamp_ = g_next_stamp.fetch_add(1);
  const int32_t words = p.layout_.words();
  p.field_low_.assign(static_cast<size_t>(words), 0);
  p.field_high_.assign(static_cast<size_t>(words), 0);
  const int32_t m = domain.num_variables();
  for (VarId v = 0; v < m; ++v) {
    const CrowdLayout::Field& f = p.layout_.field(v);
    p.field_low_[static_cast<size_t>(f.word)] |= (f.mask >> 1) << f.shift;
    p.field_high_[static_cast<size_t>(f.word)] |= ((f.mask >> 1) + 1) << f.shift;
  }

  const int32_t num_classes = std::max(domain.num_classes(), 1);
  if (num_classes > 65535) return error_of("crowd: more than 65535 NPC classes");
  for (ClassId c = 0; c < num_classes; ++c) {
    const ClassId dc = domain.num_classes() == 0 ? kAllActions : c;
    const std::string class_name = dc == kAllActions ? "(all actions)" : domain.class_name(dc);
    const std::span<const uint8_t> mask = domain.action_mask(dc);
    // ℙ's part of the class: all of it when ℙ takes it whole, else topo_part_mask.
    Result<TopoPlanner> full = TopoPlanner::create(domain, dc);
    std::vector<uint8_t> part;
    if (!full.ok()) {
      part = topo_part_mask(domain, mask);
      full = TopoPlanner::create(domain, part);
      if (!full.ok()) {  // not expected (topo_part keeps unary, post-unique actions): no part
        std::fill(part.begin(), part.end(), uint8_t{0});
        full = TopoPlanner::create(domain, part);
      }
      if (!full.ok()) return error_of("crowd: class '" + class_name + "': " + full.error().message);
    }
    const std::span<const uint8_t> topo_mask = part.empty() ? mask : std::span<const uint8_t>(part);

    auto cp = std::make_unique<ClassPlan>();
    DomainDef def =
        projection_def(domain, mask, domain.name() + "/" + class_name, cp->vars, cp->to_global);
    Result<Domain> projected = Domain::compile(def);
    if (!projected.ok())
      return error_of("crowd: class '" + class_name +
                      "': projection: " + projected.error().message);
    cp->projected = std::move(projected).value();
    Result<Domain> wide = Domain::compile(wide_def(domain, mask, std::move(def)));
    if (!wide.ok())
      return error_of("crowd: class '" + class_name + "': projection: " + wide.error().message);
    cp->wide = std::move(wide).value();
    Result<TopoPlanner> planner =
        TopoPlanner::create(cp->wide, topo_mask, full.value().structural_class());
    if (!planner.ok())
      return error_of("crowd: class '" + class_name + "': " + planner.error().message);
    cp->planner = std::move(planner).value();
    cp->topo_part = !part.empty();
    Result<CompiledActionSet> set = CompiledActionSet::create(cp->projected);
    if (!set.ok()) return error_of("crowd: class '" + class_name + "': " + set.error().message);
    cp->set = std::move(set).value();
    if (cp->planner.max_plan_length() > 65535)
      return error_of("crowd: class '" + class_name + "' has more than 65535 actions");

    cp->key_mask.assign(static_cast<size_t>(words), 0);
    cp->other_high = p.field_high_;
    for (const VarId v : cp->vars) {
      const CrowdLayout::Field& f = p.layout_.field(v);
      cp->fields.push_back(f);
      cp->key_mask[static_cast<size_t>(f.word)] |= f.mask << f.shift;
      cp->other_high[static_cast<size_t>(f.word)] &= ~(f.mask << f.shift);
    }
    p.max_plan_length_ = std::max(p.max_plan_length_, cp->planner.max_plan_length());
    p.max_class_vars_ = std::max(p.max_class_vars_, static_cast<int32_t>(cp->vars.size()));
    p.classes_.push_back(std::move(cp));
  }
  return p;
}

std::vector<std::string> parse_planner_chain(std::string_view text) {
  std::vector<std::string> names;
  if (text == "none") return names;
  // Every name between commas, empty ones too: Crowd::create refuses them (",,," and "" are
  // typos, not the empty chain, which is spelled "none").
  size_t start = 0;
  while (true) {
    const size_t comma = std::min(text.find(',', start), text.size());
    names.emplace_back(text.substr(start, comma - start));
    if (comma == text.size()) return names;
    start = comma + 1;
  }
}

}  // namespace topoplan

// The UDGOAP planner: forward simulation of plan states and the utility-directed regressive
// search of Algorithms 3 (main loop) and 4 (applicable actions by effect key).
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <queue>

#include "topoplan/udgoap/planner.h"

#include "runtime/limits/def_check.h"
#include "topoplan/runtime/limits.h"

namespace topoplan::udgoap {
namespace {

constexpr const LimitSpec* kExpansionSpec[] = {&topoplan::limits::kUdgoapMaxExpansions};

// Utilities are compared on a 1e-9 grid so that equal arithmetic in different orders still
// ties, and ties fall back to the plan state id (the thesis: "the first will be selected").
int64_t utility_key(double u) {
  return std::llround(u * 1e9);
}

bool compatible(Direction wanted, Direction offered) {
  return wanted == Direction::kChange || offered == Direction::kChange || wanted == offered;
}

struct Target {
  SlotId slot = kNoSlot;
  Direction direction = Direction::kChange;
  std::string key;
  std::string text;
};

// The fact and key an unsatisfied precondition asks to change.
Target pending_target(const World& world, std::span<const PlanStep> plan,
                      const PreconditionRef& p) {
  Target t;
  const PlanStep& step = plan[static_cast<size_t>(p.step)];
  Binding b{world.agent, step.supplier, kNoEntity};
  const std::string who = format_step(world, step);
  if (p.index == kAlive) {
    t.slot = world.slot(world.agent, world.death_attribute);
    t.direction = Direction::kIncrease;
    t.key = world.key(Role::kConsumer, world.death_attribute, t.direction);
    t.text = "consumer alive before " + who;
  } else if (p.index == kExists) {
    const AttributeId exists = world.find_attribute("exists").value_or(0);
    t.slot = world.slot(step.supplier, exists);
    t.direction = Direction::kIncrease;
    t.key = world.key(Role::kSupplier, exists, t.direction);
    t.text = "supplier of " + who + " exists";
  } else {
    const Condition& c =
        world.actions[static_cast<size_t>(step.action)].preconditions[static_cast<size_t>(p.index)];
    t.slot = world.resolve(c.fact, b);
    t.direction = key_direction(c);
    t.key = world.key(c.fact.role, c.fact.attribute, t.direction);
    t.text = who + " needs " + world.format_condition(c);
  }
  return t;
}

std::string format_pending(const World& world, std::span<const PlanStep> plan,
                           const PreconditionRef& p) {
  if (p.step < 0) return "no unsatisfied precondition";
  const Target t = pending_target(world, plan, p);
  char sat[32];
  std::snprintf(sat, sizeof sat, "%.3f", p.satisfaction);
  return "pending: " + t.text + " [" + t.key + "], satisfaction " + sat;
}

// Every (action, supplier) the agent can apply whose effect changes `slot` in a direction
// compatible with `wanted`; in the agent's consumable-action order, then entity order
// (Algorithm 4: consumable ∩ supplied, filtered by effect key).
std::vector<PlanStep> matching_steps(const World& world, SlotId slot, Direction wanted) {
  std::vector<PlanStep> out;
  if (slot == kNoSlot) return out;
  const Entity& agent = world.entities[static_cast<size_t>(world.agent)];
  for (ActionIndex a : agent.consumes) {
    const Action& action = world.actions[static_cast<size_t>(a)];
    for (size_t e = 0; e < world.entities.size(); ++e) {
      const auto supplier = static_cast<EntityId>(e);
      if (supplier == world.agent) continue;
      const auto& supplies = world.entities[e].supplies;
      if (std::find(supplies.begin(), supplies.end(), a) == supplies.end()) continue;
      const Binding b{world.agent, supplier, kNoEntity};
      const bool matches =
          std::any_of(action.effects.begin(), action.effects.end(), [&](const Effect& ef) {
            return world.resolve(ef.target, b) == slot && compatible(wanted, key_direction(ef));
          });
      if (matches) out.push_back({a, supplier});
    }
  }
  return out;
}

struct Node {
  int32_t id = 0;
  int32_t parent = 0;
  std::vector<PlanStep> plan;
  double utility = 0.0;
  PreconditionRef pending;
};

struct FrontierEntry {
  int64_t key = 0;
  int32_t id = 0;
};
struct FrontierLess {
  bool operator()(const FrontierEntry& a, const FrontierEntry& b) const {
    if (a.key != b.key) return a.key < b.key;
    return a.id > b.id;
  }
};

}  // namespace

std::string format_step(const World& world, const PlanStep& step) {
  std::string s = world.actions[static_cast<size_t>(step.action)].name;
  s += "(";
  if (step.supplier != kNoEntity) s += world.entities[static_cast<size_t>(step.supplier)].name;
  s += ")";
  return s;
}

void apply_step(const World& world, const PlanStep& step, std::vector<Value>& state) {
  const Action& action = world.actions[static_cast<size_t>(step.action)];
  Binding b{world.agent, step.supplier, kNoEntity};
  for (const Effect& e : action.effects) world.apply(e, state, b);

  // World effects: the action's generators and the global ones, each (generator, target) at
  // most once per step, repeated until none fires any more (equilibrium).
  std::vector<int32_t> generators = action.world_effects;
  for (size_t w = 0; w < world.world_effects.size(); ++w)
    if (world.world_effects[w].always) generators.push_back(static_cast<int32_t>(w));
  std::sort(generators.begin(), generators.end());
  generators.erase(std::unique(generators.begin(), generators.end()), generators.end());
  std::vector<std::pair<int32_t, EntityId>> fired;
  for (bool changed = true; changed;) {
    changed = false;
    for (int32_t w : generators) {
      const WorldEffect& we = world.world_effects[static_cast<size_t>(w)];
      auto consider = [&](EntityId target) {
        const std::pair<int32_t, EntityId> id{w, target};
        if (std::find(fired.begin(), fired.end(), id) != fired.end()) return;
        Binding wb = b;
        wb.target = target;
        if (!world.holds_all(we.triggers, state, wb)) return;
        for (const Effect& e : we.effects) world.apply(e, state, wb);
        fired.push_back(id);
        changed = true;
      };
      if (we.for_each.empty()) {
        consider(kNoEntity);
      } else {
        for (size_t e = 0; e < world.entities.size(); ++e)
          if (world.entities[e].has_tag(we.for_each)) consider(static_cast<EntityId>(e));
      }
    }
  }
}

Simulation simulate(const World& world, std::span<const PlanStep> plan) {
  Simulation sim;
  sim.state = world.initial_state();
  const std::optional<AttributeId> exists = world.find_attribute("exists");
  bool dead = false;
  for (size_t i = 0; i < plan.size(); ++i) {
    const PlanStep& step = plan[i];
    const Action& action = world.actions[static_cast<size_t>(step.action)];
    const Binding b{world.agent, step.supplier, kNoEntity};
    sim.offsets.push_back(static_cast<int32_t>(sim.satisfaction.size()));
    dead = dead || world.agent_dead(sim.state);
    const SlotId es = exists ? world.slot(step.supplier, *exists) : kNoSlot;
    sim.satisfaction.push_back(dead ? 0.0 : 1.0);
    sim.satisfaction.push_back(es == kNoSlot || sim.state[static_cast<size_t>(es)].x != 0.0 ? 1.0
                                                                                            : 0.0);
    for (const Condition& c : action.preconditions)
      sim.satisfaction.push_back(world.satisfaction(c, sim.state, b));
    if (sim.first_unsatisfied.step < 0) {
      const auto begin = static_cast<size_t>(sim.offsets.back());
      for (size_t j = begin; j < sim.satisfaction.size(); ++j) {
        if (sim.satisfaction[j] < 1.0) {
          sim.first_unsatisfied = {static_cast<int32_t>(i), static_cast<int32_t>(j - begin) - 2,
                                   sim.satisfaction[j]};
          break;
        }
      }
    }
    if (dead) continue;  // a dead consumer applies nothing more
    apply_step(world, step, sim.state);
    sim.applied = static_cast<int32_t>(i + 1);
  }
  sim.offsets.push_back(static_cast<int32_t>(sim.satisfaction.size()));
  return sim;
}

std::optional<Error> check(const UdgoapLimits& limits) {
  constexpr std::string_view kWhere = "UdgoapLimits";
  if (auto e = check_limit(topoplan::limits::kUdgoapMaxExpansions, limits.max_expansions, kWhere))
    return e;
  if (auto e = check_limit(topoplan::limits::kUdgoapMaxGenerated, limits.max_generated, kWhere))
    return e;
  return check_limit(topoplan::limits::kUdgoapMaxPlanLength, int64_t{limits.max_plan_length},
                     kWhere);
}

namespace {

// plan_udgoap's regressive search: its plan states (node k has id k + 1), the frontier by
// utility, and the answer it fills.
struct Search {
  const World& world;
  const AgentState& agent;
  const UdgoapOptions& options;
  UdgoapResult& result;
  std::vector<Node> nodes;
  std::priority_queue<FrontierEntry, std::vector<FrontierEntry>, FrontierLess> frontier;
  bool truncated = false;  // a successor was dropped by a limit: exhaustion proves nothing

  void trace(TraceEntry::Kind kind, const Node& n, std::string note) {
    if (!options.trace) return;
    result.trace.push_back({kind, n.id, n.parent, n.plan, n.utility, std::move(note)});
  }

  // Root plan state: no action, utility of the initial facts.
  void add_root() {
    Node root;
    root.id = 1;
    const std::vector<Value> init = world.initial_state();
    root.utility = state_utility(world, agent, init);
    result.initial_utility = root.utility;
    nodes.push_back(root);
    trace(TraceEntry::Kind::kGenerated, nodes.back(), "root");
  }

  // Regression must make progress on the precondition the parent was chosen for.
  bool progresses(const Node& parent, const Node& child, const Simulation& sim) {
    const PreconditionRef& want = parent.pending;
    const auto at =
        static_cast<size_t>(sim.offsets[static_cast<size_t>(want.step) + 1] + want.index + 2);
    if (sim.satisfaction[at] > want.satisfaction) return true;
    if (options.trace) {
      Node pruned = child;
      pruned.utility = state_utility(world, agent, sim.state);
      char buf[64];
      std::snprintf(buf, sizeof buf, "does not raise the pending precondition (%.3f)",
                    sim.satisfaction[at]);
      trace(TraceEntry::Kind::kPruned, pruned, buf);
    }
    return false;
  }

  // The plan state `step` then parent's plan, unless a limit drops it or it makes no progress.
  void add_child(const Node& parent, const PlanStep& step) {
    Node child;
    child.parent = parent.id;
    child.plan.reserve(parent.plan.size() + 1);
    child.plan.push_back(step);
    child.plan.insert(child.plan.end(), parent.plan.begin(), parent.plan.end());
    if (static_cast<int32_t>(child.plan.size()) > options.limits.max_plan_length ||
        result.generated >= options.limits.max_generated) {
      truncated = true;
      return;
    }
    Simulation sim = simulate(world, child.plan);
    if (parent.id != 1 && !progresses(parent, child, sim)) return;
    child.id = static_cast<int32_t>(nodes.size() + 1);
    child.utility = state_utility(world, agent, sim.state);
    child.pending = sim.first_unsatisfied;
    ++result.generated;
    nodes.push_back(std::move(child));
    const Node& n = nodes.back();
    trace(TraceEntry::Kind::kGenerated, n, format_pending(world, n.plan, n.pending));
    frontier.push({utility_key(n.utility), n.id});
  }

  // generate_from_initial_state: one plan state per (action, supplier) whose effect key
  // matches a condition key of any goal, in goal order.
  void add_seeds() {
    std::vector<PlanStep> seeds;
    const Binding self{world.agent, kNoEntity, kNoEntity};
    for (const Goal& g : agent.goals) {
      const GoalTemplate& t = world.drives[static_cast<size_t>(g.drive)]
                                  .generators[static_cast<size_t>(g.generator)]
                                  .goal;
      Binding b = self;
      b.target = g.target;
      for (const GoalCondition& c : t.conditions) {
        for (const PlanStep& s : matching_steps(world, world.resolve(c.fact, b), c.direction))
          if (std::find(seeds.begin(), seeds.end(), s) == seeds.end()) seeds.push_back(s);
      }
    }
    const Node root = nodes.front();
    for (const PlanStep& s : seeds) add_child(root, s);
  }

  // The frontier ran empty: a limit dropped plan states, or no plan exists in this search.
  void exhausted() {
    if (truncated) {
      result.status = PlanStatus::kLimitReached;
      result.message = "node limit: plan states beyond " +
                       std::string(topoplan::limits::kUdgoapMaxPlanLength.cxx) + " (" +
                       std::to_string(options.limits.max_plan_length) + ") or " +
                       std::string(topoplan::limits::kUdgoapMaxGenerated.cxx) + " (" +
                       std::to_string(options.limits.max_generated) + ") were dropped";
    } else {
      result.status = PlanStatus::kGaveUp;
      result.message = agent.goals.empty()
                           ? "no plan: the agent has no goal"
                           : "no plan: every plan state has a precondition no action can raise";
    }
  }
};

}  // namespace

UdgoapResult plan_udgoap(const World& world, const AgentState& agent,
                         const UdgoapOptions& options) {
  UdgoapResult result;
  if (auto bad = check(options.limits)) {
    result.status = PlanStatus::kUnsupported;
    result.message = bad->message;
    return result;
  }
  Search search{world, agent, options, result, {}, {}, false};
  search.add_root();
  search.add_seeds();
  while (!search.frontier.empty()) {
    const FrontierEntry top = search.frontier.top();
    search.frontier.pop();
    if (result.expanded >= options.limits.max_expansions) {
      result.status = PlanStatus::kLimitReached;
      result.message = "node limit: " + std::to_string(options.limits.max_expansions) +
                       " plan states expanded (" + topoplan::raise_limits(kExpansionSpec) + ")";
      return result;
    }
    ++result.expanded;
    const Node node = search.nodes[static_cast<size_t>(top.id - 1)];  // copy: nodes may grow
    if (node.pending.step < 0) {
      search.trace(TraceEntry::Kind::kSolved, node,
                   "highest utility and no unsatisfied precondition");
      result.status = PlanStatus::kSolved;
      result.plan = node.plan;
      result.utility = node.utility;
      return result;
    }
    search.trace(TraceEntry::Kind::kSelected, node, format_pending(world, node.plan, node.pending));
    const Target t = pending_target(world, node.plan, node.pending);
    for (const PlanStep& s : matching_steps(world, t.slot, t.direction)) search.add_child(node, s);
  }
  search.exhausted();
  return result;
}

}  // namespace topoplan::udgoap

// The wizard arena's UDGOAP selector (Sloan 2015, ch. 6): the topoplan::udgoap planner on the
// scenario's template world. The rest of the arena is arena.cpp.
#include <utility>

#include "arena_world.h"
#include "topoplan/udgoap/planner.h"

namespace topoplan::sim::arena_detail {
namespace {

// ---------------------------------------------------------------------------------------------
// UDGOAP: the topoplan::udgoap planner on the template world, instantiated per decision with the
// nearest antlions and potions (cold path: this allocates).
struct UdgoapTemplate {
  udgoap::World base;
  struct Proto {
    bool present = false;
    udgoap::Entity entity;
    std::vector<udgoap::Fact> facts;
  };
  Proto antlion, health_potion, mana_potion;
  udgoap::AttributeId position = -1, health = -1, mana = -1, near = -1, amount = -1;
  std::vector<int32_t> action_map;  // udgoap action → arena action (-1: a potion drink)
};

UdgoapTemplate build_udgoap_template(const udgoap::World& w) {
  UdgoapTemplate t;
  std::vector<udgoap::EntityId> remap(w.entities.size(), udgoap::kNoEntity);
  t.base = w;
  t.base.entities.clear();
  t.base.facts.clear();
  for (size_t e = 0; e < w.entities.size(); ++e) {
    const std::string& n = w.entities[e].name;
    UdgoapTemplate::Proto* p = n == "antlion"         ? &t.antlion
                               : n == "health_potion" ? &t.health_potion
                               : n == "mana_potion"   ? &t.mana_potion
                                                      : nullptr;
    if (p != nullptr) {
      p->present = true;
      p->entity = w.entities[e];
      for (const udgoap::Fact& f : w.facts) {
        if (f.entity == static_cast<udgoap::EntityId>(e) && f.kind != udgoap::FactKind::kImplicit) {
          p->facts.push_back(f);
        }
      }
      continue;
    }
    remap[e] = static_cast<udgoap::EntityId>(t.base.entities.size());
    t.base.entities.push_back(w.entities[e]);
  }
  for (const udgoap::Fact& f : w.facts) {
    const udgoap::EntityId ne = remap[static_cast<size_t>(f.entity)];
    if (ne == udgoap::kNoEntity) continue;
    udgoap::Fact g = f;
    g.entity = ne;
    t.base.facts.push_back(g);
  }
  t.base.agent = remap[static_cast<size_t>(w.agent)];
  t.base.reindex();
  t.position = t.base.intern_attribute("position");
  t.health = t.base.intern_attribute("health");
  t.mana = t.base.intern_attribute("mana");
  t.near = t.base.intern_attribute("near");
  t.amount = t.base.intern_attribute("amount");
  for (const udgoap::Action& a : w.actions) {
    int32_t m = -1;
    for (int32_t k = 0; k < kArenaActions; ++k) {
      if (a.name == arena_action_name(k)) m = k;
    }
    t.action_map.push_back(m);
  }
  return t;
}

class UdgoapSelector final : public Selector {
 public:
  UdgoapSelector(Arena& a, UdgoapTemplate t) : a_(a), t_(std::move(t)) {}
  std::string_view name() const override { return "udgoap"; }
  bool replans_on_world_change() const override { return true; }
  GoalChoice choose_goal(int32_t) override {
    a_.clear_decision_damage();
    return {0, -1, 0.0};
  }
  bool plan(int32_t, const GoalChoice&, Plan& out) override {
    out.clear();
    const ArenaConfig& c = a_.cfg();
    udgoap::World w = t_.base;
    std::vector<int32_t> object_of;  // udgoap entity → arena object id
    object_of.assign(w.entities.size(), -1);
    auto vec = [](Vec2 p) { return udgoap::Value::vec3(p.x, p.y, 0.0); };
    auto add = [&](const UdgoapTemplate::Proto& p, const std::string& name, int32_t id, Vec2 pos,
                   double health, double near, double amount) {
      if (!p.present) return;
      udgoap::Entity e = p.entity;
      e.name = name;
      const auto eid = static_cast<udgoap::EntityId>(w.entities.size());
      w.entities.push_back(std::move(e));
      object_of.push_back(id);
      for (udgoap::Fact f : p.facts) {
        f.entity = eid;
        if (f.attribute == t_.position) f.value = vec(pos);
        if (f.attribute == t_.health)
          f.value = udgoap::Value::number(std::clamp(health, f.min, f.max));
        if (f.attribute == t_.near) f.value = udgoap::Value::number(near);
        if (f.attribute == t_.amount) f.value = udgoap::Value::number(amount);
        w.facts.push_back(f);
      }
    };
    // Nearest antlions, then nearest potions of each kind.
    picks_.clear();
    for (const Antlion& an : a_.antlions()) {
      if (an.alive) picks_.push_back({distance(an.pos, a_.pos()), an.id});
    }
    std::sort(picks_.begin(), picks_.end());
    for (size_t i = 0; i < picks_.size() && i < static_cast<size_t>(c.udgoap_enemies); ++i) {
      const Antlion* an = a_.antlion(picks_[i].second);
      add(t_.antlion, "antlion_" + std::to_string(an->id), an->id, an->pos, an->health,
          picks_[i].first <= c.udgoap_near ? 1.0 : 0.0, 0.0);
    }
    for (int kind = 0; kind < 2; ++kind) {
      picks_.clear();
      for (const Potion& p : a_.potions()) {
        if (p.alive && p.health == (kind == 0)) picks_.push_back({distance(p.pos, a_.pos()), p.id});
      }
      std::sort(picks_.begin(), picks_.end());
      for (size_t i = 0; i < picks_.size() && i < static_cast<size_t>(c.udgoap_potions); ++i) {
        const Potion* p = a_.potion(picks_[i].second);
        add(kind == 0 ? t_.health_potion : t_.mana_potion,
            std::string(kind == 0 ? "health_potion_" : "mana_potion_") + std::to_string(p->id),
            p->id, p->pos, 0.0, 0.0, 0.5 * (c.potion_amount_min + c.potion_amount_max));
      }
    }
    w.add_implicit_facts();
    w.reindex();
    // The wizard's own facts.
    auto set = [&](udgoap::AttributeId attr, udgoap::Value v) {
      const udgoap::SlotId s = w.slot(w.agent, attr);
      if (s != udgoap::kNoSlot) w.facts[static_cast<size_t>(s)].value = v;
    };
    set(t_.position, vec(a_.pos()));
    set(t_.health, udgoap::Value::number(std::max(0.0, a_.health())));
    set(t_.mana, udgoap::Value::number(std::max(0.0, a_.mana())));
    udgoap::AgentState agent = udgoap::make_agent_state(w);
    udgoap::update_agent(w, w.initial_state(), agent);
    udgoap::UdgoapOptions opt;
    opt.limits.max_expansions = c.udgoap_max_expansions;
    opt.limits.max_plan_length = kMaxPlanSteps;
    const udgoap::UdgoapResult r = udgoap::plan_udgoap(w, agent, opt);
    // The planner never returns the empty plan (thesis §3.8); doing nothing is better than a
    // plan whose outcome is worth no more than the present (ours).
    if (r.plan.empty() || r.utility <= r.initial_utility + 1e-9) return false;
    for (size_t i = 0; i < r.plan.size(); ++i) {
      const udgoap::PlanStep& st = r.plan[i];
      const int32_t act = t_.action_map[static_cast<size_t>(st.action)];
      const int32_t target = st.supplier >= 0 ? object_of[static_cast<size_t>(st.supplier)] : -1;
      if (act < 0) {
        // A potion is drunk on arrival: "drink" after "goto" of the same potion is implicit; a
        // lone drink means walking there.
        if (out.length > 0 &&
            out.steps[static_cast<size_t>(out.length - 1)] == Step{kGoto, target}) {
          continue;
        }
        out.push({kGoto, target});
        continue;
      }
      out.push({act, target});
    }
    return out.length > 0;
  }

 private:
  Arena& a_;
  const UdgoapTemplate t_;
  std::vector<std::pair<double, int32_t>> picks_;
};

}  // namespace

std::unique_ptr<Selector> make_udgoap_selector(Arena& arena, const udgoap::World& world) {
  return std::make_unique<UdgoapSelector>(arena, build_udgoap_template(world));
}

}  // namespace topoplan::sim::arena_detail

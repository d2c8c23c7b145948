// The designer's view of a reformulation (reform.h, advise()): what `check` prints.
#include <map>
#include <set>
#include <string>
#include <vector>

#include "topoplan/runtime/reform.h"

namespace topoplan {

std::vector<std::string> advise(const Domain& domain, const Instance& instance,
                                const ReformOptions& options) {
  std::vector<std::string> out;
  Result<Reformulation> r = reformulate(domain, instance, options);
  if (!r) return {r.error().to_string()};
  for (size_t i = 0; i < r->merged.size(); ++i) {
    // The actions the merge makes unary: those that change several members.
    std::set<std::string> made_unary;
    for (ActionId a = 0; a < r->domain.num_actions(); ++a) {
      const ActionId o = r->origin[static_cast<size_t>(a)];
      if (o < 0) continue;  // enters the extra value "goal"
      int32_t changed = 0;
      for (const Effect& e : domain.effects(o))
        for (VarId v : r->merged[i].members) changed += e.var == v && e.pre != e.post;
      if (changed > 1) made_unary.insert("'" + domain.action_name(o) + "'");
    }
    std::string s = "merge " + r->describe_merge(domain, i);
    if (!made_unary.empty()) {
      s += ": ";
      size_t k = 0;
      for (const std::string& n : made_unary) s += (k++ ? ", " : "") + n;
      s += made_unary.size() == 1 ? " becomes unary" : " become unary";
    }
    out.push_back(s);
  }
  if (r->unmerged_groups > 0)
    out.push_back(std::to_string(r->unmerged_groups) +
                  " group(s) of variables changed together stay apart (too many combinations): "
                  "split those actions, or bound the counters, to let ℙ take them");
  if (r->prevails_from_effects > 0)
    out.push_back(std::to_string(r->prevails_from_effects) +
                  " effect(s) keep their value (pre = post): read as prevail-conditions");
  const int32_t ignored =
      r->dropped_noop + r->dropped_unreachable + r->dropped_irrelevant + r->dropped_dominated;
  if (ignored > 0)
    out.push_back("for this start and goal ℙ ignores " + std::to_string(ignored) +
                  " action(s): " + std::to_string(r->dropped_unreachable) + " cannot apply, " +
                  std::to_string(r->dropped_irrelevant) + " cannot matter to the goal, " +
                  std::to_string(r->dropped_dominated) + " duplicate(s) of a cheaper action, " +
                  std::to_string(r->dropped_noop) + " without effect");
  // Values with several producers in the reformulated task (every action there is relevant;
  // "Name [k]" is the k-th copy of an action made by a merge).
  const Domain& d = r->domain;
  std::map<std::pair<VarId, ValueId>, std::set<std::string>> producers;
  for (ActionId a = 0; a < d.num_actions(); ++a)
    for (const Effect& e : d.effects(a)) producers[{e.var, e.post}].insert(d.action_name(a));
  int32_t listed = 0, more = 0;
  for (const auto& [slot, names] : producers) {
    if (names.size() < 2) continue;
    if (listed == 6) {
      ++more;
      continue;
    }
    ++listed;
    std::string s;
    size_t k = 0;
    for (const std::string& n : names) {
      if (k == 4) {
        s += " and " + std::to_string(names.size() - 4) + " more";
        break;
      }
      s += (k == 0 ? "" : k + 1 == names.size() ? " and " : ", ") + ("'" + n + "'");
      ++k;
    }
    out.push_back(s + (names.size() == 2 ? " both produce " : " all produce ") +
                  d.variable_name(slot.first) + "=" + d.value_name(slot.first, slot.second) +
                  ": ℙ chooses between " + std::to_string(names.size()) + " producers");
  }
  if (more > 0) out.push_back(std::to_string(more) + " more value(s) with several producers");
  return out;
}

}  // namespace topoplan

// The C API: the class analysis (docs/classes.md).
#include "internal.h"

#include <span>
#include <string>
#include <vector>

#include "topoplan/runtime/analysis.h"

using namespace topoplan;        // NOLINT(google-build-using-namespace)
using namespace topoplan::capi;  // NOLINT(google-build-using-namespace)

// The definitions below take C linkage from their declarations in topoplan.h.

// ------------------------------------------------------------------------------------------------
// Class analysis

namespace {
void fill_report(const ClassReport& r, topoplan_class_report* report) {
  *report = topoplan_class_report{};
  report->num_analysed = r.num_analysed;
  report->unary = r.unary ? 1 : 0;
  report->post_unique = r.post_unique ? 1 : 0;
  report->single_valued = r.single_valued ? 1 : 0;
  report->pre_defined = r.pre_defined ? 1 : 0;
  report->structural_class = static_cast<int32_t>(r.structural_class);
  report->num_requestable = static_cast<int32_t>(r.requestable.size());
}
}  // namespace

topoplan_status topoplan_check(const topoplan_task* task, int32_t npc_class,
                               topoplan_class_report* report, char* why_not, size_t why_not_size) {
  return guarded(why_not, why_not_size, [&]() -> topoplan_status {
    if (task == nullptr || report == nullptr)
      return fail(TOPOPLAN_INVALID_ARGUMENT, "task or report is NULL", why_not, why_not_size);
    if (!valid_class(task->task.domain, npc_class))
      return fail(TOPOPLAN_INVALID_ARGUMENT, "npc_class out of range", why_not, why_not_size);
    const ClassReport r = analyze(task->task.domain, npc_class);
    fill_report(r, report);
    copy_text(r.why_not, why_not, why_not_size);
    return TOPOPLAN_OK;
  });
}
static_assert(static_cast<int>(StructuralClass::kC0) == TOPOPLAN_CLASS_C0 &&
              static_cast<int>(StructuralClass::kC2S) == TOPOPLAN_CLASS_C2S &&
              static_cast<int>(StructuralClass::kC2Star) == TOPOPLAN_CLASS_C2STAR &&
              static_cast<int>(StructuralClass::kNone) == TOPOPLAN_CLASS_NONE);

// ------------------------------------------------------------------------------------------------
// The analysis handle: the report and flat copies of what C callers read.

struct topoplan_analysis {
  struct Variable {
    std::vector<int32_t> edges;  // pairs
    std::vector<int32_t> ghost_values;
  };
  topoplan::ClassReport report;
  std::vector<std::string> lines;
  std::vector<int32_t> pre_pairs, prv_pairs;
  std::vector<int32_t> flags;  // per action of the domain
  std::vector<Variable> variables;
};

namespace {

void flatten(std::span<const ActionEdge> edges, std::vector<int32_t>& pairs) {
  pairs.clear();
  for (const ActionEdge& e : edges) {
    pairs.push_back(e.from);
    pairs.push_back(e.to);
  }
}

std::string names(const Domain& d, std::span<const ActionId> as) {
  std::string s;
  for (size_t i = 0; i < as.size(); ++i) s += (i ? ", " : "") + d.action_name(as[i]);
  return s.empty() ? "-" : s;
}

// Every restriction that fails, with its offenders, then why the next smaller class does not
// hold and the other violations.
std::vector<std::string> report_lines(const Domain& d, const ClassReport& r) {
  std::vector<std::string> w;
  for (ActionId a : r.non_unary)
    w.push_back("not unary: " + d.action_name(a) + " has " + std::to_string(d.effects(a).size()) +
                " effects");
  for (const PostConflict& pc : r.post_conflicts)
    w.push_back("not post-unique: " + d.variable_name(pc.var) + "=" +
                d.value_name(pc.var, pc.post) + " is set by " + names(d, pc.actions));
  for (const PrevailConflict& pc : r.prevail_conflicts) {
    std::string s;
    for (size_t i = 0; i < pc.values.size(); ++i)
      s += std::string(i ? ", " : "") + d.value_name(pc.var, pc.values[i]) + " (" +
           d.action_name(pc.witnesses[i]) + ")";
    w.push_back("not single-valued: " + d.variable_name(pc.var) + " is required at " + s);
  }
  if (!r.undefined_pre.empty())
    w.push_back("undefined pre-conditions: " + names(d, r.undefined_pre));
  if (!r.why_not.empty()) w.push_back("why not smaller: " + r.why_not);
  for (const ClassViolation& v : r.violations)
    if (v.message != r.why_not) w.push_back(v.message);
  return w;
}

const int32_t* data_or_null(const std::vector<int32_t>& v) {
  return v.empty() ? nullptr : v.data();
}

int32_t size32(size_t n) {
  return static_cast<int32_t>(n);
}

}  // namespace

topoplan_status topoplan_analysis_create(const topoplan_task* task, int32_t npc_class,
                                         topoplan_analysis** out) {
  return guarded(nullptr, 0, [&]() -> topoplan_status {
    if (out == nullptr) return TOPOPLAN_INVALID_ARGUMENT;
    *out = nullptr;
    if (task == nullptr || !valid_class(task->task.domain, npc_class))
      return TOPOPLAN_INVALID_ARGUMENT;
    const Domain& d = task->task.domain;
    auto a = std::make_unique<topoplan_analysis>();
    a->report = analyze(d, npc_class);
    const ClassReport& r = a->report;
    a->lines = report_lines(d, r);
    flatten(r.pre_edges, a->pre_pairs);
    flatten(r.prv_edges, a->prv_pairs);
    a->flags.assign(static_cast<size_t>(d.num_actions()), 0);
    for (size_t i = 0; i < a->flags.size(); ++i)
      a->flags[i] = (r.analysed[i] ? TOPOPLAN_ACTION_ANALYSED : 0) |
                    (r.is_requestable[i] ? TOPOPLAN_ACTION_REQUESTABLE : 0) |
                    (r.on_cycle[i] ? TOPOPLAN_ACTION_ON_CYCLE : 0);
    for (const VariableReport& v : r.variables) {
      topoplan_analysis::Variable flat;
      flatten(v.edges, flat.edges);
      flat.ghost_values.assign(v.ghost_values.begin(), v.ghost_values.end());
      a->variables.push_back(std::move(flat));
    }
    *out = a.release();
    return TOPOPLAN_OK;
  });
}

void topoplan_analysis_free(topoplan_analysis* analysis) {
  delete analysis;
}

topoplan_status topoplan_analysis_report(const topoplan_analysis* analysis,
                                         topoplan_class_report* report) {
  if (analysis == nullptr || report == nullptr) return TOPOPLAN_INVALID_ARGUMENT;
  fill_report(analysis->report, report);
  return TOPOPLAN_OK;
}

const char* topoplan_analysis_why_not(const topoplan_analysis* analysis) {
  return analysis == nullptr ? nullptr : analysis->report.why_not.c_str();
}

int32_t topoplan_analysis_num_lines(const topoplan_analysis* analysis) {
  return analysis == nullptr ? -1 : size32(analysis->lines.size());
}

const char* topoplan_analysis_line(const topoplan_analysis* analysis, int32_t index) {
  const std::string* line = analysis == nullptr ? nullptr : at_index(analysis->lines, index);
  return line == nullptr ? nullptr : line->c_str();
}

int32_t topoplan_analysis_action_flags(const topoplan_analysis* analysis, int32_t action) {
  if (analysis == nullptr || action < 0 || static_cast<size_t>(action) >= analysis->flags.size())
    return -1;
  return analysis->flags[static_cast<size_t>(action)];
}

int32_t topoplan_analysis_edges(const topoplan_analysis* analysis, int32_t kind,
                                const int32_t** pairs) {
  if (analysis == nullptr || pairs == nullptr ||
      (kind != TOPOPLAN_EDGES_PRE && kind != TOPOPLAN_EDGES_PRV))
    return -1;
  const std::vector<int32_t>& v =
      kind == TOPOPLAN_EDGES_PRE ? analysis->pre_pairs : analysis->prv_pairs;
  *pairs = data_or_null(v);
  return size32(v.size() / 2);
}

topoplan_status topoplan_analysis_variable(const topoplan_analysis* analysis, int32_t var,
                                           topoplan_variable_graph* out) {
  const VariableReport* found =
      analysis == nullptr ? nullptr : at_index(analysis->report.variables, var);
  if (found == nullptr || out == nullptr) return TOPOPLAN_INVALID_ARGUMENT;
  const VariableReport& v = *found;
  const topoplan_analysis::Variable& flat = analysis->variables[static_cast<size_t>(var)];
  *out = topoplan_variable_graph{};
  out->var = v.var;
  out->components = v.components;
  out->num_actions = size32(v.actions.size());
  out->num_edges = size32(v.edges.size());
  out->num_requestable = size32(v.requestable.size());
  out->num_ghost_values = size32(flat.ghost_values.size());
  out->num_cycles = size32(v.cycles.size());
  out->actions = data_or_null(v.actions);
  out->edges = data_or_null(flat.edges);
  out->requestable = data_or_null(v.requestable);
  out->ghost_values = data_or_null(flat.ghost_values);
  return TOPOPLAN_OK;
}

topoplan_status topoplan_analysis_cycle(const topoplan_analysis* analysis, int32_t var,
                                        int32_t index, topoplan_cycle* out) {
  const VariableReport* v =
      analysis == nullptr ? nullptr : at_index(analysis->report.variables, var);
  const DomainCycle* found = v == nullptr ? nullptr : at_index(v->cycles, index);
  if (found == nullptr || out == nullptr) return TOPOPLAN_INVALID_ARGUMENT;
  const DomainCycle& c = *found;
  *out = topoplan_cycle{
      c.simple ? 1 : 0,        size32(c.actions.size()),   size32(c.requestable.size()), 0,
      data_or_null(c.actions), data_or_null(c.requestable)};
  return TOPOPLAN_OK;
}

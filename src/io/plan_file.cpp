// Plan files (Fast Downward's form) and "var=value, ..." states from the command line.
#include <cctype>
#include <string>
#include <unordered_map>

#include "text.h"
#include "topoplan/io/formats.h"

namespace topoplan {
namespace {

using io_detail::quote;

std::string lower(std::string_view s) {
  std::string out(s);
  for (char& c : out) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return out;
}

std::vector<std::string_view> action_names_if_short(const Domain& d) {
  std::vector<std::string_view> names;
  if (d.num_actions() <= 10)
    for (ActionId a = 0; a < d.num_actions(); ++a) names.push_back(d.action_name(a));
  return names;
}

}  // namespace

Result<std::vector<ActionId>> parse_plan(const Domain& domain, std::string_view text,
                                         const std::string& filename) {
  // A byte-order mark (editors on Windows write one) is not part of the first action's name.
  if (text.starts_with("\xEF\xBB\xBF")) text.remove_prefix(3);
  std::vector<ActionId> plan;
  // Case-insensitive fallback index, built on first need: lowercase name → action, or -2 when
  // two actions share it (then only the exact spelling is accepted).
  std::unordered_map<std::string, ActionId> folded;
  bool folded_built = false;
  io_detail::Lines lines(text);
  std::string_view line;
  while (lines.next(line)) {
    const int line_no = lines.number();
    if (const char* bad = io_detail::first_control(line))
      return Error{*bad == '\0' ? "NUL byte in the plan file (binary data?)"
                                : "control character in the plan file",
                   filename, line_no};
    line = io_detail::trim(line);
    if (line.empty() || line.front() == ';') continue;
    if (line.size() < 2 || line.front() != '(' || line.back() != ')')
      return Error{"expected '(action name)', found " + quote(line), filename, line_no};
    const std::string_view name = line.substr(1, line.size() - 2);
    if (auto a = domain.find_action(name)) {
      plan.push_back(*a);
      continue;
    }
    if (!folded_built) {
      folded_built = true;
      for (ActionId a = 0; a < domain.num_actions(); ++a) {
        auto [it, inserted] = folded.emplace(lower(domain.action_name(a)), a);
        if (!inserted) it->second = -2;
      }
    }
    auto it = folded.find(lower(name));
    if (it != folded.end() && it->second >= 0) {
      plan.push_back(it->second);
      continue;
    }
    if (it != folded.end())
      return Error{"action " + quote(name) +
                       " does not match exactly and matches several actions when case is ignored",
                   filename, line_no};
    return Error{
        "unknown action " + quote(name) + io_detail::list_if_short(action_names_if_short(domain)),
        filename, line_no};
  }
  return plan;
}

std::string write_plan(const Domain& domain, std::span<const ActionId> plan) {
  std::string out;
  int64_t cost = 0;
  for (ActionId a : plan) {
    out += '(';
    for (char c : domain.action_name(a)) out += (c == '\n' || c == '\r') ? ' ' : c;
    out += ")\n";
    cost = io_detail::add_saturating(cost, domain.cost(a));
  }
  out += "; cost = " + std::to_string(cost) +
         (domain.unit_cost() ? " (unit cost)\n" : " (general cost)\n");
  return out;
}

Result<std::vector<ValueId>> parse_state_by_names(const Domain& domain, std::string_view text) {
  std::vector<ValueId> state(static_cast<size_t>(domain.num_variables()), kUndefined);
  if (io_detail::trim(text).empty()) return state;
  // Value names may contain commas (Fast Downward's "Atom at(a, b)"), so an entry extends over
  // the following comma-separated pieces until its text is a value of its variable.
  std::vector<std::string_view> pieces;
  size_t start = 0;
  while (true) {
    const size_t comma = text.find(',', start);
    pieces.push_back(text.substr(
        start, comma == std::string_view::npos ? std::string_view::npos : comma - start));
    if (comma == std::string_view::npos) break;
    start = comma + 1;
  }
  auto fail = [](std::string msg) { return Error{std::move(msg), {}, 0}; };
  for (size_t i = 0; i < pieces.size();) {
    const std::string_view piece = pieces[i];
    if (io_detail::trim(piece).empty())
      return fail("empty entry in " + quote(text) + " (expected 'variable=value, ...')");
    const size_t eq = piece.find('=');
    if (eq == std::string_view::npos)
      return fail("expected 'variable=value', found " + quote(io_detail::trim(piece)));
    const std::string_view var_name = io_detail::trim(piece.substr(0, eq));
    const auto var = domain.find_variable(var_name);
    if (!var) {
      std::vector<std::string_view> names;
      if (domain.num_variables() <= 10)
        for (VarId v = 0; v < domain.num_variables(); ++v) names.push_back(domain.variable_name(v));
      return fail("unknown variable " + quote(var_name) + io_detail::list_if_short(names));
    }
    if (state[static_cast<size_t>(*var)] != kUndefined)
      return fail("variable " + quote(var_name) + " is given twice");
    // value text starts right after '=' in the original string
    const size_t value_begin = static_cast<size_t>(piece.data() - text.data()) + eq + 1;
    std::optional<ValueId> value;
    size_t j = i;
    for (; j < pieces.size(); ++j) {
      const size_t value_end =
          static_cast<size_t>(pieces[j].data() - text.data()) + pieces[j].size();
      value = domain.find_value(*var,
                                io_detail::trim(text.substr(value_begin, value_end - value_begin)));
      if (value) break;
    }
    if (!value) {
      const std::string_view first = io_detail::trim(piece.substr(eq + 1));
      std::vector<std::string_view> names;
      if (domain.domain_size(*var) <= 10)
        for (ValueId x = 0; x < domain.domain_size(*var); ++x)
          names.push_back(domain.value_name(*var, x));
      return fail("unknown value " + quote(first) + " for variable " + quote(var_name) +
                  io_detail::list_if_short(names));
    }
    state[static_cast<size_t>(*var)] = *value;
    i = j + 1;
  }
  return state;
}

}  // namespace topoplan

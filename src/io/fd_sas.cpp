// Fast Downward SAS (version 3): reader and writer. Format: docs/formats.md (after Fast
// Downward's docs/translator-output-format.md).
//
// The reader walks the text line by line (no copy of the file, no reserve() from claimed
// counts), so a file that claims a billion operators fails at its end, after reading what it
// really holds. Every check that can name a line is done here; Domain::compile re-validates.
#include <charconv>
#include <string>
#include <unordered_map>
#include <unordered_set>

#include "text.h"
#include "topoplan/io/formats.h"

namespace topoplan {
namespace {

using io_detail::quote;

class FdReader {
 public:
  FdReader(std::string_view text, const std::string& filename) : file_(filename), lines_(text) {
    // Line number reported for "unexpected end of file": the last line of the file.
    int lines = 0;
    for (char c : text) lines += (c == '\n');
    if (!text.empty() && text.back() != '\n') ++lines;
    eof_line_ = lines < 1 ? 1 : lines;
  }

  Result<Task> read();

 private:
  // Moves to the next non-blank line (CR of a CRLF ending removed) in line_/line_no_.
  // Returns 1 on a line, 0 at the end of the text, -1 on a control character (err_ set).
  int advance() {
    std::string_view line;
    while (lines_.next(line)) {
      const int at = lines_.number();
      if (const char* bad = io_detail::first_control(line)) {
        const char c = *bad;
        if (c == '\0')
          fail(at, "NUL byte in the file (binary data?)");
        else if (c == '\r')
          fail(at, "carriage return inside a line");
        else
          fail(at, "control character " + quote(std::string_view(&c, 1)) + " in the file");
        return -1;
      }
      if (io_detail::trim(line).empty()) continue;
      line_ = line;
      line_no_ = at;
      return 1;
    }
    return 0;
  }

  bool next_line(const char* expected) {
    const int r = advance();
    if (r == 0) return fail(eof_line_, std::string("unexpected end of file: expected ") + expected);
    return r > 0;
  }

  bool fail(int line, std::string message) {
    err_ = Error{std::move(message), file_, line};
    return false;
  }

  bool keyword(std::string_view kw) {
    if (!next_line(std::string("'").append(kw).append("'").c_str())) return false;
    if (io_detail::trim(line_) != kw)
      return fail(line_no_,
                  "expected '" + std::string(kw) + "', found " + quote(io_detail::trim(line_)));
    return true;
  }

  // Reads a line of integers into nums_ (at most `max_tokens`, so a long line is cheap to
  // reject).
  bool numbers(const char* what, size_t max_tokens) {
    if (!next_line(what)) return false;
    nums_.clear();
    std::string_view rest = line_;
    while (true) {
      rest = io_detail::trim(rest);
      if (rest.empty()) break;
      size_t end = 0;
      while (end < rest.size() && !io_detail::is_blank_char(rest[end])) ++end;
      const std::string_view tok = rest.substr(0, end);
      rest.remove_prefix(end);
      if (nums_.size() == max_tokens)
        return fail(line_no_, std::string("too many numbers on the line (expected ") + what + ")");
      int64_t v = 0;
      const char* first = tok.data();
      const char* last = tok.data() + tok.size();
      auto [ptr, ec] = std::from_chars(first, last, v);
      if (ec == std::errc::result_out_of_range)
        return fail(line_no_, "number " + quote(tok) + " is out of range (expected " + what + ")");
      if (ec != std::errc() || ptr != last)
        return fail(line_no_, "expected " + std::string(what) + ", found " + quote(tok));
      nums_.push_back(v);
    }
    return true;
  }

  // One integer alone on its line, in [lo, hi].
  bool number(const char* what, int64_t lo, int64_t hi, int64_t& out) {
    if (!numbers(what, 1)) return false;
    if (nums_.size() != 1) return fail(line_no_, std::string("expected ") + what);
    out = nums_[0];
    if (out < lo || out > hi)
      return fail(line_no_, std::string(what) + " " + std::to_string(out) + " is out of range (" +
                                std::to_string(lo) + ".." + std::to_string(hi) + ")");
    return true;
  }

  bool name(const char* what, std::string& out) {
    if (!next_line(what)) return false;
    if (auto why = io_detail::name_problem(line_))
      return fail(line_no_, std::string(what) + " " + quote(line_) + " " + *why);
    out.assign(line_);
    return true;
  }

  bool check_var(int64_t v, int line) {
    if (v < 0 || v >= num_vars())
      return fail(line, "variable " + std::to_string(v) + " out of range (the task has " +
                            std::to_string(num_vars()) + " variables)");
    return true;
  }
  bool check_value(int64_t v, int64_t x, bool allow_undefined, int line) {
    if (allow_undefined && x == -1) return true;
    const auto& var = def_.variables[static_cast<size_t>(v)];
    if (x < 0 || x >= static_cast<int64_t>(var.values.size()))
      return fail(line, "value " + std::to_string(x) + " out of range for variable " +
                            quote(var.name) + " (" + std::to_string(var.values.size()) +
                            " values)");
    return true;
  }
  int64_t num_vars() const { return static_cast<int64_t>(def_.variables.size()); }

  bool read_variables();
  bool read_mutexes();
  bool read_state(Instance& inst);
  bool read_goal(Instance& inst);
  bool read_operators(bool use_costs);

  const std::string& file_;
  io_detail::Lines lines_;
  int eof_line_ = 1;
  std::string_view line_;
  int line_no_ = 0;
  std::vector<int64_t> nums_;
  Error err_;
  DomainDef def_;
};

bool FdReader::read_variables() {
  int64_t n = 0;
  if (!number("the number of variables", 1, kMaxVariables, n)) return false;
  std::unordered_map<std::string, int> var_lines;
  for (int64_t i = 0; i < n; ++i) {
    if (!keyword("begin_variable")) return false;
    VariableDef var;
    if (!name("variable name", var.name)) return false;
    const int name_line = line_no_;
    if (auto [it, inserted] = var_lines.emplace(var.name, name_line); !inserted)
      return fail(name_line, "duplicate variable name " + quote(var.name) + " (first at line " +
                                 std::to_string(it->second) + ")");
    int64_t layer = 0;
    if (!number("the axiom layer", -1, INT32_MAX, layer)) return false;
    if (layer >= 0)
      return fail(line_no_, "variable " + quote(var.name) + " is a derived variable (axiom layer " +
                                std::to_string(layer) + "); derived variables are not supported");
    int64_t r = 0;
    if (!number("the number of values", 1, kMaxDomainSize, r)) return false;
    std::unordered_set<std::string> seen;
    for (int64_t x = 0; x < r; ++x) {
      std::string value;
      if (!name("value name", value)) return false;
      if (!seen.insert(value).second)
        return fail(line_no_,
                    "variable " + quote(var.name) + ": duplicate value name " + quote(value));
      var.values.push_back(std::move(value));
    }
    if (!keyword("end_variable")) return false;
    def_.variables.push_back(std::move(var));
  }
  return true;
}

bool FdReader::read_mutexes() {
  // Mutex groups are checked for range and then dropped: they carry no semantics for search.
  int64_t m = 0;
  if (!number("the number of mutex groups", 0, INT32_MAX, m)) return false;
  for (int64_t g = 0; g < m; ++g) {
    if (!keyword("begin_mutex_group")) return false;
    int64_t k = 0;
    if (!number("the size of the mutex group", 0, INT32_MAX, k)) return false;
    for (int64_t i = 0; i < k; ++i) {
      if (!numbers("'VAR VAL'", 2)) return false;
      if (nums_.size() != 2) return fail(line_no_, "expected 'VAR VAL'");
      if (!check_var(nums_[0], line_no_) || !check_value(nums_[0], nums_[1], false, line_no_))
        return false;
    }
    if (!keyword("end_mutex_group")) return false;
  }
  return true;
}

bool FdReader::read_state(Instance& inst) {
  if (!keyword("begin_state")) return false;
  for (int64_t v = 0; v < num_vars(); ++v) {
    int64_t x = 0;
    if (!number("an initial value", 0, INT32_MAX, x)) return false;
    if (!check_value(v, x, false, line_no_)) return false;
    inst.init.push_back(static_cast<ValueId>(x));
  }
  return keyword("end_state");
}

bool FdReader::read_goal(Instance& inst) {
  if (!keyword("begin_goal")) return false;
  int64_t g = 0;
  if (!number("the goal size", 1, num_vars(), g)) return false;
  inst.goal.assign(static_cast<size_t>(num_vars()), kUndefined);
  for (int64_t i = 0; i < g; ++i) {
    if (!numbers("'VAR VAL'", 2)) return false;
    if (nums_.size() != 2) return fail(line_no_, "expected 'VAR VAL'");
    if (!check_var(nums_[0], line_no_) || !check_value(nums_[0], nums_[1], false, line_no_))
      return false;
    auto& slot = inst.goal[static_cast<size_t>(nums_[0])];
    if (slot != kUndefined)
      return fail(line_no_, "variable " +
                                quote(def_.variables[static_cast<size_t>(nums_[0])].name) +
                                " appears twice in the goal");
    slot = static_cast<ValueId>(nums_[1]);
  }
  return keyword("end_goal");
}

bool FdReader::read_operators(bool use_costs) {
  int64_t o = 0;
  if (!number("the number of operators", 0, kMaxActions, o)) return false;
  std::unordered_map<std::string, int> op_lines;
  // owner[v] = index of the last operator that mentioned v (catches repeats in O(1)).
  std::vector<int64_t> owner(static_cast<size_t>(num_vars()), -1);
  for (int64_t i = 0; i < o; ++i) {
    if (!keyword("begin_operator")) return false;
    ActionDef act;
    if (!name("operator name", act.name)) return false;
    if (auto [it, inserted] = op_lines.emplace(act.name, line_no_); !inserted)
      return fail(line_no_, "duplicate operator name " + quote(act.name) + " (first at line " +
                                std::to_string(it->second) + ")");
    const std::string who = "operator " + quote(act.name);
    int64_t p = 0;
    if (!number("the number of prevail conditions", 0, num_vars(), p)) return false;
    for (int64_t k = 0; k < p; ++k) {
      if (!numbers("'VAR VAL'", 2)) return false;
      if (nums_.size() != 2) return fail(line_no_, "expected 'VAR VAL' (prevail condition)");
      if (!check_var(nums_[0], line_no_) || !check_value(nums_[0], nums_[1], false, line_no_))
        return false;
      auto& own = owner[static_cast<size_t>(nums_[0])];
      if (own == i)
        return fail(line_no_, who + ": two prevail conditions on variable " +
                                  quote(def_.variables[static_cast<size_t>(nums_[0])].name));
      own = i;
      act.prevail.push_back(Fact{static_cast<VarId>(nums_[0]), static_cast<ValueId>(nums_[1])});
    }
    int64_t e = 0;
    if (!number("the number of effects", 1, num_vars(), e)) return false;
    for (int64_t k = 0; k < e; ++k) {
      // Room for the longest legal line (C <= N conditions) so a conditional effect is named
      // as such rather than as a long line.
      if (!numbers("an effect 'C VAR PRE POST'", 2 * static_cast<size_t>(num_vars()) + 4))
        return false;
      if (!nums_.empty() && nums_[0] != 0)
        return fail(line_no_, who +
                                  " has a conditional effect; conditional effects are not "
                                  "supported");
      if (nums_.size() != 4) return fail(line_no_, "expected an effect '0 VAR PRE POST'");
      const int64_t v = nums_[1];
      if (!check_var(v, line_no_) || !check_value(v, nums_[2], true, line_no_) ||
          !check_value(v, nums_[3], false, line_no_))
        return false;
      auto& own = owner[static_cast<size_t>(v)];
      if (own == i)
        return fail(line_no_, who + ": variable " +
                                  quote(def_.variables[static_cast<size_t>(v)].name) +
                                  " appears twice among its prevail conditions and effects");
      own = i;
      act.effects.push_back(Effect{static_cast<VarId>(v), static_cast<ValueId>(nums_[2]),
                                   static_cast<ValueId>(nums_[3])});
    }
    int64_t cost = 0;
    if (!number("the operator cost", 0, kMaxCost, cost)) return false;
    act.cost = use_costs ? cost : 1;
    if (!keyword("end_operator")) return false;
    def_.actions.push_back(std::move(act));
  }
  return true;
}

Result<Task> FdReader::read() {
  Instance inst;
  int64_t version = 0;
  int64_t metric = 0;
  int64_t axioms = 0;
  const bool ok =
      keyword("begin_version") && number("the version", 3, 3, version) && keyword("end_version") &&
      keyword("begin_metric") && number("the metric", 0, 1, metric) && keyword("end_metric") &&
      read_variables() && read_mutexes() && read_state(inst) && read_goal(inst) &&
      read_operators(metric == 1) && number("the number of axioms", 0, INT32_MAX, axioms) &&
      (axioms == 0 ? true
                   : fail(line_no_, "the task has " + std::to_string(axioms) +
                                        " axiom rules; axioms are not supported"));
  if (!ok) return err_;
  // Nothing but blank lines may follow.
  if (const int r = advance(); r != 0) {
    if (r < 0) return err_;
    return Error{"unexpected content after the axioms: " + quote(io_detail::trim(line_)), file_,
                 line_no_};
  }

  // Domain name: the file name without directory and extension (FD tasks have none).
  std::string_view stem = file_;
  if (auto slash = stem.find_last_of("/\\"); slash != std::string_view::npos)
    stem.remove_prefix(slash + 1);
  if (auto dot = stem.rfind('.'); dot != std::string_view::npos && dot > 0)
    stem = stem.substr(0, dot);
  def_.name = std::string(stem);

  auto domain = Domain::compile(def_);
  if (!domain) return Error{domain.error().message, file_, 0};
  inst.npc_class = kAllActions;
  if (auto bad = domain->check_instance(inst)) return Error{bad->message, file_, 0};
  Task task{std::move(domain).value(), {}};
  task.instances.push_back(std::move(inst));
  return task;
}

void append_line(std::string& out, std::string_view s) {
  // Names of a valid domain have no line breaks; keep the file line-structured regardless.
  for (char c : s) out += (c == '\n' || c == '\r') ? ' ' : c;
  out += '\n';
}

}  // namespace

Result<Task> parse_fd_sas(std::string_view text, const std::string& filename) {
  // A UTF-8 byte-order mark (editors on Windows write one) is not part of the first line.
  if (text.starts_with("\xEF\xBB\xBF")) text.remove_prefix(3);
  FdReader reader(text, filename);
  return reader.read();
}

std::string write_fd_sas(const Domain& domain, const Instance& instance) {
  const auto mask = domain.action_mask(instance.npc_class);
  bool unit = true;
  int64_t count = 0;
  for (ActionId a = 0; a < domain.num_actions(); ++a) {
    if (!mask[static_cast<size_t>(a)]) continue;
    ++count;
    if (domain.cost(a) != 1) unit = false;
  }
  std::string out = "begin_version\n3\nend_version\nbegin_metric\n";
  out += unit ? "0\n" : "1\n";
  out += "end_metric\n";
  out += std::to_string(domain.num_variables()) + "\n";
  for (VarId v = 0; v < domain.num_variables(); ++v) {
    out += "begin_variable\n";
    append_line(out, domain.variable_name(v));
    out += "-1\n" + std::to_string(domain.domain_size(v)) + "\n";
    for (ValueId x = 0; x < domain.domain_size(v); ++x) append_line(out, domain.value_name(v, x));
    out += "end_variable\n";
  }
  out += "0\nbegin_state\n";
  for (size_t v = 0; v < instance.init.size(); ++v) out += std::to_string(instance.init[v]) + "\n";
  out += "end_state\nbegin_goal\n";
  int64_t goal_size = 0;
  for (ValueId g : instance.goal) goal_size += (g != kUndefined);
  out += std::to_string(goal_size) + "\n";
  for (size_t v = 0; v < instance.goal.size(); ++v)
    if (instance.goal[v] != kUndefined)
      out += std::to_string(v) + " " + std::to_string(instance.goal[v]) + "\n";
  out += "end_goal\n" + std::to_string(count) + "\n";
  for (ActionId a = 0; a < domain.num_actions(); ++a) {
    if (!mask[static_cast<size_t>(a)]) continue;
    out += "begin_operator\n";
    append_line(out, domain.action_name(a));
    out += std::to_string(domain.prevail(a).size()) + "\n";
    for (const Fact& f : domain.prevail(a))
      out += std::to_string(f.var) + " " + std::to_string(f.value) + "\n";
    out += std::to_string(domain.effects(a).size()) + "\n";
    for (const Effect& e : domain.effects(a))
      out += "0 " + std::to_string(e.var) + " " + std::to_string(e.pre) + " " +
             std::to_string(e.post) + "\n";
    out += std::to_string(domain.cost(a)) + "\nend_operator\n";
  }
  out += "0\n";
  return out;
}

}  // namespace topoplan

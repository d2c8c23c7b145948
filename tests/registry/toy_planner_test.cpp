// A planner the library has never heard of, registered by this test, runs through the CLI's
// `plan` and `bench` commands (cli, linked in-process as topoplan_cli_commands),
// through the bench runner and as the crowd's fallback (crowd.h, "Planner chain"), without a
// line of theirs naming it: the registry (plan.h) and the
// hot-planner contract (planner.h) are the only seams.
//
// The toy, "first-applicable": from s0, apply the available action of lowest id that is
// applicable and leads to a state not visited yet, until the goal holds; stuck = gave up. It
// has a hot factory and a PlanFn built on it. A second toy, "toy-liar", claims an empty plan
// for every task: bench and plan must catch it with the validator.
#include <gtest/gtest.h>
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <initializer_list>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "bench_run.h"
#include "commands.h"
#include "files.h"
#include "topoplan/io/formats.h"
#include "topoplan/runtime/compiled.h"
#include "topoplan/runtime/crowd.h"
#include "topoplan/runtime/plan.h"
#include "topoplan/runtime/planner.h"
#include "topoplan/runtime/validate.h"

namespace topoplan {
namespace {

bool can_apply(const Domain& d, ActionId a, std::span<const ValueId> s) {
  for (const Effect& e : d.effects(a))
    if (e.pre != kUndefined && s[static_cast<size_t>(e.var)] != e.pre) return false;
  for (const Fact& f : d.prevail(a))
    if (s[static_cast<size_t>(f.var)] != f.value) return false;
  return true;
}

bool satisfies(std::span<const ValueId> s, std::span<const ValueId> goal) {
  for (size_t v = 0; v < goal.size(); ++v)
    if (goal[v] != kUndefined && s[v] != goal[v]) return false;
  return true;
}

struct ToyScratch final : PlanScratch {
  std::vector<ValueId> state, next;
  std::vector<std::vector<ValueId>> visited;
};

class FirstApplicable final : public HotPlanner {
 public:
  explicit FirstApplicable(const CompiledActionSet& set) : set_(set) {}
  [[nodiscard]] std::string_view name() const override { return "first-applicable"; }
  [[nodiscard]] std::unique_ptr<PlanScratch> make_scratch() const override {
    return std::make_unique<ToyScratch>();
  }
  PlanOutcome plan_within(const SearchLimits& /*limits*/, PlanScratch& scratch,
                          std::span<const ValueId> s0, std::span<const ValueId> goal,
                          std::span<ActionId> out, int32_t* len) const override {
    auto& s = static_cast<ToyScratch&>(scratch);
    const Domain& d = set_.domain();
    *len = 0;
    if (s0.size() != static_cast<size_t>(d.num_variables()) || goal.size() != s0.size())
      return {PlanStatus::kGaveUp, kDetailBadInput};
    s.state.assign(s0.begin(), s0.end());
    s.visited.assign(1, s.state);
    while (!satisfies(s.state, goal)) {
      ActionId chosen = -1;
      for (ActionId a : set_.actions()) {
        if (!can_apply(d, a, s.state)) continue;
        s.next = s.state;
        for (const Effect& e : d.effects(a)) s.next[static_cast<size_t>(e.var)] = e.post;
        if (std::find(s.visited.begin(), s.visited.end(), s.next) != s.visited.end()) continue;
        chosen = a;
        break;
      }
      if (chosen < 0) return {PlanStatus::kGaveUp, kDetailNone};
      if (*len >= static_cast<int32_t>(out.size())) {
        *len = max_plan_length();  // enough for any walk of distinct states
        return {PlanStatus::kBufferTooSmall};
      }
      out[static_cast<size_t>((*len)++)] = chosen;
      s.state = s.next;
      s.visited.push_back(s.state);
    }
    return {PlanStatus::kSolved};
  }
  [[nodiscard]] int32_t max_plan_length() const override { return 64; }

 private:
  CompiledActionSet set_;
};

Result<std::unique_ptr<HotPlanner>> create_first_applicable(const CompiledActionSet& set,
                                                            const HotPlannerDef& /*def*/) {
  return std::unique_ptr<HotPlanner>(std::make_unique<FirstApplicable>(set));
}

// The toy's cold path: the hot planner for the instance's class, one call.
PlanResult plan_first_applicable(const Domain& domain, const Instance& instance,
                                 const PlannerOptions& /*options*/) {
  PlanResult r;
  r.stats.engine = "first-applicable";
  auto set = CompiledActionSet::create(domain, instance.npc_class);
  if (!set.ok()) {
    r.message = set.error().to_string();
    return r;
  }
  FirstApplicable planner(set.value());
  auto scratch = planner.make_scratch();
  std::vector<ActionId> out(static_cast<size_t>(planner.max_plan_length()));
  int32_t len = 0;
  const PlanOutcome o = planner.plan(*scratch, instance.init, instance.goal, out, &len);
  r.status = o.status;
  if (o.solved()) {
    r.actions.assign(out.begin(), out.begin() + len);
    r.cost = plan_cost(domain, r.actions);
  } else {
    r.message = planner.explain(*scratch, o);
  }
  return r;
}

class Liar final : public HotPlanner {
 public:
  [[nodiscard]] std::string_view name() const override { return "toy-liar"; }
  [[nodiscard]] std::unique_ptr<PlanScratch> make_scratch() const override {
    return std::make_unique<ToyScratch>();
  }
  PlanOutcome plan_within(const SearchLimits&, PlanScratch&, std::span<const ValueId>,
                          std::span<const ValueId>, std::span<ActionId>,
                          int32_t* len) const override {
    *len = 0;
    return {PlanStatus::kSolved};
  }
  [[nodiscard]] int32_t max_plan_length() const override { return 0; }
};

PlanResult plan_liar(const Domain&, const Instance&, const PlannerOptions&) {
  PlanResult r;
  r.status = PlanStatus::kSolved;
  return r;
}

void register_toys() {
  register_planner({"first-applicable", "test toy: greedy, first applicable action",
                    &plan_first_applicable, &create_first_applicable});
  register_planner(
      {"toy-liar", "test toy: claims the empty plan", &plan_liar,
       [](const CompiledActionSet&, const HotPlannerDef&) -> Result<std::unique_ptr<HotPlanner>> {
         return std::unique_ptr<HotPlanner>(std::make_unique<Liar>());
       }});
}

// A lamp and a door (the door opens only in light); every instance is solved by the toy.
constexpr const char* kDomain = R"(
[domain]
name = "lamp-and-door"

[[variable]]
name = "lamp"
values = ["off", "on"]

[[variable]]
name = "door"
values = ["closed", "open"]

[[action]]
name = "SwitchOn"
pre = { lamp = "off" }
post = { lamp = "on" }

[[action]]
name = "SwitchOff"
pre = { lamp = "on" }
post = { lamp = "off" }

[[action]]
name = "OpenDoor"
pre = { door = "closed" }
post = { door = "open" }
prevail = { lamp = "on" }

[[action]]
name = "CloseDoor"
pre = { door = "open" }
post = { door = "closed" }

[[instance]]
name = "enter"
init = { lamp = "off", door = "closed" }
goal = { door = "open" }

[[instance]]
name = "leave-dark"
init = { lamp = "on", door = "open" }
goal = { lamp = "off", door = "closed" }
)";

class ToyPlanner : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    register_toys();
    path_ = (std::filesystem::temp_directory_path() /
             ("topoplan-toy-" + std::to_string(::getpid()) + ".toml"))
                .string();
    std::ofstream(path_) << kDomain;
  }
  static void TearDownTestSuite() { std::filesystem::remove(path_); }

  // Runs the CLI's commands in-process, as main.cpp wires them; returns the exit code.
  static int cli(const std::string& args, std::string* out = nullptr) {
    CLI::App app{"topoplan"};
    app.require_subcommand(1);
    cli::add_input_limit_option(app);
    int exit_code = cli::kExitOk;
    cli::add_plan_command(app, exit_code);
    cli::add_bench_command(app, exit_code);
    cli::add_crowd_command(app, exit_code);
    ::testing::internal::CaptureStdout();
    try {
      app.parse(args, false);
    } catch (const CLI::ParseError& e) {
      exit_code = cli::kExitUsage;
    }
    std::fflush(stdout);
    const std::string text = ::testing::internal::GetCapturedStdout();
    if (out != nullptr) *out = text;
    return exit_code;
  }

  // Runs `args`, expects exit code `code` and every one of `wanted` in the output.
  static std::string expect_cli(const std::string& args, int code,
                                std::initializer_list<const char*> wanted = {}) {
    std::string out;
    EXPECT_EQ(cli(args, &out), code) << args;
    for (const char* w : wanted) EXPECT_NE(out.find(w), std::string::npos) << args << ": " << out;
    return out;
  }

  static std::string path_;
};
std::string ToyPlanner::path_;

TEST_F(ToyPlanner, RegisteredWithBothPaths) {
  const PlannerInfo* info = find_planner("first-applicable");
  ASSERT_NE(info, nullptr);
  EXPECT_NE(info->create_hot, nullptr);
  Result<Task> task = load_task(path_, FileFormat::kAuto);
  ASSERT_TRUE(task.ok()) << task.error().to_string();
  for (const Instance& inst : task->instances) {
    const PlanResult r = info->plan(task->domain, inst, {});
    ASSERT_EQ(r.status, PlanStatus::kSolved) << inst.name << ": " << r.message;
    EXPECT_TRUE(validate_plan(task->domain, inst, r.actions).valid) << inst.name;
  }
}

TEST_F(ToyPlanner, PlanCommandRunsIt) {
  // SwitchOn, then OpenDoor (SwitchOff would lead back to the start).
  std::string out = expect_cli("plan " + path_ + " --planner first-applicable", cli::kExitOk,
                               {"(SwitchOn)", "(OpenDoor)"});
  EXPECT_LT(out.find("(SwitchOn)"), out.find("(OpenDoor)")) << out;
  // The second instance by name.
  expect_cli("plan " + path_ + " --instance leave-dark --planner first-applicable", cli::kExitOk,
             {"(CloseDoor)"});
  // The liar's empty plan never reaches the output.
  out = expect_cli("plan " + path_ + " --planner toy-liar", 70);
  EXPECT_EQ(out.find("(SwitchOn)"), std::string::npos) << out;
}

TEST_F(ToyPlanner, BenchRunnerTakesItThroughTheHotFactory) {
  Result<Task> task = load_task(path_, FileFormat::kAuto);
  ASSERT_TRUE(task.ok());
  std::string why;
  auto runner = cli::make_runner("first-applicable", task.value(), 1000, why);
  ASSERT_NE(runner, nullptr) << why;
  for (size_t i = 0; i < task->instances.size(); ++i) EXPECT_TRUE(runner->run(i));
  // The liar fails the validator before anything is timed.
  EXPECT_EQ(cli::make_runner("toy-liar", task.value(), 1000, why), nullptr);
  EXPECT_NE(why.find("invalid plan"), std::string::npos) << why;
}

TEST_F(ToyPlanner, BenchCommandTimesIt) {
  const std::string bench =
      "bench --domain " + path_ + " --planners first-applicable,exact,toy-liar --reps 1";
  expect_cli(bench, cli::kExitOk,
             {"Domain file", "first-applicable ", "exact/first-applicable",
              "skipped: toy-liar: invalid plan"});
  // JSON: ns per plan for the two honest planners, none for the liar.
  const std::string out =
      expect_cli(bench + " --json", cli::kExitOk, {"\"first-applicable\":", "\"exact\":"});
  const auto ns = out.find("\"ns_per_plan\"");
  ASSERT_NE(ns, std::string::npos);
  EXPECT_EQ(out.find("\"toy-liar\":", ns), std::string::npos) << out;
}

// ℙ plans each action at most once; this task needs SwitchOn twice (light to open the door, dark
// to move the box, light again), so ℙ gives up and the crowd hands the NPC to its fallback. The
// two crowd tests below plan it in memory and, written as a domain file, through the CLI.
Result<Domain> lamp_door_box() {
  DomainDef def;
  def.name = "lamp-door-box";
  def.variables = {
      {"lamp", {"off", "on"}}, {"door", {"closed", "open"}}, {"box", {"here", "there"}}};
  auto action = [](std::string name, VarId v, ValueId pre, ValueId post,
                   std::vector<Fact> prevail) {
    ActionDef a;
    a.name = std::move(name);
    a.effects = {{v, pre, post}};
    a.prevail = std::move(prevail);
    return a;
  };
  def.actions = {action("SwitchOn", 0, 0, 1, {}), action("SwitchOff", 0, 1, 0, {}),
                 action("OpenDoor", 1, 0, 1, {{0, 1}}), action("CloseDoor", 1, 1, 0, {}),
                 action("MoveBox", 2, 0, 1, {{1, 1}, {0, 0}})};
  return Domain::compile(def);
}

// Light on and the box moved, from dawn (everything off, closed, here).
Instance box_in_light() {
  Instance inst;
  inst.name = "box-in-light";
  inst.init = {0, 0, 0};
  inst.goal = {1, kUndefined, 1};
  return inst;
}

TEST(ToyPlannerCrowd, CrowdFallbackRunsIt) {
  register_toys();
  Result<Domain> domain = lamp_door_box();
  ASSERT_TRUE(domain.ok()) << domain.error().to_string();
  const Instance inst = box_in_light();
  ASSERT_NE(find_planner("topo")->plan(domain.value(), inst, {}).status, PlanStatus::kSolved);

  Result<CrowdPlanner> planner = CrowdPlanner::create(domain.value());
  ASSERT_TRUE(planner.ok()) << planner.error().to_string();
  CrowdDef crowd_def;
  crowd_def.fallback = {"first-applicable"};
  Result<Crowd> crowd = Crowd::create(planner.value(), crowd_def);
  ASSERT_TRUE(crowd.ok()) << crowd.error().to_string();
  const CrowdLayout& layout = planner->layout();
  std::vector<uint64_t> init(static_cast<size_t>(layout.words())),
      goal(static_cast<size_t>(layout.words()));
  layout.pack_state(inst.init, init.data());
  layout.pack_goal(inst.goal, goal.data());
  const std::vector<uint16_t> npc_class(1, 0);
  std::vector<ActionId> actions(32, -1);
  std::vector<uint32_t> offset(1);
  std::vector<uint16_t> length(1);
  std::vector<CrowdStatus> status(1);
  const CrowdStats stats = crowd->plan({npc_class, init, goal}, {actions, offset, length, status});
  ASSERT_TRUE(status[0] & kCrowdSolved) << status[0];
  EXPECT_TRUE(status[0] & kCrowdFallback);
  EXPECT_EQ(stats.solved_fallback, 1);
  const std::vector<ActionId> plan(actions.begin() + offset[0],
                                   actions.begin() + offset[0] + length[0]);
  // The toy's greedy walk, action for action.
  EXPECT_EQ(plan, (std::vector<ActionId>{0, 2, 1, 4, 0}));
  EXPECT_TRUE(validate_plan(domain.value(), inst, plan).valid);
}

// The same task as a domain file, through `topoplan crowd --fallback first-applicable`: ℙ gives
// up on every NPC (SwitchOn twice), the toy answers them all.
TEST_F(ToyPlanner, CrowdCommandTakesItAsTheFallback) {
  const std::string box = path_ + ".box.toml";
  Result<Domain> domain = lamp_door_box();
  ASSERT_TRUE(domain.ok()) << domain.error().to_string();
  std::ofstream(box) << write_native(Task{std::move(domain).value(), {box_in_light()}});
  const std::string crowd = "crowd --domain " + box + " --npcs 64 --reps 1 --frames 1 --json";
  const std::string out = expect_cli(crowd + " --fallback first-applicable --handles", cli::kExitOk,
                                     {"\"fallback\":\"first-applicable\""});
  const nlohmann::json j = nlohmann::json::parse(out);
  EXPECT_GT(j["solved_by_fallback"].get<double>(), 0.0) << out;
  EXPECT_EQ(j["no_plan"].get<double>(), 0.0) << out;
  // ℙ alone: the same NPCs have no plan.
  const nlohmann::json none =
      nlohmann::json::parse(expect_cli(crowd + " --fallback none", cli::kExitOk));
  EXPECT_GT(none["no_plan"].get<double>(), 0.0);
  expect_cli(crowd + " --fallback no-such-planner", cli::kExitUsage);
  std::filesystem::remove(box);
}

TEST_F(ToyPlanner, BenchDomainErrors) {
  EXPECT_EQ(cli("bench"), cli::kExitUsage);
  EXPECT_EQ(cli("bench western --domain " + path_), cli::kExitUsage);
  EXPECT_EQ(cli("bench --domain " + path_ + ".missing"), cli::kExitInputError);
}

}  // namespace
}  // namespace topoplan

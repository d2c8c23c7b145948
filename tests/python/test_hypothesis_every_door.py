"""Every public function and method of the package (enumerated from topoplan.__all__, so a new
one without a strategy here fails test_every_public_callable_has_a_strategy) called with random
types, shapes, dtypes and values — alongside valid ones — in a subprocess (doors_worker.py),
which checks each result with the library's own judges (the validator, round trips, ranges).
An example passes when the call raised a documented exception or returned a result that holds;
it fails on any other exception, on a refused result, and on a crash or a hang of the worker,
which is then started again for the next example.

TOPOPLAN_HYPOTHESIS_EXAMPLES (default 4 here) sets the examples per callable; the long run of
bench/results/2026-11-27-doors.md used 300."""
import inspect
import os
import pickle
import select
import signal
import struct
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import topoplan as tp

sys.path.insert(0, str(Path(__file__).resolve().parent))
from doors_worker import Ref  # noqa: E402
from hostile_args import arrays, floats, ints, scalars, texts  # noqa: E402

ROOT = Path(os.environ.get("TOPOPLAN_SOURCE_DIR", Path(__file__).resolve().parents[2]))
HORSE = str(ROOT / "domains" / "horse-breeder.toml")
WESTERN = str(ROOT / "domains" / "western.toml")
WIZARD = str(ROOT / "domains" / "udgoap" / "wizard.toml")
ARENA = str(ROOT / "domains" / "sim" / "arena.toml")
EXAMPLES = int(os.environ.get("TOPOPLAN_HYPOTHESIS_EXAMPLES", "4"))
# The suite's short run draws the same examples every time (a red CI run can be replayed); a run
# with TOPOPLAN_HYPOTHESIS_EXAMPLES set explores new ones.
SETTINGS = settings(max_examples=EXAMPLES, deadline=None, database=None,
                    derandomize="TOPOPLAN_HYPOTHESIS_EXAMPLES" not in os.environ,
                    suppress_health_check=list(HealthCheck))
HANG_SECONDS = 120

# ---------------------------------------------------------------------------------------------
# Arguments

refs = st.sampled_from([Ref(n) for n in ("TASK", "WEST", "CROWD_PLANNER", "PLAN_CACHE", "CROWD",
                                         "TOPO", "PLANNER", "WORLD", "AGENT", "INSTANCE",
                                         "AGENT_WORLD", "EVENTS")])


anything = st.recursive(
    st.one_of(scalars, arrays(), refs),
    lambda inner: st.one_of(st.lists(inner, max_size=4),
                            st.dictionaries(st.one_of(texts, ints), inner, max_size=4)),
    max_leaves=8)


def either(valid, *hostile):
    """Usually a valid value, else a hostile one."""
    return st.one_of(valid, *hostile, anything)


TASK = tp.load_task(HORSE)
WEST = tp.load_task(WESTERN)
CP = tp.CrowdPlanner(WEST)
M, MW = len(TASK.variables), len(WEST.variables)
SIZES_W = [len(WEST.values(v)) for v in range(MW)]


def counts(valid_hi, past):
    """A count: valid and small, or one every door must reject (negative, past the limit, the
    wrong type); never a valid request for gigabytes, which is the caller's to make."""
    return st.one_of(st.integers(0, valid_hi), st.sampled_from([-1, -2**31, past + 1, 2**63]),
                     scalars_no_int)


scalars_no_int = st.one_of(st.none(), floats, texts, st.binary(max_size=8))


def state_of(task, m, goal=False):
    sizes = [len(task.values(v)) for v in range(m)]
    return st.tuples(*[st.integers(-1 if goal else 0, n - 1) for n in sizes]).map(list)


states = st.one_of(state_of(TASK, M), st.lists(st.one_of(st.integers(-1, 3), ints, texts),
                                                max_size=M + 2), anything)
west_states = st.one_of(state_of(WEST, MW).map(lambda v: np.array(v, dtype=np.int32)),
                        arrays(np.int32, [MW]), arrays())


west_classes = st.one_of(st.integers(-1, len(WEST.classes)), st.sampled_from(WEST.classes + [""]),
                        ints, texts, st.none())
west_vars = st.one_of(st.integers(-1, MW), st.sampled_from(WEST.variables), ints, texts)
west_actions = st.one_of(st.integers(-1, len(WEST.actions)), st.sampled_from(WEST.actions), ints,
                         texts, anything)
west_goal_dicts = st.dictionaries(st.one_of(st.sampled_from(WEST.variables), texts),
                                  st.one_of(st.sampled_from(sum((WEST.values(v)
                                                                 for v in range(MW)), [])),
                                            st.integers(-2, 4), texts), max_size=3)
goals = st.one_of(west_goal_dicts, state_of(WEST, MW, goal=True), west_states)
agent_ids = either(st.integers(-1, 4), ints)
agent_arrays = st.one_of(st.integers(-1, 4), st.lists(st.integers(-1, 4), max_size=4).map(
    lambda v: np.array(v, dtype=np.int32)), arrays(), anything)


@st.composite
def events(draw):
    """Event records with any field values (agent, kind, detail, step, action, goal)."""
    n = draw(st.integers(0, 4))
    e = np.zeros(n, dtype=tp.EVENT_DTYPE)
    for name in e.dtype.names:
        info = np.iinfo(e.dtype[name])
        e[name] = draw(st.lists(st.integers(info.min, info.max), min_size=n, max_size=n))
    return e


@st.composite
def batches(draw):
    """(npc_class, init, goal): packed valid states of western, or anything."""
    n = draw(st.integers(0, 12))
    if draw(st.booleans()):
        inits = [draw(state_of(WEST, MW)) for _ in range(n)]
        goals = [draw(state_of(WEST, MW, goal=True)) for _ in range(n)]
        init = CP.pack_states(np.array(inits, dtype=np.int32).reshape(n, MW))
        goal = CP.pack_goals(np.array(goals, dtype=np.int32).reshape(n, MW))
        cls = np.array(draw(st.lists(st.integers(0, CP.num_classes + 1), min_size=n, max_size=n)),
                       dtype=np.uint16)
        return cls, init, goal
    return draw(arrays(np.uint16, [n])), draw(arrays(np.uint64, [n * CP.words])), draw(arrays())


def call(*args, **kwargs):
    return st.tuples(st.tuples(*args), st.fixed_dictionaries(kwargs))


def any_call(max_args=3):
    return st.tuples(st.lists(anything, max_size=max_args).map(tuple), st.just({}))


def with_batch(extra):
    return batches().flatmap(lambda b: st.tuples(
        st.tuples(st.just(b[0]), st.just(b[1]), st.just(b[2]), *extra[0]),
        st.fixed_dictionaries(extra[1])))


search_limits = dict(max_expansions=either(st.integers(1, 5000), ints, st.none()),
                     max_memory_bytes=either(st.none(), ints), max_seconds=either(st.none(), floats))
instances = either(st.none(), st.integers(-2, 6), texts, st.just(Ref("INSTANCE")))
names = either(st.sampled_from(TASK.actions + TASK.variables + TASK.classes), texts)
handles = st.one_of(st.integers(0, 2**64 - 1), ints, anything)

STRATEGIES = {
    # Functions
    "load_task": call(either(st.sampled_from([HORSE, WESTERN, HORSE + "\x00x", "/dev/null",
                                              str(ROOT)]), texts), either(st.just("auto"), texts)),
    "parse_task": call(either(st.sampled_from([open(HORSE).read()[:n] for n in (0, 50, 400, 2000)]
                                              + [TASK.to_sas()]), texts),
                       either(st.just("<text>"), texts), either(st.just("auto"), texts)),
    "family": call(either(st.sampled_from(["western", "oneprv-5", "multiprv-n-cycle", "goto-chain"]),
                          texts),
                   either(st.integers(-1, 6), st.sampled_from([4097, 2**31, 2**70])),
                   either(st.integers(0, 4), st.sampled_from([4097, 2**31, -1]))),
    "check": call(either(st.just(Ref("TASK"))), either(st.none(), st.integers(-3, 3), texts)),
    "plan": call(either(st.just(Ref("TASK"))), instances,
                 either(st.sampled_from([p for p in tp.planners() if p not in ("exact", "backstrom")]),
                        texts), **search_limits,
                 objective=either(st.sampled_from(["cost", "length"]), texts)),
    "planners": any_call(1),
    "validate": call(either(st.just(Ref("TASK"))), instances,
                     st.one_of(st.lists(st.one_of(st.integers(-2, 10), ints, texts), max_size=8),
                               anything)),
    "save_task": call(either(st.just(Ref("TASK"))), either(st.sampled_from(["t.toml", "t.sas"]),
                                                           texts, ints, st.booleans()),
                      either(st.sampled_from(["auto", "sas", "native"]), texts)),
    "load_scenario": call(either(st.sampled_from([WIZARD, HORSE, WIZARD + "\x00"]), texts)),
    "simulate": call(either(st.sampled_from([HORSE, WIZARD, "/dev/null"]), texts),
                     either(st.sampled_from(["udgoap", "fsm", "goap"]), texts), ints),
    # Classes: the constructor, then each method on the worker's object.
    "Task": any_call(),
    "Task.from_dict": call(either(st.just(TASK.to_dict()), st.dictionaries(texts, anything))),
    "Task.to_dict": any_call(1),
    "Task.to_native": any_call(1),
    "Task.to_sas": call(instances),
    "Task.values": call(either(st.integers(-1, M), ints, texts)),
    "Task.find_instance": call(either(st.sampled_from([i.name for i in TASK.instances]), texts)),
    "Task.find_instance_index": call(either(st.sampled_from([i.name for i in TASK.instances]),
                                            texts)),
    "Task.find_action": call(names),
    "Task.find_class": call(names),
    "Task.find_variable": call(names),
    "Task.action_cost": call(either(st.integers(-1, len(TASK.actions)), ints)),
    "Task.instance": call(states, st.one_of(state_of(TASK, M, goal=True), states),
                          either(st.none(), st.integers(-2, 3), texts)),
    "Task.state_dict": call(states),
    "Instance": call(either(texts), states, states, either(st.integers(-2, 3), ints)),
    "TopoPlanner": call(either(st.just(Ref("WEST")), st.just(Ref("TASK"))),
                        either(st.none(), st.integers(-2, 3), texts)),
    "TopoPlanner.plan": call(west_states, west_states),
    "TopoPlanner.explain": any_call(1),
    "Planner": call(either(st.just(Ref("TASK"))),
                    either(st.sampled_from([p for p in tp.planners()
                                            if p not in ("exact", "backstrom")]), texts),
                    either(st.none(), st.integers(-2, 3), texts)),
    "Planner.plan": call(state_of(TASK, M), st.one_of(state_of(TASK, M, goal=True), states),
                         either(st.integers(1, 5000), ints)),
    "Planner.explain": any_call(1),
    "CrowdPlanner": call(either(st.just(Ref("WEST")), st.just(Ref("TASK")))),
    "CrowdPlanner.pack_states": call(st.one_of(st.lists(state_of(WEST, MW), max_size=4).map(
        lambda v: np.array(v, dtype=np.int32).reshape(len(v), MW)), arrays())),
    "CrowdPlanner.pack_goals": call(st.one_of(st.lists(state_of(WEST, MW, goal=True), max_size=4)
                                              .map(lambda v: np.array(v, dtype=np.int32)
                                                   .reshape(len(v), MW)), arrays())),
    "CrowdPlanner.unpack_states": call(either(arrays(np.uint64))),
    "CrowdPlanner.unpack_goals": call(either(arrays(np.uint64))),
    "PlanCache": call(either(st.just(Ref("CROWD_PLANNER"))),
                      either(st.integers(-1, 64), st.sampled_from([2**28 + 1, 2**31, -2**31])),
                      either(st.integers(-1, 300), ints),
                      either(st.integers(-1, 4096), st.sampled_from([2**30 + 1, 2**31, -2**31]))),
    "PlanCache.invalidate": any_call(1),
    "PlanCache.resolve": call(handles),
    "PlanCache.stats": any_call(1),
    "Crowd": call(either(st.just(Ref("CROWD_PLANNER"))), either(st.integers(0, 2), ints),
                  either(st.none(), st.just(Ref("PLAN_CACHE"))), either(st.integers(0, 80), ints),
                  either(st.integers(-1, 4096), ints),
                  fallback=either(st.none(), st.sampled_from(["astar", "none", "", ",,", "bogus"])),
                  fallback_budget=either(st.none(), ints),
                  fallback_max_seconds=either(st.none(), floats)),
    "Crowd.plan": with_batch(((), {"handles": either(st.none(), st.just(np.zeros(12, np.uint64)),
                                                     arrays())})),
    "Crowd.plan_frame": with_batch(((either(st.integers(-2, 14), ints),
                                     either(st.just(1.0), floats)), {})),
    "Crowd.resolve": call(handles),
    "UdgoapWorld": any_call(),
    "UdgoapWorld.get_fact": call(either(st.sampled_from(["wizard", "player", "potion"]), texts),
                                 either(st.sampled_from(["health", "mana", "position"]), texts)),
    "UdgoapWorld.set_fact": call(either(st.sampled_from(["wizard", "player", "potion"]), texts),
                                 either(st.sampled_from(["health", "mana", "position"]), texts),
                                 either(floats)),
    "UdgoapAgent": call(either(st.just(Ref("WORLD")))),
    "UdgoapAgent.update": any_call(1),
    "UdgoapAgent.plan": call(either(st.integers(1, 10**4), ints), either(ints),
                             either(st.integers(-2, 40), ints)),
    # The agent runtime: a world of western (AGENT_WORLD: 2 goals, a priority list and a drive
    # list, one drive, 3 agents, one frame run; EVENTS: that frame's events) and the engine calls.
    "AgentWorld": call(either(st.just(Ref("WEST")), st.just(Ref("TASK"))),
                       counts(64, 2**28), counts(100, 2**20), counts(100, 2**63),
                       counts(64, 2**31), counts(255, 256), st.one_of(st.integers(1, 2), st.just(0),
                                                                      st.just(1025), scalars_no_int),
                       either(st.booleans()), counts(256, 2**30), counts(2**16, 2**31)),
    "AgentWorld.add_goal": call(either(texts), goals),
    "AgentWorld.add_goal_list": call(st.one_of(st.lists(st.integers(-1, 3), max_size=4),
                                               st.lists(ints, max_size=3), anything)),
    "AgentWorld.set_class_goals": call(west_classes, either(st.integers(-1, 2), ints)),
    "AgentWorld.goal_name": call(either(st.integers(-1, 3), ints)),
    "AgentWorld.add_agent": call(west_classes, west_states),
    "AgentWorld.add_agents": call(st.one_of(west_classes, arrays(np.int32)),
                                  st.one_of(st.lists(state_of(WEST, MW), max_size=4).map(
                                      lambda v: np.array(v, dtype=np.int32).reshape(len(v), MW)),
                                            arrays())),
    "AgentWorld.add_drive": call(either(texts), either(st.just(0.0), floats),
                                 either(st.just(100.0), floats), either(st.just(-1.0), floats),
                                 either(st.just(50.0), floats)),
    "AgentWorld.add_drive_list": call(st.one_of(st.lists(st.fixed_dictionaries(
        {"goal": either(st.integers(-1, 2)), "drive": either(st.integers(-1, 1), texts)},
        optional={"curve": either(st.sampled_from(["linear", "logistic", "sine"]), texts),
                  "slope": either(floats), "weight": either(floats)}), max_size=3), anything),
        either(st.just(0.1), floats)),
    "AgentWorld.set_action_drive": call(west_actions, either(st.integers(-1, 1), texts),
                                        either(floats)),
    "AgentWorld.set_drives": call(agent_arrays, either(st.integers(-1, 1), texts),
                                  st.one_of(arrays(np.float64), anything)),
    "AgentWorld.drives": call(st.one_of(st.none(), agent_arrays)),
    "AgentWorld.goal_score": call(agent_ids),
    "AgentWorld.set_goal_list": call(agent_ids, either(st.integers(-1, 2), ints)),
    "AgentWorld.set_decision_period": call(agent_ids, either(st.integers(-1, 100), ints)),
    "AgentWorld.set_action_runs_to_end": call(west_actions, either(st.booleans(), ints)),
    "AgentWorld.action_runs_to_end": call(west_actions),
    "AgentWorld.set_fact": call(agent_ids, west_vars, either(st.integers(-1, 4), texts)),
    "AgentWorld.set_facts": call(agent_arrays, west_vars, st.one_of(arrays(np.int32), anything)),
    "AgentWorld.set_state": call(agent_ids, west_states),
    "AgentWorld.set_packed_states": call(agent_arrays, st.one_of(
        st.lists(state_of(WEST, MW), min_size=1, max_size=3).map(
            lambda v: CP.pack_states(np.array(v, dtype=np.int32).reshape(len(v), MW))),
        arrays(np.uint64), anything)),
    "AgentWorld.action_finished": call(agent_arrays),
    "AgentWorld.action_failed": call(agent_arrays),
    "AgentWorld.bump_world_version": any_call(1),
    "AgentWorld.update": call(either(st.just(1 / 60), floats),
                              either(st.none(), st.integers(0, 64).map(
                                  lambda n: np.zeros(n, dtype=tp.EVENT_DTYPE)), arrays())),
    "AgentWorld.fact": call(agent_ids, west_vars),
    "AgentWorld.state": call(agent_ids),
    "AgentWorld.npc_class": call(agent_ids),
    "AgentWorld.goal": call(agent_ids),
    "AgentWorld.plan": call(agent_ids),
    "AgentWorld.step": call(agent_ids),
    "AgentWorld.running_action": call(agent_ids),
    "AgentWorld.progress": call(agent_ids),
    "AgentWorld.last_replan": call(agent_ids),
    "AgentWorld.describe": call(st.one_of(st.just(Ref("EVENTS")), st.integers(0, 4).map(
        lambda n: np.zeros(n, dtype=tp.EVENT_DTYPE)), events(), arrays(), anything)),
    "AgentWorld.explain": call(st.one_of(st.just(Ref("EVENTS")), st.integers(0, 4).map(
        lambda n: np.zeros(n, dtype=tp.EVENT_DTYPE)), events(), arrays(), anything)),
    "action_applies": call(either(st.just(Ref("WEST"))), west_states, west_actions),
    "failed_condition": call(either(st.just(Ref("WEST"))), west_states, west_actions),
    "apply_action": call(either(st.just(Ref("WEST"))), west_states, west_actions),
    "goal_holds": call(either(st.just(Ref("WEST"))), west_states,
                       st.one_of(state_of(WEST, MW, goal=True), west_goal_dicts, west_states)),
    "PlanResult": any_call(9),
    "Validation": any_call(5),
}


def public_callables():
    """"f" for each public function, "C" and "C.m" for each class and its public methods."""
    out = set()
    for name in tp.__all__:
        obj = getattr(tp, name)
        if inspect.isclass(obj):
            if issubclass(obj, BaseException):
                continue  # raised, not called
            out.add(name)
            for m in dir(obj):
                if m.startswith("_") or m in dir(object):
                    continue
                attr = inspect.getattr_static(obj, m)
                if isinstance(attr, property) or type(attr).__name__ == "property":
                    continue  # a property is read, not called
                if callable(getattr(obj, m)):
                    out.add(f"{name}.{m}")
        elif callable(obj):
            out.add(name)
    return out


def test_every_public_callable_has_a_strategy():
    missing = public_callables() - set(STRATEGIES)
    assert not missing, f"public callables without a strategy here: {sorted(missing)}"
    stale = set(STRATEGIES) - public_callables()
    assert not stale, f"strategies for callables that are not public: {sorted(stale)}"


# ---------------------------------------------------------------------------------------------
# The worker

class Worker:
    def __init__(self):
        self.proc = None

    def start(self):
        self.proc = subprocess.Popen([sys.executable, str(Path(__file__).with_name(
            "doors_worker.py"))], stdin=subprocess.PIPE, stdout=subprocess.PIPE)

    def stop(self):
        if self.proc is not None:
            self.proc.kill()
            self.proc.wait()
            self.proc = None

    def died(self, what):
        self.proc.kill()
        rc = self.proc.wait()
        self.proc = None
        why = f"signal {signal.Signals(-rc).name}" if rc < 0 else f"exit {rc}"
        return ("died", f"{what} ({why})")

    def call(self, target, args, kwargs):
        if self.proc is None:
            self.start()
        data = pickle.dumps((target, args, kwargs))
        try:
            self.proc.stdin.write(struct.pack("<I", len(data)) + data)
            self.proc.stdin.flush()
        except BrokenPipeError:
            return self.died("the worker died before the call")
        out = self.proc.stdout
        ready, _, _ = select.select([out], [], [], HANG_SECONDS)
        if not ready:
            return self.died(f"no answer in {HANG_SECONDS} s")
        head = out.read(4)
        if len(head) < 4:
            return self.died("the worker died in the call")
        return pickle.loads(out.read(struct.unpack("<I", head)[0]))


@pytest.fixture(scope="module")
def worker():
    w = Worker()
    yield w
    w.stop()


@pytest.mark.parametrize("target", sorted(STRATEGIES))
def test_every_door(worker, target):
    @SETTINGS
    @given(case=STRATEGIES[target])
    def run(case):
        args, kwargs = case
        answer = worker.call(target, args, kwargs)
        assert answer[0] in ("ok", "raised"), (
            f"{target}(*{args!r:.400}, **{kwargs!r:.200}): {answer[1]}")

    run()


@pytest.mark.parametrize("code", [
    "tp.CrowdPlanner(None)", "tp.PlanCache(None)", "tp.Crowd(None)", "tp.TopoPlanner(None)",
    "tp.Planner(None)", "tp.UdgoapAgent(None)", "tp.validate(None, None, ['x'])",
    "tp.save_task(None, 't.toml')", f"tp.save_task(tp.load_task({HORSE!r}), 1)"])
def test_none_for_a_required_object_is_a_type_error(code, tmp_path):
    """pybind11 passes None as an empty holder: each constructor refuses it (was a segfault); the
    Python functions refuse a task that is not one (was AttributeError) and a path that is a file
    descriptor (save_task(task, 1) wrote the task to stdout and closed it)."""
    r = subprocess.run([sys.executable, "-c", f"import topoplan as tp\ntry:\n    {code}\n"
                        "except TypeError as e:\n    print('TypeError', e)\n"],
                       capture_output=True, text=True, timeout=60, cwd=tmp_path)
    assert r.returncode == 0 and r.stdout.startswith("TypeError"), (r.returncode, r.stderr[-300:])

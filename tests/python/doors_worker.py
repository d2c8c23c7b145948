"""The subprocess of test_hypothesis_every_door.py: calls one public function or method of the
package per request, checks what it returned, and answers. A crash of the extension kills only
this process; the test sees the pipe close and reports the call that killed it.

Protocol (stdin/stdout, binary): each request and each answer is a 4-byte little-endian length
and a pickle. A request is (target, args, kwargs); `target` is "name" (a function of topoplan) or
"Class.method" ("Class" alone: the constructor), called on this process's object of that class
(a Ref in the arguments names one of those objects). An answer is ("ok", summary), ("raised",
type name, message) for an exception of the documented types, or ("bad", why) for anything
else: another exception, or a result its check refuses."""
import atexit
import os
import pickle
import shutil
import struct
import sys
import tempfile
import traceback
from pathlib import Path

import numpy as np

ROOT = Path(os.environ.get("TOPOPLAN_SOURCE_DIR", Path(__file__).resolve().parents[2]))
HORSE = str(ROOT / "domains" / "horse-breeder.toml")
WESTERN = str(ROOT / "domains" / "western.toml")
WIZARD = str(ROOT / "domains" / "udgoap" / "wizard.toml")

# The documented exceptions (docs/python.md): bad input is ValueError (InputError for a file or
# a text that does not parse), TypeError, KeyError, IndexError or OverflowError; a file that
# cannot be opened or written is OSError.
ALLOWED = (ValueError, TypeError, KeyError, IndexError, OverflowError)
ALLOWED_OS = ("load_task", "save_task", "load_scenario", "simulate")


class Ref:
    """An object of the worker, by name ("TASK", "CROWD", ...), as an argument."""

    def __init__(self, name):
        self.name = name

    def __repr__(self):
        return f"Ref({self.name})"


def main():
    import topoplan as tp

    out = os.fdopen(os.dup(1), "wb")  # the protocol's channel; the library's prints go to stderr
    os.dup2(2, 1)
    scratch = tempfile.mkdtemp(prefix="topoplan-doors-")
    os.chdir(scratch)
    atexit.register(shutil.rmtree, scratch, True)

    task = tp.load_task(HORSE)
    west = tp.load_task(WESTERN)
    crowd_planner = tp.CrowdPlanner(west)
    objects = {"TASK": task, "WEST": west, "CROWD_PLANNER": crowd_planner}

    def fresh():
        """The objects whose state a call may change, made again for each request."""
        cache = tp.PlanCache(crowd_planner, 256, 64, 4096)
        world, agent = tp.load_scenario(WIZARD)
        agents = tp.AgentWorld(west, capacity=8, decision_period=1)
        hunt = agents.add_goal("first", {west.variables[0]: west.values(0)[-1]})
        agents.add_goal("second", [-1] * len(west.variables))
        agents.set_class_goals(0, agents.add_goal_list([hunt, 1]))
        need = agents.add_drive("need", rate=-1.0, initial=50.0)
        agents.set_class_goals(1, agents.add_drive_list([{"goal": hunt, "drive": need}], 0.1))
        for c in (0, 0, 1):
            agents.add_agent(c, [0] * len(west.variables))
        frame = agents.update(1 / 60)
        objects.update(PLAN_CACHE=cache, CROWD=tp.Crowd(crowd_planner, 1, cache),
                       TOPO=tp.TopoPlanner(west), PLANNER=tp.Planner(task, "astar"),
                       WORLD=world, AGENT=agent, INSTANCE=task.instances[0], AGENT_WORLD=agents,
                       EVENTS=frame.copy())

    receivers = {"Task": "TASK", "CrowdPlanner": "CROWD_PLANNER", "PlanCache": "PLAN_CACHE",
                 "Crowd": "CROWD", "TopoPlanner": "TOPO", "Planner": "PLANNER",
                 "UdgoapWorld": "WORLD", "UdgoapAgent": "AGENT", "Instance": "INSTANCE",
                 "AgentWorld": "AGENT_WORLD"}

    def resolve(x):
        if type(x).__name__ == "Ref":  # pickled from the test's import of this module
            return objects[x.name]
        if isinstance(x, list):
            return [resolve(v) for v in x]
        if isinstance(x, tuple):
            return tuple(resolve(v) for v in x)
        if isinstance(x, dict):
            return {k: resolve(v) for k, v in x.items()}
        return x

    def sizes(t):
        return [len(t.values(v)) for v in range(len(t.variables))]

    def check_plan_result(t, inst, r):
        assert r.status in ("solved", "unsolvable", "limit reached", "gave up", "unsupported")
        if r:
            assert tp.validate(t, inst, r.actions).valid, "a solved plan does not validate"

    def check_task(t):
        assert isinstance(t, tp.Task) and t.variables
        assert tp.parse_task(t.to_native()).to_native() == t.to_native(), "round trip"

    def check_unpacked(args, r, goal):
        assert r.dtype == np.int32 and r.ndim == 2 and r.shape[1] == len(west.variables)
        for row in r:
            for x, n in zip(row, sizes(west)):
                assert (goal and x == -1) or 0 <= x < n, "an unpacked value outside its domain"

    def check_crowd_out(args, kwargs, r):
        actions, offset, length, status = r[0], r[1], r[2], r[3]
        cls, init, goal = (np.asarray(a) for a in args[:3])
        words = crowd_planner.words
        for i in range(len(status)):
            if not int(status[i]) & tp.CROWD_SOLVED:
                continue
            h = kwargs.get("handles")
            if isinstance(h, np.ndarray) and h.dtype == np.uint64 and h.size > i and h[i] != 0:
                plan = objects["CROWD"].resolve(int(h[i]))
                assert plan is not None, "a fresh handle does not resolve"
            else:
                plan = actions[int(offset[i]):int(offset[i]) + int(length[i])]
            s = crowd_planner.unpack_states(np.ascontiguousarray(
                init.reshape(-1)[i * words:(i + 1) * words].astype(np.uint64)))
            g = crowd_planner.unpack_goals(np.ascontiguousarray(
                goal.reshape(-1)[i * words:(i + 1) * words].astype(np.uint64)))
            inst = west.instance(s[0].tolist(), g[0].tolist(), int(cls.reshape(-1)[i]))
            assert tp.validate(west, inst, plan.tolist()).valid, "a crowd plan does not validate"

    def check_resolved(r):
        assert r is None or (r.dtype == np.int32 and all(0 <= a < len(west.actions) for a in r))

    def total_state(t, state):
        """`state` as a list of value ids when it is a valid total state of `t` given as a
        sequence (the engine calls also take dicts by names: judged by their own result)."""
        if isinstance(state, dict):
            return None
        try:
            v = [int(x) for x in state]
        except (TypeError, ValueError, OverflowError):
            return None
        if len(v) != len(sizes(t)) or any(not 0 <= x < n for x, n in zip(v, sizes(t))):
            return None
        return v

    def action_id(t, action):
        return action if isinstance(action, int) else t.find_action(action)

    def check_engine(target, a, r):
        """The engine calls against the validator: an action applies where a one-action plan
        validates, apply_action's state is the validator's final state, a goal holds where the
        empty plan validates."""
        t = a[0] if a else None
        if not isinstance(t, tp.Task) or len(a) < 3:
            return True
        s = total_state(t, a[1])
        if s is None:
            return True
        if target == "goal_holds":
            goal = a[2]
            if isinstance(goal, dict):
                return isinstance(r, bool)
            inst = t.instance(s, [int(x) for x in goal])
            return r == tp.validate(t, inst, []).valid
        act = action_id(t, a[2])
        free = t.instance(s, [-1] * len(s))
        v = tp.validate(t, free, [act])
        if target == "action_applies":
            return r == v.valid
        if target == "failed_condition":
            return (r == "") == v.valid
        assert v.valid, "apply_action returned for an action that does not apply"
        return list(r) == list(v.final_state)

    def check_agent_plan(r):
        assert r.dtype == np.int32 and all(0 <= x < len(west.actions) for x in r), \
            "an agent's plan holds an action id outside the domain"

    def instance_of(t, which):
        return t.instances[0] if which is None else which

    # What a call that returned must have returned; anything missing here only needs to return.
    checks = {
        "load_task": lambda a, k, r: check_task(r),
        "parse_task": lambda a, k, r: check_task(r),
        "family": lambda a, k, r: check_task(r),
        "Task.from_dict": lambda a, k, r: check_task(r),
        "Task.to_native": lambda a, k, r: check_task(tp.parse_task(r)),
        "Task.to_sas": lambda a, k, r: check_task(tp.parse_task(r, "x.sas", "sas")),
        "Task.values": lambda a, k, r: isinstance(r, list) and r,
        "Task.state_dict": lambda a, k, r: all(
            v in task.values(task.variables.index(n)) for n, v in r.items()),
        "Task.action_cost": lambda a, k, r: isinstance(r, int) and r >= 0,
        "Task.find_action": lambda a, k, r: r is None or 0 <= r < len(task.actions),
        "Task.find_class": lambda a, k, r: r is None or 0 <= r < len(task.classes),
        "Task.find_variable": lambda a, k, r: r is None or 0 <= r < len(task.variables),
        "Task.find_instance_index": lambda a, k, r: r is None or 0 <= r < len(task.instances),
        "Task.instance": lambda a, k, r: check_plan_result(task, r, tp.plan(task, r)),
        "plan": lambda a, k, r: check_plan_result(a[0], instance_of(a[0], a[1] if len(a) > 1
                                                                     else k.get("instance")), r),
        "validate": lambda a, k, r: isinstance(r.valid, bool),
        "check": lambda a, k, r: r["class"] in ("C0", "C2S", "C2*", "none"),
        "planners": lambda a, k, r: "auto" in r,
        "CrowdPlanner.unpack_states": lambda a, k, r: check_unpacked(a, r, False),
        "CrowdPlanner.unpack_goals": lambda a, k, r: check_unpacked(a, r, True),
        "CrowdPlanner.pack_states": lambda a, k, r: (
            crowd_planner.unpack_states(r) == np.asarray(a[0])).all(),
        "CrowdPlanner.pack_goals": lambda a, k, r: (
            crowd_planner.unpack_goals(r) == np.asarray(a[0])).all(),
        "Crowd.plan": check_crowd_out,
        "Crowd.plan_frame": check_crowd_out,
        "Crowd.resolve": lambda a, k, r: check_resolved(r),
        "PlanCache.resolve": lambda a, k, r: check_resolved(r),
        "TopoPlanner.plan": lambda a, k, r: r[0] != "solved" or tp.validate(
            west, west.instance([int(x) for x in a[0]], [int(x) for x in a[1]]), r[1]).valid,
        "Planner.plan": lambda a, k, r: r[0] != "solved" or tp.validate(
            task, task.instance([int(x) for x in a[0]], [int(x) for x in a[1]]), r[1]).valid,
        "action_applies": lambda a, k, r: check_engine("action_applies", a, r),
        "failed_condition": lambda a, k, r: check_engine("failed_condition", a, r),
        "apply_action": lambda a, k, r: check_engine("apply_action", a, r),
        "goal_holds": lambda a, k, r: check_engine("goal_holds", a, r),
        "AgentWorld.plan": lambda a, k, r: check_agent_plan(r),
        "AgentWorld.state": lambda a, k, r: check_unpacked(a, r.reshape(1, -1), False),
        "AgentWorld.describe": lambda a, k, r: isinstance(r, list) and all(
            isinstance(x, str) for x in r),
        "AgentWorld.explain": lambda a, k, r: isinstance(r, list) and all(
            isinstance(x, str) and x for x in r),
        "UdgoapAgent.plan": lambda a, k, r: r["status"] in (
            "solved", "unsolvable", "limit reached", "gave up"),
    }

    inp = sys.stdin.buffer
    while True:
        head = inp.read(4)
        if len(head) < 4:
            return
        target, args, kwargs = pickle.loads(inp.read(struct.unpack("<I", head)[0]))
        fresh()
        args, kwargs = resolve(args), resolve(kwargs)
        name, _, method = target.partition(".")
        if target == "save_task" and len(args) > 1 and isinstance(args[1], str):
            args = (args[0], args[1].replace("/", "_")) + tuple(args[2:])  # inside scratch/
        try:
            if not method:
                fn = getattr(tp, name)
            elif method == "from_dict":
                fn = tp.Task.from_dict
            else:
                fn = getattr(objects[receivers[name]], method)
            result = fn(*args, **kwargs)
        except ALLOWED as e:
            answer = ("raised", type(e).__name__, str(e)[:200])
        except OSError as e:
            answer = (("raised", type(e).__name__, str(e)[:200]) if target in ALLOWED_OS else
                      ("bad", f"{type(e).__name__}: {e}"))
        except BaseException as e:  # noqa: B902  anything else is a finding
            answer = ("bad", f"{type(e).__name__}: {e}\n{traceback.format_exc()[-1500:]}")
        else:
            try:
                check = checks.get(target)
                ok = True if check is None else check(args, kwargs, result)
                answer = ("ok", type(result).__name__) if ok is not False else (
                    "bad", f"the check of {target} refused {result!r:.300}")
            except AssertionError as e:
                answer = ("bad", f"the check of {target} failed: {e}: {result!r:.300}")
            except ALLOWED as e:  # the check itself met a value it cannot judge: not a finding
                answer = ("ok", f"unchecked ({type(e).__name__})")
        data = pickle.dumps(answer)
        out.write(struct.pack("<I", len(data)) + data)
        out.flush()


if __name__ == "__main__":
    main()

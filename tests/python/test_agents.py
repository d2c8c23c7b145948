"""The agent runtime from Python (topoplan.AgentWorld): each replan rule seen in the events,
NumPy in (packed states, facts by array) and out (EVENT_DTYPE), the engines' small calls, the
JSON Lines record, the same events as the C++ runtime (`topoplan agents`' event_hash and
--record) for the same inputs, the same events for 1, 2 and 3 threads, and bad arguments."""
import contextlib
import io
import json
import os
import runpy
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

import topoplan as tp
from topoplan.agents import build_world, load_agents_file, record

ROOT = Path(os.environ.get("TOPOPLAN_SOURCE_DIR", Path(__file__).resolve().parents[2]))
CLI = os.environ.get("TOPOPLAN_CLI", str(ROOT / "build" / "ci" / "cli" / "topoplan"))
VILLAGE = ROOT / "examples" / "agents" / "village.toml"
VILLAGE_PY = ROOT / "examples" / "agents" / "village.py"

# pos: home → door → shop; the door must be open to walk in; bread is taken in the shop.
SHOP = {
    "name": "shop",
    "variables": [{"name": "pos", "values": ["home", "door", "shop"]},
                  {"name": "door", "values": ["closed", "open"]},
                  {"name": "bread", "values": ["shelf", "held"]}],
    "actions": [
        {"name": "WalkToDoor", "cost": 1, "pre": {"pos": "home"}, "post": {"pos": "door"},
         "prevail": {}},
        {"name": "OpenDoor", "cost": 1, "pre": {"door": "closed"}, "post": {"door": "open"},
         "prevail": {"pos": "door"}},
        {"name": "WalkIn", "cost": 1, "pre": {"pos": "door"}, "post": {"pos": "shop"},
         "prevail": {"door": "open"}},
        {"name": "TakeBread", "cost": 1, "pre": {"bread": "shelf"}, "post": {"bread": "held"},
         "prevail": {"pos": "shop"}},
        {"name": "WalkHome", "cost": 1, "pre": {"pos": "shop"}, "post": {"pos": "home"},
         "prevail": {}},
    ],
}
HOME_SHUT = {"pos": "home", "door": "closed", "bread": "shelf"}


def shop_world(**kwargs):
    task = tp.Task.from_dict(SHOP)
    w = tp.AgentWorld(task, **kwargs)
    bread = w.add_goal("bread", {"bread": "held"})
    home = w.add_goal("home", {"pos": "home"})
    w.set_class_goals(0, w.add_goal_list([bread, home]))
    return task, w, bread, home


def plan_valid(task, w, agent, goal):
    """The agent's plan, from its believed state, with the engines' small calls."""
    s = w.state(agent)
    for a in w.plan(agent).tolist():
        if not tp.action_applies(task, s, a):
            return False
        s = tp.apply_action(task, s, a)
    return tp.goal_holds(task, s, goal)


def planned(events, reason):
    kinds = events["kind"] == tp.EVENT_PLANNED
    return events[kinds & (events["detail"] == tp.REPLAN_REASONS.index(reason))]


def check_plans(task, w, events, goals):
    for e in events[events["kind"] == tp.EVENT_PLANNED].tolist():
        assert plan_valid(task, w, e[0], goals[e[5]]), w.describe(np.array([e], tp.EVENT_DTYPE))


GOALS = {0: {"bread": "held"}, 1: {"pos": "home"}}


def test_event_dtype_is_the_runtime_layout():
    assert tp.EVENT_DTYPE.itemsize == 16
    assert tp.EVENT_DTYPE.names == ("agent", "kind", "detail", "step", "action", "goal")
    assert tp.EVENT_KINDS[tp.EVENT_START] == "start"
    assert tp.REPLAN_REASONS[4] == "condition-broken"


def test_no_plan_then_condition_broken_then_plan_finished():
    task, w, bread, home = shop_world(capacity=4)
    a = w.add_agent(0, HOME_SHUT)
    ev = w.update(0.1)
    assert len(planned(ev, "no-plan")) == 1 and w.last_replan(a) == "no-plan"
    check_plans(task, w, ev, GOALS)
    assert w.describe(ev[ev["kind"] == tp.EVENT_START]) == ["agent 0: start 'WalkToDoor'"]
    w.set_fact(a, "pos", "door")  # the engine walked it there (effects sensed: next action)
    w.update(0.1)
    assert task.actions[w.running_action(a)] == "OpenDoor"
    w.action_finished(a)
    w.update(0.1)
    assert task.actions[w.running_action(a)] == "WalkIn"
    w.set_fact(a, "door", "closed")  # the door closes in its face
    ev = w.update(0.1)
    assert len(ev[ev["kind"] == tp.EVENT_ABORT]) == 1
    assert len(planned(ev, "condition-broken")) == 1
    assert w.last_replan(a) == "condition-broken"
    check_plans(task, w, ev, GOALS)
    # Walk it in, take the bread: the goal holds, the next one (home) is planned.
    for _ in range(6):
        w.action_finished(a)
        ev = w.update(0.1)
        check_plans(task, w, ev, GOALS)
        if len(planned(ev, "plan-finished")):
            break
    assert w.goal(a) == home and w.last_replan(a) == "plan-finished"
    assert (ev["kind"] == tp.EVENT_GOAL_REACHED).sum() == 1


def test_action_failed_better_goal_world_changed_plan_too_old():
    task, w, bread, home = shop_world(capacity=4, decision_period=2, max_plan_age=5)
    a = w.add_agent(0, HOME_SHUT)
    w.update(0.1)
    w.action_failed(a)
    ev = w.update(0.1)
    assert len(planned(ev, "action-failed")) == 1
    check_plans(task, w, ev, GOALS)
    # Its bread in hand, away from home: it heads home; the bread vanishes: back to bread.
    w.set_state(a, {"pos": "shop", "door": "open", "bread": "held"})
    w.update(0.1)
    assert w.goal(a) == home
    w.set_fact(a, "bread", "shelf")
    ev = w.update(0.1)
    assert len(planned(ev, "better-goal")) == 1 and w.goal(a) == bread
    check_plans(task, w, ev, GOALS)
    w.bump_world_version()
    seen = set()
    for _ in range(12):
        ev = w.update(0.1)
        check_plans(task, w, ev, GOALS)
        seen |= {tp.REPLAN_REASONS[d] for d in planned(ev, "world-changed")["detail"]}
        seen |= {tp.REPLAN_REASONS[d] for d in planned(ev, "plan-too-old")["detail"]}
    assert seen == {"world-changed", "plan-too-old"}


def test_no_plan_event_and_stats():
    task = tp.Task.from_dict(SHOP)
    # Nothing puts bread back on the shelf: ℙ proves the goal unreachable.
    w2 = tp.AgentWorld(task, capacity=1)
    g = w2.add_goal("shelf", {"bread": "shelf"})
    w2.set_class_goals(0, w2.add_goal_list([g]))
    w2.add_agent(0, {"pos": "home", "door": "open", "bread": "held"})
    ev = w2.update(0.1)
    no = ev[ev["kind"] == tp.EVENT_NO_PLAN]
    assert len(no) == 1 and tp.PLAN_STATUSES[no["detail"][0]] == "unsolvable"
    why = w2.explain(no)
    assert len(why) == 1 and "bread" in why[0], why  # the variable at fault, by name
    with pytest.raises(ValueError):
        w2.explain(ev[ev["kind"] != tp.EVENT_NO_PLAN])
    s = w2.last_stats
    assert s["planned"] == 1 and s["replans"]["no-plan"] == 1 and s["events"] == len(ev)


def test_numpy_in_and_out():
    task, w, _, _ = shop_world(capacity=100, threads=2, min_agents_per_part=64)
    states = np.zeros((100, 3), dtype=np.int32)
    ids = w.add_agents(0, states)
    assert ids.tolist() == list(range(100))
    out = np.zeros(1000, dtype=tp.EVENT_DTYPE)
    ev = w.update(0.1, out)
    assert ev.base is out or np.shares_memory(ev, out)
    assert (ev["kind"] == tp.EVENT_PLANNED).sum() == 100
    check_plans(task, w, ev, GOALS)
    # Facts by array, states packed as a crowd packs them.
    w.set_facts(np.arange(50, dtype=np.int32), "door", np.ones(50, dtype=np.int32))
    assert w.fact(3, "door") == 1 and w.fact(60, "door") == 0
    planner = tp.CrowdPlanner(task)
    shop = np.array([[2, 1, 1]] * 10, dtype=np.int32)
    w.set_packed_states(np.arange(90, 100, dtype=np.int32), planner.pack_states(shop))
    assert w.state(95).tolist() == [2, 1, 1]
    ev = w.update(0.1)
    check_plans(task, w, ev, GOALS)


def test_engine_calls():
    task = tp.Task.from_dict(SHOP)
    s = [0, 0, 0]
    assert not tp.action_applies(task, s, "OpenDoor")
    assert tp.failed_condition(task, s, "OpenDoor") == \
        "prevail-condition 'pos=door' does not hold (it is 'pos=home')"
    assert tp.failed_condition(task, s, "WalkToDoor") == ""
    assert tp.apply_action(task, s, "WalkToDoor").tolist() == [1, 0, 0]
    assert tp.goal_holds(task, {"pos": "home", "door": "open", "bread": "held"}, {"bread": "held"})
    assert not tp.goal_holds(task, s, [-1, -1, 1])
    with pytest.raises(KeyError, match="no action 'Fly'"):
        tp.action_applies(task, s, "Fly")
    with pytest.raises(ValueError, match="expected 3 values"):
        tp.apply_action(task, [0, 0], 0)


def test_bad_arguments():
    task, w, _, _ = shop_world(capacity=2)
    with pytest.raises(ValueError, match="capacity"):
        tp.AgentWorld(task, capacity=0)
    with pytest.raises(ValueError, match="min_agents_per_part"):
        tp.AgentWorld(task, min_agents_per_part=8)
    a = w.add_agent(0, HOME_SHUT)
    with pytest.raises(IndexError, match="agent 5 out of range"):
        w.set_fact(5, "pos", "door")
    with pytest.raises(KeyError, match="no value 'roof' of variable 'pos'"):
        w.set_fact(a, "pos", "roof")
    with pytest.raises(ValueError, match="value 7 of 'door' out of range"):
        w.set_fact(a, "door", 7)
    with pytest.raises(KeyError, match="no variable 'sky'"):
        w.add_goal("g", {"sky": "blue"})
    with pytest.raises(ValueError, match="no value for 'bread'"):
        w.add_agent(0, {"pos": "home", "door": "open"})
    with pytest.raises(ValueError, match="no goal 9"):
        w.add_goal_list([9])
    with pytest.raises(IndexError, match="npc_class"):
        w.add_agent(4, HOME_SHUT)
    w.add_agent(0, HOME_SHUT)
    with pytest.raises(ValueError, match="full"):
        w.add_agent(0, HOME_SHUT)
    with pytest.raises(TypeError, match="EVENT_DTYPE"):
        w.update(0.1, np.zeros(8, dtype=np.int64))
    with pytest.raises(ValueError, match="dt"):
        w.update(-1.0)
    with pytest.raises(TypeError, match="int32"):
        w.set_facts(np.array([0], dtype=np.int64), "door", np.array([1], dtype=np.int32))
    with pytest.raises(ValueError, match="out of range"):
        w.set_facts(np.array([0], dtype=np.int32), "door", np.array([5], dtype=np.int32))
    bad = np.zeros(1, dtype=np.uint64)
    bad[0] = np.uint64(0xFFFFFFFFFFFFFFFF)
    with pytest.raises(ValueError, match="packed row 0"):
        w.set_packed_states(np.array([0], dtype=np.int32), bad)
    garbage = np.zeros(1, dtype=tp.EVENT_DTYPE)
    garbage["action"] = 99
    with pytest.raises(ValueError, match="not an event of this world"):
        w.describe(garbage)


def run_village(*args):
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        try:
            sys.argv = [str(VILLAGE_PY), *args]
            runpy.run_path(str(VILLAGE_PY), run_name="__main__")
            code = 0
        except SystemExit as e:
            code = e.code
    return code, out.getvalue()


def test_village_example_tells_its_story():
    code, text = run_village()
    assert code == 0, text
    assert "(condition-broken)" in text  # a plan broken by a door or stolen bread
    assert "no plan for 'eat' (unsolvable)" in text or "no plan for 'steal' (unsolvable)" in text


@pytest.mark.skipif(not Path(CLI).exists(), reason="the CLI is not built (TOPOPLAN_CLI)")
def test_village_events_and_record_equal_the_cli(tmp_path):
    cli_record = tmp_path / "cli.jsonl"
    py_record = tmp_path / "py.jsonl"
    j = json.loads(subprocess.run(
        [CLI, "agents", str(VILLAGE), "--agents", "300", "--frames", "150", "--json",
         "--record", str(cli_record)], check=True, capture_output=True, text=True).stdout)
    code, text = run_village("--agents", "300", "--frames", "150", "--quiet", "--hash",
                             "--record", str(py_record))
    assert code == 0, text
    assert f"event_hash {j['event_hash']}" in text
    cli_lines = [json.loads(x) for x in cli_record.read_text().splitlines()]
    py_lines = [json.loads(x) for x in py_record.read_text().splitlines()]
    assert len(py_lines) > 300 and py_lines == cli_lines


def test_village_events_are_identical_on_1_2_3_threads():
    hashes = set()
    for threads in (1, 2, 3):
        code, text = run_village("--agents", "700", "--frames", "60", "--quiet", "--hash",
                                 "--threads", str(threads), "--min-agents-per-part", "64")
        assert code == 0, text
        hashes.add([x for x in text.splitlines() if x.startswith("event_hash")][0])
    assert len(hashes) == 1


def test_record_lines():
    af = load_agents_file(str(VILLAGE))
    w = build_world(af, capacity=4)
    for c in range(4):
        w.add_agent(c % 2, af.task.instances[0].init)
    ev = w.update(0.1)
    buf = io.StringIO()
    assert record(w, ev, buf) == 4
    first = json.loads(buf.getvalue().splitlines()[0])
    assert first["tick"] == 0 and first["class"] == "Villager" and first["reason"] == "no-plan"
    assert first["plan"] and all(a in af.task.actions for a in first["plan"])

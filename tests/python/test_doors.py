"""Hostile input at the Python package's doors: every call answers with a Python exception naming
what is wrong, or with a result the library's own judges accept (the validator, the exact
search) — never a crash, a value of another variable, a read past a table or a silent drop."""
import os
from pathlib import Path

import numpy as np
import pytest

import topoplan as tp

ROOT = Path(os.environ.get("TOPOPLAN_SOURCE_DIR", Path(__file__).resolve().parents[2]))
HORSE = str(ROOT / "domains" / "horse-breeder.toml")
WESTERN = str(ROOT / "domains" / "western.toml")


def small_dict():
    return {
        "name": "d",
        "variables": [{"name": "x", "values": ["a", "b"]}, {"name": "y", "values": ["a", "b"]}],
        "actions": [{"name": "Go", "pre": {"x": "a"}, "post": {"x": "b"}, "prevail": {"y": "b"}}],
        "instances": [{"name": "i", "init": {"x": "a", "y": "b"}, "goal": {"x": "b"}}],
    }


# ---------------------------------------------------------------------------------------------
# Task.state_dict: values of the variable, or a ValueError naming it.

def test_state_dict_checks_every_value():
    task = tp.load_task(HORSE)
    m = len(task.variables)
    ok = task.state_dict([0] * m)
    assert list(ok) == task.variables
    assert all(ok[v] == task.values(i)[0] for i, v in enumerate(task.variables))
    for bad in (2**30, 1000, len(task.values(1)), -2):
        state = [0] * m
        state[1] = bad
        with pytest.raises(ValueError, match=r"state\[1\] = .*variable 'bucket'"):
            task.state_dict(state)
    assert task.state_dict([-1] * m) == {}  # undefined entries are left out
    with pytest.raises(ValueError, match="one value per variable"):
        task.state_dict([0] * (m + 1))
    with pytest.raises(TypeError):
        task.state_dict([0, 2**40, 0])


# ---------------------------------------------------------------------------------------------
# Plan handles: only the start of a plan stored in the current epoch resolves.

def test_forged_handles_are_not_found():
    task = tp.load_task(WESTERN)
    planner = tp.CrowdPlanner(task)
    rng = np.random.default_rng(5)
    n = 400
    cls = rng.integers(0, planner.num_classes, n).astype(np.uint16)
    inst = [task.instances[int(k) % len(task.instances)] for k in rng.integers(0, 1000, n)]
    init = np.array([i.init for i in inst], dtype=np.int32)
    goal = np.array([i.goal for i in inst], dtype=np.int32)
    cache = tp.PlanCache(planner)
    crowd = tp.Crowd(planner, cache=cache)
    handles = np.zeros(n, dtype=np.uint64)
    crowd.plan(cls, planner.pack_states(init), planner.pack_goals(goal), handles=handles)
    given = {int(h) for h in handles if h}
    assert given
    epoch = next(iter(given)) >> 32
    used = cache.stats()["table_used"]
    forged = 0
    for i in range(used + 8):
        h = (epoch << 32) | i
        got = cache.resolve(h)
        if h in given:
            assert got is not None and all(0 <= a < len(task.actions) for a in got)
        elif i != 0:
            forged += 1
            assert got is None, f"forged id {i} resolved to {got}"
            assert crowd.resolve(h) is None
    assert forged > 0


# ---------------------------------------------------------------------------------------------
# Task.from_dict: keys are exact, lists are lists, costs are integers, goals are not empty.

@pytest.mark.parametrize("mutate, match", [
    (lambda d: d["actions"][0].update(previal=d["actions"][0].pop("prevail")),
     "unknown key 'previal'"),
    (lambda d: d.update(actoins=d.pop("actions")), "unknown key 'actoins'"),
    (lambda d: d["variables"][0].update(values="ab"), "expected a list, got str"),
    (lambda d: d["variables"][0].update(vals=["a"]), "unknown key 'vals'"),
    (lambda d: d["instances"][0].update(goal={}), "the goal is empty"),
    (lambda d: d["instances"][0].update(gaol={"x": "b"}), "unknown key 'gaol'"),
    (lambda d: d["actions"][0].update(cost=1.5), "'cost' must be an integer, got float"),
    (lambda d: d["actions"][0].update(cost=True), "'cost' must be an integer, got bool"),
    (lambda d: d["actions"][0].update(cost=2**70), r"'cost' must be in \[0, "),
    (lambda d: d["actions"][0].update(cost=-1), r"'cost' must be in \[0, "),
    (lambda d: d["instances"][0].update(init={"x": 2**70, "y": 0}), "out of range"),
    (lambda d: d["instances"][0].update(init={"x": True, "y": 0}), "got a bool"),
    (lambda d: d["variables"].append(3), "expected a dict, got int"),
    (lambda d: d["variables"][1].pop("values"), "missing key 'values'"),
])
def test_from_dict_refuses_what_it_used_to_drop(mutate, match):
    d = small_dict()
    assert tp.plan(tp.Task.from_dict(d))  # the unmutated dict is fine
    mutate(d)
    with pytest.raises(tp.InputError, match=match):
        tp.Task.from_dict(d)


def test_empty_goals_are_refused_before_a_file_is_written(tmp_path):
    task = tp.load_task(HORSE)
    with pytest.raises(ValueError, match="the goal is empty"):
        task.instance(init=task.instances[0].init, goal={})
    with pytest.raises(ValueError, match="the goal is empty"):
        task.instance(init=task.instances[0].init, goal=[-1] * len(task.variables))
    # What from_dict accepts, save_task writes and load_task reads back.
    t = tp.Task.from_dict(small_dict())
    for name in ("t.toml", "t.sas"):
        tp.save_task(t, str(tmp_path / name))
        assert tp.plan(tp.load_task(str(tmp_path / name))).cost == 1


# ---------------------------------------------------------------------------------------------
# Limits: the table's words, as ValueError, for every planner door.

def test_limits_are_refused_with_the_tables_words():
    task = tp.load_task(HORSE)
    cases = [
        ({"max_seconds": float("inf")}, r"'max_seconds' \(seconds of search; 0: none\) must be a number in \[0, 1e\+09\]"),
        ({"max_seconds": float("nan")}, "'max_seconds'"),
        ({"max_seconds": -1.0}, "'max_seconds'"),
        ({"max_expansions": 0}, r"'max_expansions' \(search nodes expanded\) must be an integer"),
        ({"max_expansions": -5}, "'max_expansions'"),
        ({"max_memory_bytes": 0}, "'max_memory_bytes'"),
    ]
    for kwargs, match in cases:
        for planner in ("astar", "auto", "exact"):
            with pytest.raises(ValueError, match=match):
                tp.plan(task, "feed-horses", planner=planner, **kwargs)
    with pytest.raises(TypeError):
        tp.plan(task, "feed-horses", planner="astar", max_expansions=2**70)
    r = tp.plan(task, "feed-horses", planner="astar", max_expansions=1)
    assert r.status == "limit reached"


def test_udgoap_limits_raise():
    _, agent = tp.load_scenario(str(ROOT / "domains" / "udgoap" / "wizard.toml"))
    assert agent.plan(max_plan_length=16)["status"] in ("solved", "limit reached", "unsolvable")
    with pytest.raises(ValueError, match=r"'max_plan_length' \(actions in a UDGOAP plan\)"):
        agent.plan(max_plan_length=10**6)
    with pytest.raises(ValueError):
        agent.plan(max_expansions=-7)


# ---------------------------------------------------------------------------------------------
# Smaller doors.

def test_nul_in_a_path_is_refused():
    with pytest.raises(tp.InputError, match="NUL"):
        tp.load_task(HORSE + "\x00junk")


def test_unpack_checks_shape_and_codes():
    task = tp.load_task(WESTERN)
    planner = tp.CrowdPlanner(task)
    w = planner.words
    init = np.array([task.instances[0].init], dtype=np.int32)
    packed = planner.pack_states(init)
    assert (planner.unpack_states(packed) == init).all()
    assert (planner.unpack_states(packed.reshape(-1)) == init).all()
    with pytest.raises(ValueError, match="shape"):
        planner.unpack_states(np.zeros((2, w + 1), dtype=np.uint64))
    with pytest.raises(ValueError, match="shape"):
        planner.unpack_states(np.zeros((1, 1, w), dtype=np.uint64))
    with pytest.raises(ValueError, match="is not a value of it"):
        planner.unpack_states(np.full((1, w), 2**64 - 1, dtype=np.uint64))
    goals = planner.pack_goals(np.array([task.instances[0].goal], dtype=np.int32))
    assert (planner.unpack_goals(goals) == np.array([task.instances[0].goal])).all()


def test_crowd_outputs_may_not_share_memory():
    task = tp.load_task(WESTERN)
    planner = tp.CrowdPlanner(task)
    n = 8
    cls = np.zeros(n, dtype=np.uint16)
    init = planner.pack_states(np.array([task.instances[0].init] * n, dtype=np.int32))
    goal = planner.pack_goals(np.array([task.instances[0].goal] * n, dtype=np.int32))
    crowd = tp.Crowd(planner)
    same = np.zeros(n, dtype=np.uint16)
    with pytest.raises(ValueError, match="share memory"):
        crowd.plan(cls, init, goal, length=same, status=same)
    with pytest.raises(ValueError, match="share memory"):
        crowd.plan(cls, init, goal, status=cls)  # an input as an output
    big = np.zeros(2 * n, dtype=np.uint16)
    with pytest.raises(ValueError, match="share memory"):
        crowd.plan(cls, init, goal, length=big[:n], status=big[n - 1:2 * n - 1])
    _, _, _, status, stats = crowd.plan(cls, init, goal, length=big[:n], status=big[n:])
    assert stats["served"] == n and (status == big[n:]).all()


def test_planner_chain_typos_are_refused():
    planner = tp.CrowdPlanner(tp.load_task(WESTERN))
    for chain in ("", ",,,", "astar,", ["astar", ""]):
        with pytest.raises(ValueError, match="an empty planner name"):
            tp.Crowd(planner, fallback=chain)
    tp.Crowd(planner, fallback="none")
    tp.Crowd(planner, fallback=[])

"""A prepared planner by name (tp.Planner): created once per domain and class, then many plans;
every plan validated and its cost compared with the exact search's, on a domain ℙ takes and on
real GOAP domains ℙ refuses (auto answers with A*); per-call limits; bad arguments."""
import os
from pathlib import Path

import pytest

import topoplan as tp

ROOT = Path(os.environ.get("TOPOPLAN_SOURCE_DIR", Path(__file__).resolve().parents[2]))
FILES = ["domains/horse-breeder.toml", "domains/real/gpgoap-soldier.toml",
         "domains/real/regoap-swordsmith.toml", "domains/real/dogoap-miner.toml"]


@pytest.mark.parametrize("rel", FILES)
def test_auto_is_optimal_and_valid(rel):
    task = tp.load_task(str(ROOT / rel))
    planners = {}
    for inst in task.instances:
        key = inst.npc_class
        if key not in planners:
            planners[key] = tp.Planner(task, "auto", None if key < 0 else key)
        p = planners[key]
        status, actions = p.plan(inst.init, inst.goal)
        exact = tp.plan(task, inst, planner="exact")
        assert status == exact.status, (rel, inst.name, p.explain())
        if status != "solved":
            continue
        assert p.answered_by in ("topo", "astar")
        v = tp.validate(task, inst, actions)
        assert v.valid, (rel, inst.name, v.reason)
        assert v.cost == exact.cost, (rel, inst.name)


def test_limits_per_call_and_errors():
    task = tp.load_task(str(ROOT / "domains/real/gpgoap-soldier.toml"))
    inst = task.instances[0]
    p = tp.Planner(task)  # "auto"
    assert p.name == "auto"
    status, actions = p.plan(inst.init, inst.goal, max_expansions=0)
    assert status == "limit reached" and actions == []
    assert "expansion limit" in p.explain()
    status, actions = p.plan(inst.init, inst.goal)
    assert status == "solved" and p.answered_by == "astar"
    with pytest.raises(ValueError):
        p.plan(inst.init[:-1], inst.goal)
    with pytest.raises(KeyError):
        tp.Planner(task, "no-such-planner")
    with pytest.raises(tp.InputError, match="not unary|post-unique|topo"):
        tp.Planner(task, "topo")

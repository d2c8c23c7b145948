"""The crowd's planner chain from Python (Crowd(fallback=, class_fallback=, fallback_budget=,
fallback_max_*=)) and the plan table's size (PlanCache(table_actions=)), against the default
crowd's answers on the GOAP levels, where ℙ gives up on some NPCs and the fallback answers them
(the checks of test_capi_more's test_chain, through the binding)."""
import os
from pathlib import Path

import numpy as np
import pytest

import topoplan as tp

ROOT = Path(os.environ.get("TOPOPLAN_SOURCE_DIR", Path(__file__).resolve().parents[2]))
LEVELS = ["castle-guard", "fear-soldier", "sims-house"]
FALLBACK = 0x80  # kCrowdFallback: answered by a fallback planner, not ℙ


def level_batch(level, n=600, seed=3):
    """The level's instances, repeated, with a fifth of the goals shuffled across NPCs and some
    variables freed (as the Western batch of test_topoplan)."""
    task = tp.load_task(str(ROOT / "domains" / "goap" / (level + ".toml")))
    planner = tp.CrowdPlanner(task)
    rng = np.random.default_rng(seed)
    inst = task.instances
    pick = np.concatenate([np.arange(len(inst)), rng.integers(0, len(inst), size=n - len(inst))])
    init = np.array([inst[i].init for i in pick], dtype=np.int32)
    goal = np.array([inst[i].goal for i in pick], dtype=np.int32)
    mix = rng.random(n) < 0.2
    goal[mix] = goal[rng.permutation(np.flatnonzero(mix))]
    goal[rng.random(goal.shape) < 0.1] = -1
    cls = np.array([max(inst[i].npc_class, 0) for i in pick], dtype=np.uint16)
    return task, planner, (cls, planner.pack_states(init), planner.pack_goals(goal))


def plans(out):
    """Per NPC (status, plan as a tuple): the answer, whatever the offsets."""
    actions, offset, length, status, _ = out
    return [(int(status[i]), tuple(actions[offset[i]:offset[i] + length[i]].tolist()))
            for i in range(len(status))]


@pytest.mark.parametrize("level", LEVELS)
def test_crowd_planner_chain(level):
    task, planner, batch = level_batch(level)
    cls = batch[0]
    ref_out = tp.Crowd(planner).plan(*batch)
    ref, ref_stats = plans(ref_out), ref_out[4]
    by_fallback = np.array([st & FALLBACK != 0 for st, _ in ref])
    assert by_fallback.any() and ref_stats["no_plan"] == 0

    # Explicit defaults answer as the default crowd, NPC by NPC.
    for kw in ({"fallback": ["astar"]}, {"fallback": "astar"}, {"fallback": None},
               {"class_fallback": {}}, {"fallback_budget": 2000,
                                        "fallback_max_expansions": 500_000,
                                        "fallback_max_memory_bytes": 256 << 20,
                                        "fallback_max_seconds": 0.0}):
        assert plans(tp.Crowd(planner, **kw).plan(*batch)) == ref, kw

    def lost(out, lose):
        """`lose` (a mask) are no plan now, the others answer as the reference."""
        got = plans(out)
        for i, (st, plan) in enumerate(got):
            if lose[i]:
                assert st == tp.CROWD_NO_PLAN and plan == (), i
            else:
                assert (st, plan) == ref[i], i
        assert out[4]["no_plan"] == lose.sum()
        return got

    # ℙ only: exactly the NPCs the fallback answered have no plan.
    for none in ("none", []):
        out = tp.Crowd(planner, fallback=none).plan(*batch)
        lost(out, by_fallback)
        assert out[4]["solved_fallback"] == 0

    # Per class: one class on ℙ only loses its fallback answers, and nothing else; ℙ only for
    # all but the classes that need the fallback, which get "astar": the reference again.
    names = task.classes
    needing = sorted({int(cls[i]) for i in np.flatnonzero(by_fallback)})
    for k, name in enumerate(names):
        out = tp.Crowd(planner, class_fallback={name: "none"}).plan(*batch)
        lost(out, by_fallback & (cls == k))
    chain = {names[k]: ["astar"] for k in needing}
    assert plans(tp.Crowd(planner, fallback="none", class_fallback=chain).plan(*batch)) == ref

    # A two-planner chain: the same statuses (solvability is a fact); valid plans.
    out = tp.Crowd(planner, fallback="none",
                   class_fallback={names[k]: "astar-back,astar" for k in needing}).plan(*batch)
    for i, (st, plan) in enumerate(plans(out)):
        assert st == ref[i][0], i
        if st & tp.CROWD_SOLVED:
            init = planner.unpack_states(batch[1][i:i + 1])[0]
            goal = planner.unpack_goals(batch[2][i:i + 1])[0]
            assert tp.validate(task, tp.Instance("", init.tolist(), goal.tolist(), int(cls[i])),
                               list(plan)).valid

    # Limits of one expansion: the fallback answers only what it proves in one expansion.
    out = tp.Crowd(planner, fallback_budget=1, fallback_max_expansions=1).plan(*batch)
    assert 0 < out[4]["no_plan"] <= by_fallback.sum()
    assert out[4]["solved"] <= ref_stats["solved"]


def test_crowd_chain_errors():
    _, planner, _ = level_batch("castle-guard", n=20)
    with pytest.raises(ValueError, match="nope"):
        tp.Crowd(planner, fallback="astar,nope")
    with pytest.raises(ValueError, match="nope"):
        tp.Crowd(planner, fallback=["astar", "nope"])
    with pytest.raises(ValueError, match="no NPC class 'nobody'"):
        tp.Crowd(planner, class_fallback={"nobody": "astar"})
    with pytest.raises(ValueError, match="nope"):
        tp.Crowd(planner, class_fallback={"guard": ["astar", "nope"]})
    with pytest.raises(ValueError, match=r"'fallback_budget' \(first-attempt expansions per NPC\) must be an integer in \[1, "):
        tp.Crowd(planner, fallback_budget=0)
    with pytest.raises(ValueError, match="max_expansions"):
        tp.Crowd(planner, fallback_max_expansions=0)
    with pytest.raises(ValueError, match="max_seconds"):
        tp.Crowd(planner, fallback_max_seconds=-1.0)
    with pytest.raises(TypeError):
        tp.Crowd(planner, fallback=3)
    with pytest.raises(TypeError):
        tp.Crowd(planner, class_fallback=["guard"])
    with pytest.raises(TypeError):  # keyword-only: no positional chain after worker_memo_entries
        tp.Crowd(planner, 1, None, 64, 2048, "astar")


def test_plan_cache_table_actions():
    _, planner, batch = level_batch("castle-guard")
    n = len(batch[0])
    ref = plans(tp.Crowd(planner).plan(*batch))
    solved = sum(1 for st, _ in ref if st & tp.CROWD_SOLVED)
    for table, with_handles in ((0, False), (1 << 16, True)):
        cache = tp.PlanCache(planner, table_actions=table)
        assert cache.stats()["table_capacity"] == table
        handles = np.full(n, 7, dtype=np.uint64)
        out = tp.Crowd(planner, cache=cache).plan(*batch, handles=handles)
        got = plans(out)
        assert [st & ~tp.CROWD_CACHE_HIT for st, _ in got] == [st for st, _ in ref]
        if with_handles:
            assert (handles != 0).sum() == solved
            for i in np.flatnonzero(handles):
                assert tuple(cache.resolve(int(handles[i])).tolist()) == ref[i][1]
        else:  # no plan table: no handles, every plan copied into `actions`
            assert (handles == 0).all()
            assert [p for _, p in got] == [p for _, p in ref]
    with pytest.raises(ValueError, match="table_actions"):
        tp.PlanCache(planner, table_actions=-1)
    with pytest.raises(ValueError, match="table_actions"):
        tp.PlanCache(planner, table_actions=(1 << 30) + 1)


@pytest.mark.parametrize("domain", ["gpgoap-soldier", "cppgoap-wargame", "dogoap-miner"])
def test_crowd_takes_a_domain_p_cannot_take_whole(domain):
    """A real GOAP domain (multi-effect actions, several producers of one value): the crowd is
    created, ℙ answers its part and the chain every other NPC — each solved or proved unsolvable,
    each plan valid — on 1 and 2 threads alike."""
    task = tp.load_task(str(ROOT / "domains" / "real" / (domain + ".toml")))
    planner = tp.CrowdPlanner(task)
    rng = np.random.default_rng(5)
    inst = task.instances
    n = 400
    pick = rng.integers(0, len(inst), size=n)
    init = np.array([inst[i].init for i in pick], dtype=np.int32)
    goal = np.array([inst[i].goal for i in pick], dtype=np.int32)
    goal[rng.random(goal.shape) < 0.2] = -1
    cls = np.array([max(inst[i].npc_class, 0) for i in pick], dtype=np.uint16)
    batch = (cls, planner.pack_states(init), planner.pack_goals(goal))
    # Room for 64 actions per NPC: dogoap-miner's A* plans run to 26 actions.
    out = tp.Crowd(planner).plan(*batch, actions=np.empty(n * 64, dtype=np.int32))
    actions, offset, length, status, stats = out
    assert stats["complete"] and stats["no_plan"] == 0
    for i in range(n):
        st = int(status[i]) & ~tp.CROWD_CACHE_HIT
        assert st & (tp.CROWD_SOLVED | tp.CROWD_UNSOLVABLE), st
        if st & tp.CROWD_SOLVED:
            got = actions[offset[i]:offset[i] + length[i]].tolist()
            # A class-less domain is crowd class 0 (all actions) but validates as npc_class -1.
            made = tp.Instance("", init[i].tolist(), goal[i].tolist(), inst[pick[i]].npc_class)
            assert tp.validate(task, made, got).valid
    two = tp.Crowd(planner, threads=2).plan(*batch, actions=np.empty(n * 64, dtype=np.int32))
    assert plans(two) == plans(out)

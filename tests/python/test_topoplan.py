"""The Python package against the library's own judges: every plan goes through the validator,
planners are compared with the exact search on random domains (hypothesis), and a crowd batch
is compared NPC by NPC with ℙ one at a time."""
import os
import threading
from pathlib import Path

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import topoplan as tp

ROOT = Path(os.environ.get("TOPOPLAN_SOURCE_DIR", Path(__file__).resolve().parents[2]))
HORSE = str(ROOT / "domains" / "horse-breeder.toml")
WESTERN = str(ROOT / "domains" / "western.toml")
WIZARD = str(ROOT / "domains" / "udgoap" / "wizard.toml")
PAPER_PLAN = ["PickUpBucket", "FillBucketWithWater", "FillHorseTrough", "DropBucket",
              "TakeHaystack", "FillHorseFeeder"]


# ---------------------------------------------------------------------------------------------
# Files, names, every planner.

def test_horse_breeder_every_planner():
    task = tp.load_task(HORSE)
    assert task.name == "horse-breeder"
    assert task.variables == ["haystack", "bucket", "water"]
    assert "auto" in tp.planners() and "topo" in tp.planners()
    for name in tp.planners():
        r = tp.plan(task, "feed-horses", planner=name)
        if name == "backstrom":  # Bäckström's 𝒫 needs single-valued domains: this one is not
            assert r.status == "unsupported" and r.message
            assert not r
            continue
        assert r, (name, r.status, r.message)
        assert len(r.actions) == 6 and r.cost == 6
        assert r.engine
        assert tp.validate(task, "feed-horses", r.actions).valid
    r = tp.plan(task, "feed-horses")
    assert r.names == PAPER_PLAN
    assert tp.validate(task, 0, PAPER_PLAN)  # by names, instance by index


def test_instances_by_name_index_and_object():
    task = tp.load_task(HORSE)
    assert task.find_instance_index("fill-feeder") == 3
    inst = task.find_instance("fill-feeder")
    assert inst is not None and inst.name == "fill-feeder" and inst == task.instances[3]
    assert task.find_instance("nobody") is None
    assert tp.plan(task, "fill-feeder").names == ["FillHorseFeeder"]
    assert tp.plan(task, inst).names == ["FillHorseFeeder"]
    assert tp.plan(task, 3).names == ["FillHorseFeeder"]
    with pytest.raises(KeyError):
        tp.plan(task, "nobody")
    with pytest.raises(IndexError):
        tp.plan(task, 17)
    made = task.instance(init={"haystack": "none", "bucket": "none", "water": "inSource"},
                         goal={"water": "inTrough"}, npc_class="horse-breeder")
    r = tp.plan(task, made)
    assert r and r.names[-1] == "FillHorseTrough"
    assert tp.validate(task, made, r.actions)


def test_statuses_and_errors():
    task = tp.load_task(HORSE)
    r = tp.plan(task, "feeder-already-full")
    assert r.status == "unsolvable" and r.message
    r = tp.plan(task, "feed-horses", planner="exact", max_expansions=1)
    assert r.status == "limit reached"
    with pytest.raises(ValueError):
        tp.plan(task, "feed-horses", planner="dijkstra")
    bad = tp.validate(task, "feed-horses", PAPER_PLAN[:5])
    assert not bad.valid and bad.failed_step == -1 and bad.reason
    swapped = [PAPER_PLAN[0], PAPER_PLAN[2]] + PAPER_PLAN[2:]
    bad = tp.validate(task, "feed-horses", swapped)
    assert not bad.valid and bad.failed_step == 1
    with pytest.raises(tp.InputError, match=r"^bad\.toml:\d+: "):
        tp.parse_task("[domain]\nname = 'x'\n[[variable]]\nname = 'v'\nvalues = 3\n", "bad.toml")
    with pytest.raises(tp.InputError, match="no-such-file"):
        tp.load_task(str(ROOT / "domains" / "no-such-file.toml"))
    with pytest.raises(ValueError):
        task.instance(init={"water": "inSea"}, goal={})


def test_save_and_reload(tmp_path):
    task = tp.load_task(HORSE)
    tp.save_task(task, str(tmp_path / "copy.toml"))
    again = tp.load_task(str(tmp_path / "copy.toml"))
    assert again.to_dict() == task.to_dict()
    tp.save_task(task, str(tmp_path / "copy.sas"))
    sas = tp.load_task(str(tmp_path / "copy.sas"))
    assert len(sas.instances) == 1
    assert tp.plan(sas).cost == 6
    assert tp.Task.from_dict(task.to_dict()).to_native() == task.to_native()


def test_check_is_a_dict():
    task = tp.load_task(HORSE)
    report = tp.check(task, "horse-breeder")
    assert report["unary"] and report["post_unique"] and not report["single_valued"]
    assert report["class"] in ("C0", "C2S", "C2*")
    assert report["actions"] == 7
    assert [v["variable"] for v in report["variables"]] == task.variables
    assert tp.check(task)["scope"] == "all"


# ---------------------------------------------------------------------------------------------
# Random unary post-unique domains (hypothesis): every plan validated, planners agree with the
# exact search.

@st.composite
def domains(draw):
    m = draw(st.integers(1, 4))
    sizes = [draw(st.integers(2, 4)) for _ in range(m)]
    variables = [{"name": f"v{v}", "values": [f"x{x}" for x in range(n)]}
                 for v, n in enumerate(sizes)]
    actions = []
    for v, n in enumerate(sizes):
        for post in range(n):  # at most one action per (variable, post): post-unique
            if not draw(st.booleans()):
                continue
            pre = draw(st.integers(0, n - 1).filter(lambda x, p=post: x != p))
            prevail = {}
            for w in range(m):
                if w != v and draw(st.integers(0, 3)) == 0:
                    prevail[f"v{w}"] = f"x{draw(st.integers(0, sizes[w] - 1))}"
            actions.append({"name": f"a{v}_{post}", "pre": {f"v{v}": f"x{pre}"},
                            "post": {f"v{v}": f"x{post}"}, "prevail": prevail})
    init = {f"v{v}": f"x{draw(st.integers(0, n - 1))}" for v, n in enumerate(sizes)}
    goal = {f"v{v}": f"x{draw(st.integers(0, n - 1))}" for v, n in enumerate(sizes)
            if draw(st.booleans())}
    if not goal:  # a goal names at least one variable
        goal = {"v0": f"x{draw(st.integers(0, sizes[0] - 1))}"}
    return {"name": "random", "variables": variables, "actions": actions,
            "instances": [{"name": "i", "init": init, "goal": goal}]}


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(domains())
def test_random_domains_agree_with_the_exact_search(spec):
    task = tp.Task.from_dict(spec)
    assert tp.Task.from_dict(task.to_dict()).to_dict() == task.to_dict()
    exact = tp.plan(task, "i", planner="exact")
    assert exact.status in ("solved", "unsolvable")
    for name in ("auto", "topo", "astar", "astar-back", "exact"):
        r = tp.plan(task, "i", planner=name)
        if r:
            v = tp.validate(task, "i", r.actions)
            assert v.valid, (name, v.reason)
            assert exact, (name, "found a plan where the exact search proved none")
            if name != "topo":
                assert r.cost == exact.cost, name  # optimal planners
            else:
                assert len(r.actions) >= len(exact.actions)
        elif r.status == "unsolvable":
            assert not exact, (name, "claimed unsolvable but a plan exists")
    auto = tp.plan(task, "i")
    assert auto.status == exact.status  # the default planner always answers, optimally


# ---------------------------------------------------------------------------------------------
# Crowds: batch == one by one, zero copy, GIL released.

def western_batch(task, planner, n, seed):
    rng = np.random.default_rng(seed)
    inst = task.instances
    pick = rng.integers(0, len(inst), size=n)
    init = np.array([inst[i].init for i in pick], dtype=np.int32)
    goal = np.array([inst[i].goal for i in pick], dtype=np.int32)
    # Shuffle some goals across NPCs (mostly unsolvable) and free some variables.
    mix = rng.random(n) < 0.2
    goal[mix] = goal[rng.permutation(np.flatnonzero(mix))] if mix.any() else goal[mix]
    free = rng.random(goal.shape) < 0.1
    goal[free] = -1
    cls = np.array([max(inst[i].npc_class, 0) for i in pick], dtype=np.uint16)
    return cls, init, goal


def western_crowd(n, seed):
    """Western's crowd planner and a batch of n NPCs, unpacked and packed:
    (task, planner, cls, init, goal, pinit, pgoal)."""
    task = tp.load_task(WESTERN)
    planner = tp.CrowdPlanner(task)
    cls, init, goal = western_batch(task, planner, n, seed)
    return task, planner, cls, init, goal, planner.pack_states(init), planner.pack_goals(goal)


@pytest.mark.parametrize("threads,cache", [(1, False), (2, False), (2, True)])
def test_crowd_batch_equals_one_by_one(threads, cache):
    task, planner, cls, init, goal, pinit, pgoal = western_crowd(2000, seed=threads * 7 + cache)
    assert pinit.dtype == np.uint64 and pinit.shape == (2000, planner.words)
    assert (planner.unpack_states(pinit) == init).all()
    assert (planner.unpack_goals(pgoal) == goal).all()
    c = tp.PlanCache(planner) if cache else None
    crowd = tp.Crowd(planner, threads=threads, cache=c)
    n = len(cls)
    actions = np.full(n * 16, -7, dtype=np.int32)
    offset = np.zeros(n, dtype=np.uint32)
    length = np.zeros(n, dtype=np.uint16)
    status = np.zeros(n, dtype=np.uint16)
    for _ in range(2 if cache else 1):
        out = crowd.plan(cls, pinit, pgoal, actions, offset, length, status)
        assert out[0] is actions and out[3] is status  # written in place: zero copy
        assert out[4]["served"] == n and out[4]["complete"] and out[4]["pending"] == 0
    if cache:
        assert out[4]["cache_hits"] > 0 and c.stats()["hits"] > 0
    topo = {k: tp.TopoPlanner(task, k) for k in range(len(task.classes))}
    solved = 0
    for i in range(n):
        s, ref = topo[int(cls[i])].plan(init[i], goal[i])
        st_ = int(status[i]) & ~tp.CROWD_CACHE_HIT
        if s == "solved":
            solved += 1
            assert st_ == tp.CROWD_SOLVED
            got = actions[offset[i]:offset[i] + length[i]].tolist()
            assert got == ref
            inst = tp.Instance("", init[i].tolist(), goal[i].tolist(), int(cls[i]))
            assert tp.validate(task, inst, got).valid
        elif s == "unsolvable":
            assert st_ == tp.CROWD_UNSOLVABLE
        else:  # ℙ gave up: the crowd's fallback planner answers (0x80 = kCrowdFallback)
            assert st_ == tp.CROWD_NO_PLAN or st_ & 0x80
    assert solved > n // 4


@pytest.mark.parametrize("level", ["castle-guard", "fear-soldier", "sims-house"])
def test_crowd_stats_count_the_planner_chain(level):
    """The GOAP levels' instances: ℙ gives up on some, the fallback (0x80) answers; the stats
    dict counts them as the status bits say."""
    task = tp.load_task(str(ROOT / "domains" / "goap" / (level + ".toml")))
    planner = tp.CrowdPlanner(task)
    inst = task.instances
    init = planner.pack_states(np.array([x.init for x in inst], dtype=np.int32))
    goal = planner.pack_goals(np.array([x.goal for x in inst], dtype=np.int32))
    cls = np.array([max(x.npc_class, 0) for x in inst], dtype=np.uint16)
    _, _, _, status, stats = tp.Crowd(planner).plan(cls, init, goal)
    by_fallback = sum(1 for x in status if x & tp.CROWD_SOLVED and x & 0x80)
    assert by_fallback > 0 and stats["solved_fallback"] == by_fallback
    assert stats["no_plan"] == sum(1 for x in status if x & tp.CROWD_NO_PLAN)
    assert stats["pending"] == 0 and stats["resumed"] == 0 and stats["retry_slices"] == 0


def test_crowd_frames_and_bad_arrays():
    task, planner, cls, init, goal, pinit, pgoal = western_crowd(1000, seed=3)
    crowd = tp.Crowd(planner)
    whole = crowd.plan(cls, pinit, pgoal)
    cursor, frames = 0, 0
    status = np.zeros(len(cls), dtype=np.uint16)
    while cursor < len(cls):
        *_, stats, cursor = crowd.plan_frame(cls, pinit, pgoal, cursor, 0.0, status=status)
        frames += 1
    assert frames > 1 and (status == whole[3]).all()
    with pytest.raises(ValueError, match="a value plan_frame returned"):  # inside a block
        crowd.plan_frame(cls, pinit, pgoal, 1, 0.0)
    with pytest.raises(TypeError):  # no hidden conversion copies
        crowd.plan(cls.astype(np.int32), pinit, pgoal)
    with pytest.raises(TypeError):
        crowd.plan(cls, np.asfortranarray(np.stack([pinit[:, 0], pinit[:, 0]], 1)), pgoal)
    with pytest.raises(ValueError):
        crowd.plan(cls[:-1], pinit, pgoal)
    with pytest.raises(ValueError):
        planner.pack_states(np.full_like(init, 99))


def test_crowd_plan_handles():
    """Handles into the cache's plan table give every NPC the plan a crowd without them copies."""
    task, planner, cls, init, goal, pinit, pgoal = western_crowd(2000, seed=11)
    c_actions, c_offset, c_length, c_status, _ = tp.Crowd(planner).plan(cls, pinit, pgoal)
    cache = tp.PlanCache(planner)
    crowd = tp.Crowd(planner, cache=cache)
    n = len(cls)
    handles = np.zeros(n, dtype=np.uint64)

    def check(actions, offset, length, status):
        by_handle = 0
        for i in range(n):
            assert int(status[i]) & ~tp.CROWD_CACHE_HIT == int(c_status[i]) & ~tp.CROWD_CACHE_HIT
            if not int(status[i]) & tp.CROWD_SOLVED:
                continue
            want = c_actions[c_offset[i]:c_offset[i] + c_length[i]].tolist()
            if handles[i]:
                by_handle += 1
                got = crowd.resolve(int(handles[i]))
                assert got.dtype == np.int32
                assert cache.resolve(int(handles[i])).tolist() == got.tolist()
            else:
                got = actions[offset[i]:offset[i] + length[i]]
            assert got.tolist() == want
        return by_handle

    for _ in range(2):  # cold, then warm (cache hits answered by handle)
        actions, offset, length, status, stats = crowd.plan(cls, pinit, pgoal, handles=handles)
        assert check(actions, offset, length, status) == stats["solved"] > n // 4
    assert stats["cache_hits"] > n // 2
    handles[:] = 0
    cursor, frames, status = 0, 0, np.zeros(n, dtype=np.uint16)
    while cursor < n:
        actions, offset, length, _, stats, cursor = crowd.plan_frame(
            cls, pinit, pgoal, cursor, 0.0, status=status, handles=handles)
        frames += 1
    assert frames > 1 and check(actions, offset, length, status) > n // 4
    assert 1 < cache.stats()["table_used"] <= cache.stats()["table_capacity"]
    kept = int(handles[np.flatnonzero(handles)[0]])
    cache.invalidate()  # every handle given before is stale
    assert crowd.resolve(kept) is None and cache.resolve(kept) is None and crowd.resolve(0) is None
    with pytest.raises(ValueError):  # handles need a cache
        tp.Crowd(planner).plan(cls, pinit, pgoal, handles=handles)
    with pytest.raises(TypeError):
        crowd.plan(cls, pinit, pgoal, handles=handles.astype(np.int64))
    with pytest.raises(ValueError):
        crowd.plan(cls, pinit, pgoal, handles=handles[:-1])


def test_crowd_releases_the_gil():
    """Another Python thread keeps running while a large batch is planned."""
    task, planner, cls, init, goal, pinit, pgoal = western_crowd(200_000, seed=5)
    crowd = tp.Crowd(planner)
    ticks = []
    done = threading.Event()

    def ticker():
        while not done.is_set():
            ticks.append(1)

    t = threading.Thread(target=ticker)
    t.start()
    before = len(ticks)
    crowd.plan(cls, pinit, pgoal)
    during = len(ticks) - before
    done.set()
    t.join()
    assert during > 0


# ---------------------------------------------------------------------------------------------
# UDGOAP.

def test_udgoap_wizard():
    world, agent = tp.load_scenario(WIZARD)
    assert agent.goals
    r = agent.plan()
    assert r["status"] == "solved" and r["steps"]
    assert 0.0 < r["utility"] <= 1.0
    for action, supplier in r["steps"]:
        assert action in world.actions
        assert supplier is None or supplier in world.entities
    fresh = tp.UdgoapAgent(world)
    assert len(fresh.goals) == len(agent.goals)
    limited = agent.plan(max_expansions=1, max_generated=1)
    assert limited["status"] in ("limit reached", "gave up")
    with pytest.raises(KeyError):
        world.get_fact("nobody", "health")


def test_simulation_episodes_are_reproducible():
    arena = str(ROOT / "domains" / "sim" / "arena.toml")
    for selector in ("fsm", "goap", "udgoap"):
        a = tp.simulate(arena, selector, seed=3)
        assert a == tp.simulate(arena, selector, seed=3), selector  # same seed, same episode
        assert a["lifespan"] > 0 and a["ticks"] > 0 and a["decisions"] > 0
        assert a["steps_done"] > 0 and a["kills"] <= a["spawned"]
    with pytest.raises(ValueError):
        tp.simulate(arena, "random")
    with pytest.raises(tp.InputError):
        tp.simulate(str(ROOT / "domains" / "sim" / "none.toml"))


def test_sims_house():
    house = str(ROOT / "domains" / "sim" / "sims-house.toml")
    for selector in ("goap", "udgoap"):
        r = tp.simulate(house, selector)
        assert r["kind"] == "house" and r["ticks"] > 0 and r["steps"]
        assert r == tp.simulate(house, selector)  # deterministic
        assert r["final_drives"]
    with pytest.raises(ValueError):
        tp.simulate(house, "fsm")


def test_limits_and_classes_out_of_range():
    # PlannerOptions are checked at the registry's entrance (plan.h, check): a time limit above
    # 1e9 s is a ValueError naming the field, not a silent "no limit".
    task = tp.load_task(HORSE)
    with pytest.raises(ValueError, match="max_seconds"):
        tp.plan(task, "feed-horses", planner="astar", max_seconds=1e10)
    # One helper resolves npc_class everywhere: a name, an id, or None.
    with pytest.raises(KeyError):
        tp.check(task, "no-such-class")
    with pytest.raises(IndexError):
        tp.check(task, 99)
    with pytest.raises(IndexError):
        task.instance(init={"haystack": "none", "bucket": "none", "water": "inSource"},
                      goal={"water": "inTrough"}, npc_class=99)

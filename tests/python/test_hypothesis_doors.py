"""Property tests of the package's public functions against arbitrary arguments (hypothesis):
random types, shapes, dtypes and values — None, bools, huge and negative ints, NaN and
infinities, strings with NUL bytes, nested containers, NumPy arrays of any dtype and shape —
alongside valid ones. A call passes when it raises one of the documented Python exceptions
(ValueError and its InputError, TypeError, KeyError, IndexError, OverflowError), or when its
result passes the library's own judges (the validator, round trips, ranges). Anything else
fails: a RuntimeError from a failed cast, a MemoryError, a SystemError, a crash (pytest's
faulthandler prints the stack), or a result that does not hold.

TOPOPLAN_HYPOTHESIS_EXAMPLES (default 15) sets the examples per function; the long run of
docs/python.md uses 5000."""
import os
import sys
from pathlib import Path

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import topoplan as tp

sys.path.insert(0, str(Path(__file__).resolve().parent))
from hostile_args import arrays, floats, ints, scalars, texts  # noqa: E402

ROOT = Path(os.environ.get("TOPOPLAN_SOURCE_DIR", Path(__file__).resolve().parents[2]))
HORSE = str(ROOT / "domains" / "horse-breeder.toml")
WESTERN = str(ROOT / "domains" / "western.toml")
WIZARD = str(ROOT / "domains" / "udgoap" / "wizard.toml")
EXAMPLES = int(os.environ.get("TOPOPLAN_HYPOTHESIS_EXAMPLES", "15"))
FAST = settings(max_examples=EXAMPLES, deadline=None, derandomize=False,
                suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much,
                                       HealthCheck.data_too_large])
ALLOWED = (ValueError, TypeError, KeyError, IndexError, OverflowError)

TASK = tp.load_task(HORSE)
WEST = tp.load_task(WESTERN)
CROWD_PLANNER = tp.CrowdPlanner(WEST)

# ---------------------------------------------------------------------------------------------
# Arguments

anything = st.recursive(
    st.one_of(scalars, arrays()),
    lambda inner: st.one_of(st.lists(inner, max_size=4),
                            st.dictionaries(st.one_of(texts, ints), inner, max_size=4)),
    max_leaves=8)


def values_of(task):
    """States near valid: one entry per variable, each usually a value, sometimes hostile."""
    m = len(task.variables)
    entry = st.one_of(st.integers(-1, 3), ints, st.none(), texts)
    return st.one_of(st.lists(entry, min_size=m, max_size=m), st.lists(entry, max_size=m + 2),
                     st.dictionaries(st.sampled_from(task.variables + ["nope", ""]),
                                     st.one_of(st.integers(-1, 3), texts, ints), max_size=m),
                     anything)


def call(fn, *args, **kwargs):
    """(True, result) or (False, None) for an allowed exception; anything else propagates."""
    try:
        return True, fn(*args, **kwargs)
    except ALLOWED:
        return False, None


# ---------------------------------------------------------------------------------------------
# Tasks

@FAST
@given(path=st.one_of(texts, anything), fmt=st.one_of(texts, anything))
def test_load_task(path, fmt):
    ok, task = call(tp.load_task, path, fmt)
    assert not ok or task.variables  # a file that loads is a task


@FAST
@given(text=st.one_of(texts, st.sampled_from([open(HORSE).read()[:n] for n in (0, 50, 400, 2000)]),
                      anything),
       name=st.one_of(texts, anything), fmt=st.one_of(texts, anything))
def test_parse_task(text, name, fmt):
    ok, task = call(tp.parse_task, text, name, fmt)
    if ok:
        assert tp.parse_task(task.to_native()).to_dict() == task.to_dict()


@st.composite
def task_dicts(draw):
    d = TASK.to_dict()
    # Replace one piece anywhere in the dict by something arbitrary.
    path = []
    node = d
    while isinstance(node, (dict, list)) and node and draw(st.booleans()):
        key = draw(st.sampled_from(list(node.keys()) if isinstance(node, dict) else
                                   list(range(len(node)))))
        path.append(key)
        node = node[key]
    if path:
        parent = d
        for k in path[:-1]:
            parent = parent[k]
        parent[path[-1]] = draw(anything)
    elif draw(st.booleans()):
        d[draw(texts)] = draw(anything)
    return d


@FAST
@given(spec=st.one_of(task_dicts(), anything))
def test_task_from_dict(spec):
    ok, task = call(tp.Task.from_dict, spec)
    if ok:
        again = tp.Task.from_dict(task.to_dict())
        assert again.to_native() == task.to_native()
        for i in range(len(task.instances)):
            r = tp.plan(task, i, planner="astar", max_expansions=10_000)
            if r:
                assert tp.validate(task, i, r.actions).valid


@FAST
@given(state=values_of(TASK))
def test_state_dict(state):
    ok, d = call(TASK.state_dict, state)
    if ok:
        for var, value in d.items():
            assert value in TASK.values(TASK.variables.index(var))


@FAST
@given(init=values_of(TASK), goal=values_of(TASK), cls=st.one_of(st.none(), texts, ints, anything))
def test_instance_then_plan(init, goal, cls):
    ok, inst = call(TASK.instance, init, goal, cls)
    if ok:
        r = tp.plan(TASK, inst)
        assert r.status in ("solved", "unsolvable", "limit reached", "gave up")
        if r:
            assert tp.validate(TASK, inst, r.actions).valid
        if r.status == "unsolvable":  # a proof: the exact search agrees
            assert tp.plan(TASK, inst, planner="exact").status == "unsolvable"


# ---------------------------------------------------------------------------------------------
# Planning

@FAST
@given(which=st.one_of(st.none(), st.integers(-2, 6), texts, anything),
       planner=st.one_of(st.sampled_from(tp.planners()), texts, anything),
       exp=st.one_of(st.none(), ints, floats, anything), mem=st.one_of(st.none(), ints, anything),
       secs=st.one_of(st.none(), floats, st.just(0.5), anything),
       objective=st.one_of(st.sampled_from(["cost", "length"]), texts, anything))
def test_plan(which, planner, exp, mem, secs, objective):
    if planner in ("exact", "backstrom") and (exp is None or not isinstance(exp, int) or exp > 10**5):
        exp = 10**5  # keep the exact search short; its limits are still hostile otherwise
    ok, r = call(tp.plan, TASK, which, planner, max_expansions=exp, max_memory_bytes=mem,
                 max_seconds=secs, objective=objective)
    if ok:
        assert r.status in ("solved", "unsolvable", "limit reached", "gave up", "unsupported")
        if r:
            assert tp.validate(TASK, which, r.actions).valid


@FAST
@given(which=st.one_of(st.none(), st.integers(-2, 6), texts),
       actions=st.one_of(st.lists(st.one_of(st.integers(-2, 10), ints, texts), max_size=8),
                         anything))
def test_validate(which, actions):
    ok, v = call(tp.validate, TASK, which, actions)
    if ok:
        assert isinstance(v.valid, bool) and -1 <= v.failed_step < max(1, len(actions))


@FAST
@given(cls=st.one_of(st.none(), st.integers(-3, 3), texts, anything))
def test_check(cls):
    ok, report = call(tp.check, TASK, cls)
    assert not ok or report["class"] in ("C0", "C2S", "C2*", "none")


@FAST
@given(cls=st.one_of(st.none(), st.integers(-2, 2), texts), init=st.one_of(arrays(), anything),
       goal=st.one_of(arrays(), anything))
def test_topo_planner(cls, init, goal):
    ok, p = call(tp.TopoPlanner, TASK, cls)
    if not ok:
        return
    ok, r = call(p.plan, init, goal)
    if ok and r[0] == "solved":
        inst = TASK.instance([int(x) for x in init], [int(x) for x in goal], cls)
        assert tp.validate(TASK, inst, r[1]).valid


@FAST
@given(name=st.one_of(st.sampled_from(["western", "oneprv-5", "multiprv-n-cycle", "goto-chain"]),
                      texts, anything),
       size=st.one_of(st.integers(-1, 6), st.sampled_from([4097, 2**31, 2**70, -2**63]), anything),
       values=st.one_of(st.integers(0, 4), st.sampled_from([4097, 2**31, 2**70, -1]), anything))
def test_family(name, size, values):
    ok, task = call(tp.family, name, size, values)
    assert not ok or len(task.variables) > 0


# ---------------------------------------------------------------------------------------------
# Crowds

@FAST
@given(states=st.one_of(arrays(), anything), goal=st.booleans())
def test_pack_and_unpack(states, goal):
    pack = CROWD_PLANNER.pack_goals if goal else CROWD_PLANNER.pack_states
    unpack = CROWD_PLANNER.unpack_goals if goal else CROWD_PLANNER.unpack_states
    ok, packed = call(pack, states)
    if ok:
        assert (unpack(packed) == states).all()
    ok, back = call(unpack, states)
    if ok:
        sizes = [len(WEST.values(v)) for v in range(len(WEST.variables))]
        for row in back:
            assert all((x == -1 and goal) or 0 <= x < n for x, n in zip(row, sizes))


@FAST
@given(capacity=st.one_of(st.integers(-1, 64), st.sampled_from([2**28 + 1, 2**31, -2**31, 2**70]),
                          anything),
       max_len=st.one_of(st.integers(-1, 300), ints, anything),
       table=st.one_of(st.integers(-1, 4096), st.sampled_from([2**30 + 1, 2**31, -2**31, 2**70]),
                       anything),
       handle=st.one_of(st.integers(0, 2**64 - 1), ints, anything))
def test_plan_cache(capacity, max_len, table, handle):
    ok, cache = call(tp.PlanCache, CROWD_PLANNER, capacity, max_len, table)
    if ok:
        ok, plan = call(cache.resolve, handle)
        assert not ok or plan is None or len(plan) == 0


@st.composite
def batches(draw):
    n = draw(st.integers(0, 24))
    words = CROWD_PLANNER.words
    cls = draw(st.one_of(st.just(np.zeros(n, dtype=np.uint16)), arrays(), anything))
    raw = st.lists(st.integers(0, 2**64 - 1), min_size=n * words, max_size=n * words)
    init = draw(st.one_of(raw.map(lambda v: np.array(v, dtype=np.uint64)), arrays(), anything))
    goal = draw(st.one_of(raw.map(lambda v: np.array(v, dtype=np.uint64)), arrays(), anything))
    if n > 0 and draw(st.booleans()):  # valid packed states
        inst = [WEST.instances[draw(st.integers(0, len(WEST.instances) - 1))] for _ in range(n)]
        init = CROWD_PLANNER.pack_states(np.array([i.init for i in inst], dtype=np.int32)
                                         .reshape(n, -1))
        goal = CROWD_PLANNER.pack_goals(np.array([i.goal for i in inst], dtype=np.int32)
                                        .reshape(n, -1))
        cls = np.array(draw(st.lists(st.integers(0, CROWD_PLANNER.num_classes + 1), min_size=n,
                                     max_size=n)), dtype=np.uint16)
    return cls, init, goal


@FAST
@given(batch=batches(), threads=st.one_of(st.integers(0, 2), ints, anything),
       block=st.one_of(st.integers(0, 80), ints), handles=st.booleans(),
       chain=st.one_of(st.none(), st.sampled_from(["astar", "none", "", ",,", "bogus"]), anything),
       budget=st.one_of(floats, st.just(1.0)))
def test_crowd_batch(batch, threads, block, handles, chain, budget):
    cls, init, goal = batch
    cache = tp.PlanCache(CROWD_PLANNER, 256)
    ok, crowd = call(tp.Crowd, CROWD_PLANNER, threads, cache, block, fallback=chain)
    if not ok:
        return
    try:
        n = len(cls)
    except TypeError:  # a scalar, or a 0-d array, has no len()
        n = 0
    h = np.zeros(n, dtype=np.uint64) if handles else None
    ok, out = call(crowd.plan, cls, init, goal, handles=h)
    if not ok:
        ok, out = call(crowd.plan_frame, cls, init, goal, 0, budget)
        if not ok:
            return
        out = out[:5]
    actions, offset, length, status, stats = out
    words = CROWD_PLANNER.words
    for i in range(n):
        if not int(status[i]) & tp.CROWD_SOLVED:
            continue
        if h is not None and h[i]:
            plan = crowd.resolve(int(h[i]))
            assert plan is not None  # a fresh handle resolves
        else:
            plan = actions[offset[i]:offset[i] + length[i]]
        # A solved NPC had a valid state and goal (else: bad input), and its plan validates.
        s = CROWD_PLANNER.unpack_states(np.ascontiguousarray(init.reshape(-1)[i * words:(i + 1) * words]))
        g = CROWD_PLANNER.unpack_goals(np.ascontiguousarray(goal.reshape(-1)[i * words:(i + 1) * words]))
        inst = WEST.instance(s[0].tolist(), g[0].tolist(), int(cls[i]))
        assert tp.validate(WEST, inst, plan.tolist()).valid


@FAST
@given(exp=st.one_of(ints, anything), gen=st.one_of(ints, anything),
       length=st.one_of(st.integers(-2, 40), ints, anything))
def test_udgoap_plan(exp, gen, length):
    _, agent = tp.load_scenario(WIZARD)
    if isinstance(exp, int) and not isinstance(exp, bool) and 10**4 < exp <= 10**12:
        exp = 10**4  # a valid limit, kept short
    ok, r = call(agent.plan, exp, gen, length)
    assert not ok or r["status"] in ("solved", "unsolvable", "limit reached", "gave up")

"""What the C and Python doors cost, next to the C++ call they wrap, in one run.

Builds a crowd of Western NPCs with NumPy (instances of domains/western.toml, 20 % of the goals
swapped between NPCs, 10 % of goal entries free), writes it for the C/C++ tool
tests/capi/overhead.cpp (`cmake --build build/ci --target capi_overhead`), runs the tool (C++ and
C figures), and times the same calls from Python before and after it:
  * ℙ on the hot path, one NPC: TopoPlanner.plan(init, goal) vs topoplan_topo_plan vs
    TopoPlanner::plan;
  * the registry path, one NPC: topoplan.plan(task, instance, "topo") vs topoplan_plan vs
    find_planner("topo")->plan;
  * a cold crowd batch (one thread, no cache: every NPC through ℙ): Crowd.plan on NumPy arrays
    vs topoplan_crowd_plan vs Crowd::plan, ns per NPC.

    build/venv/bin/python examples/python/overhead.py --tool build/ci/tests/capi/capi_overhead
"""
import argparse
import json
import os
import statistics
import subprocess
import tempfile
import time
from pathlib import Path

import numpy as np

import topoplan as tp

ROOT = Path(__file__).resolve().parents[2]


def town(task, planner, n, seed=1):
    rng = np.random.default_rng(seed)
    inst = task.instances
    pick = rng.integers(0, len(inst), size=n)
    init = np.array([i.init for i in inst], dtype=np.int32)[pick]
    goal = np.array([i.goal for i in inst], dtype=np.int32)[pick]
    mix = np.flatnonzero(rng.random(n) < 0.2)
    goal[mix] = goal[rng.permutation(mix)]
    goal[rng.random(goal.shape) < 0.1] = -1
    cls = np.array([max(i.npc_class, 0) for i in inst], dtype=np.uint16)[pick]
    return cls, planner.pack_states(init), planner.pack_goals(goal)


# Thread CPU time, as the C/C++ tool measures: the cost of the call whatever else the machine
# runs (one-thread crowd, no pool: everything runs on this thread).
def per_call_ns(fn, calls):
    t0 = time.thread_time_ns()
    for _ in range(calls):
        fn()
    return (time.thread_time_ns() - t0) / calls


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--tool", default=str(ROOT / "build/ci/tests/capi/capi_overhead"))
    ap.add_argument("--task", default=str(ROOT / "domains/western.toml"))
    ap.add_argument("--instance", default=None, help="default: the task's first instance")
    ap.add_argument("--npcs", type=int, default=1_000_000)
    ap.add_argument("--reps", type=int, default=5)
    ap.add_argument("--rounds", type=int, default=3, help="runs of the C/C++ tool")
    args = ap.parse_args()

    task = tp.load_task(args.task)
    name = args.instance or task.instances[0].name
    inst = task.find_instance(name)
    planner = tp.CrowdPlanner(task)
    cls, init, goal = town(task, planner, args.npcs)
    n = len(cls)
    actions = np.empty(n * 16, dtype=np.int32)
    offset = np.empty(n, dtype=np.uint32)
    length = np.empty(n, dtype=np.uint16)
    status = np.empty(n, dtype=np.uint16)
    crowd = tp.Crowd(planner)  # one thread, no cache: every NPC through ℙ

    topo = tp.TopoPlanner(task, inst.npc_class)
    s0 = np.array(inst.init, dtype=np.int32)
    g = np.array(inst.goal, dtype=np.int32)

    def python_round():
        hot = statistics.median(per_call_ns(lambda: topo.plan(s0, g), 50_000) for _ in range(5))
        reg = statistics.median(per_call_ns(lambda: tp.plan(task, name, "topo"), 5_000)
                                for _ in range(5))
        crowd_ns = []
        for _ in range(args.reps):
            t0 = time.thread_time_ns()
            *_, stats = crowd.plan(cls, init, goal, actions, offset, length, status)
            crowd_ns.append((time.thread_time_ns() - t0) / n)
        return hot, reg, crowd_ns, stats["solved"]

    # Python rounds and runs of the C/C++ tool alternate, so that all three see the same machine.
    rounds = [python_round()]
    natives = []
    with tempfile.TemporaryDirectory() as tmp:
        prefix = os.path.join(tmp, "town")
        cls.tofile(prefix + ".class")
        init.tofile(prefix + ".init")
        goal.tofile(prefix + ".goal")
        for _ in range(args.rounds):
            out = subprocess.run([args.tool, args.task, name, prefix, str(n)], check=True,
                                 capture_output=True, text=True).stdout
            natives.append(json.loads(out))
            rounds.append(python_round())
    solved = {r[3] for r in rounds} | {x["crowd_solved"] for x in natives}
    assert len(solved) == 1, "C++, C and Python solved different NPCs"

    def med(key, lang):
        return statistics.median(x[key][lang] for x in natives)

    native = {"plan_length": natives[0]["plan_length"], "crowd_solved": natives[0]["crowd_solved"],
              "topo_hot_ns": {k: med("topo_hot_ns", k) for k in ("cpp", "c")},
              "topo_registry_ns": {k: med("topo_registry_ns", k) for k in ("cpp", "c")},
              "crowd_ns_per_npc": {k: med("crowd_ns_per_npc", k) for k in ("cpp", "c")}}
    py_hot = statistics.median(r[0] for r in rounds)
    py_reg = statistics.median(r[1] for r in rounds)
    py_crowd = statistics.median(x for r in rounds for x in r[2])
    load = os.getloadavg()
    print(f"task {args.task}, instance {name} ({native['plan_length']} actions); crowd of {n:,} "
          f"NPCs, {native['crowd_solved']:,} solved; load average "
          f"{load[0]:.2f} {load[1]:.2f} {load[2]:.2f}")
    print(f"{'thread CPU time, medians':34} {'C++':>10} {'C':>10} {'Python':>10}")
    print(f"{'ℙ hot path, ns per plan':34} {native['topo_hot_ns']['cpp']:>10.1f} "
          f"{native['topo_hot_ns']['c']:>10.1f} {py_hot:>10.1f}")
    label = 'registry plan("topo"), ns per plan'
    print(f"{label:34} {native['topo_registry_ns']['cpp']:>10.1f} "
          f"{native['topo_registry_ns']['c']:>10.1f} {py_reg:>10.1f}")
    cpp = native["crowd_ns_per_npc"]["cpp"]
    print(f"{'crowd batch, ns per NPC':34} {cpp:>10.2f} "
          f"{native['crowd_ns_per_npc']['c']:>10.2f} {py_crowd:>10.2f}")
    print(f"crowd through Python vs C++: {100.0 * (py_crowd / cpp - 1.0):+.1f} %; "
          f"through C: {100.0 * (native['crowd_ns_per_npc']['c'] / cpp - 1.0):+.1f} %")


if __name__ == "__main__":
    main()

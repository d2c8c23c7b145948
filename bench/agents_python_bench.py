# AgentWorld.update() from Python: DOMAIN with N agents for F frames on T threads, 5 % of the agents
# sensing a random value of one class variable per frame; prints ns per agent per update
# (bench/results/2026-11-27-agents.md). Usage: agents_python_bench.py DOMAIN N F T
import sys, time, os
import numpy as np
import topoplan as tp
path, n, frames, threads = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), int(sys.argv[4])
task = tp.load_task(path); d = task.to_dict()
classes = task.classes or ["all"]
acts = {a["name"]: a for a in d["actions"]}
cls_vars = []
for c in (d.get("classes") or [{"actions": list(acts)}]):
    cls_vars.append(sorted({task.variables.index(v) for a in c["actions"] for v in acts[a]["post"]}))
w = tp.AgentWorld(task, capacity=n, decision_period=30, max_plans_per_frame=n, threads=threads)
for c in range(len(classes)):
    gl = []
    for inst in task.instances:
        if inst.npc_class in (c, -1):
            g = [-1] * len(task.variables)
            for v in cls_vars[c]: g[v] = inst.goal[v]
            if any(x != -1 for x in g): gl.append(w.add_goal(f"{inst.name}", g))
    w.set_class_goals(c, w.add_goal_list(gl))
start = {}
for c in range(len(classes)):
    start[c] = next((i.init for i in task.instances if i.npc_class in (c, -1)), [0] * len(task.variables))
cl = (np.arange(n) % len(classes)).astype(np.int32)
states = np.array([start[c] for c in range(len(classes))], dtype=np.int32)[cl]
w.add_agents(cl, np.ascontiguousarray(states))
rng = np.random.default_rng(1)
out = np.zeros(4 * n + 64, dtype=tp.EVENT_DTYPE)
times = []; cpu = []
for f in range(frames):
    k = int(0.05 * n)
    ag = rng.integers(0, n, size=k).astype(np.int32)
    for c in range(len(classes)):
        sel = ag[cl[ag] == c]
        if not len(cls_vars[c]): continue
        v = cls_vars[c][f % len(cls_vars[c])]
        w.set_facts(sel, v, rng.integers(0, len(task.values(v)), size=len(sel)).astype(np.int32))
    t0 = time.perf_counter(); c0 = time.process_time()
    ev = w.update(1 / 60, out)
    times.append(time.perf_counter() - t0); cpu.append(time.process_time() - c0)
m = frames // 5
print(f"{os.path.basename(path)} N={n} T={threads} wall_ns/agent={1e9*np.mean(times[m:])/n:.1f} "
      f"process_cpu_ns/agent={1e9*np.mean(cpu[m:])/n:.1f} median_frame_ms={1e3*np.median(times[m:]):.2f} "
      f"planning={100*w.last_stats['plan_ns']/1e9/times[-1]:.0f}% load={os.getloadavg()[0]:.1f}")

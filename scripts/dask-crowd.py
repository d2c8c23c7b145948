#!/usr/bin/env python3
"""An offline crowd of many NPCs planned through the Python package, sharded by NPC range over
Dask workers (docs/sim.md, "On a cluster").

NPC i of a run seeded s plays instance mix(s, i) mod |instances| of the domain (its class, start
and goal), so any NPC range can be built anywhere without the others. A shard [a, b) builds its
arrays, plans them with a Crowd (1 thread, plan cache) and returns its counts and the SHA-256 of
its answers (plan lengths, statuses, actions); the run's hash is the SHA-256 of the shards'
digests in order, so the run gives the same hash on any number of workers, or in one process
(--dask none).

  scripts/dask-crowd.py --npcs 100000000 --dask local:2
  scripts/dask-crowd.py --npcs 100000000 --dask tcp://scheduler:8786   # workers import topoplan
"""
import argparse
import hashlib
import time

MASK = (1 << 64) - 1


def instance_of(seed, start, count, n):
    """Instance index of NPCs start..start+count-1 (splitmix64 of seed ^ i, mod n)."""
    import numpy as np
    with np.errstate(over="ignore"):
        z = np.arange(start, start + count, dtype=np.uint64) ^ np.uint64(seed & MASK)
        z = z + np.uint64(0x9E3779B97F4A7C15)
        z = (z ^ (z >> np.uint64(30))) * np.uint64(0xBF58476D1CE4E5B9)
        z = (z ^ (z >> np.uint64(27))) * np.uint64(0x94D049BB133111EB)
        z = z ^ (z >> np.uint64(31))
    return (z % np.uint64(n)).astype(np.int64)


def plan_shard(domain, seed, start, count):
    """(npcs, solved, cache hits, digest) of NPCs start..start+count-1 (a Dask task)."""
    import numpy as np
    import topoplan as tp
    task = tp.load_task(domain)
    planner = tp.CrowdPlanner(task)
    inst = task.instances
    init = planner.pack_states(np.array([x.init for x in inst], dtype=np.int32))
    goal = planner.pack_goals(np.array([x.goal for x in inst], dtype=np.int32))
    cls = np.array([x.npc_class for x in inst], dtype=np.uint16)
    k = instance_of(seed, start, count, len(inst))
    crowd = tp.Crowd(planner, threads=1, cache=tp.PlanCache(planner))
    actions, offset, length, status, stats = crowd.plan(
        np.ascontiguousarray(cls[k]), np.ascontiguousarray(init[k]),
        np.ascontiguousarray(goal[k]))
    h = hashlib.sha256()
    h.update(length.tobytes())
    h.update(status.tobytes())
    h.update(actions[:int(offset[-1]) + int(length[-1])].tobytes() if count else b"")
    solved = int(np.count_nonzero(status & tp.CROWD_SOLVED))
    return count, solved, int(stats.get("cache_hits", 0)), h.hexdigest()


def run(domain, npcs, shard, seed, client=None):
    ranges = [(a, min(shard, npcs - a)) for a in range(0, npcs, shard)]
    if client is None:
        parts = [plan_shard(domain, seed, a, n) for a, n in ranges]
    else:
        futures = [client.submit(plan_shard, domain, seed, a, n, pure=False) for a, n in ranges]
        parts = client.gather(futures)
    h = hashlib.sha256()
    for p in parts:
        h.update(bytes.fromhex(p[3]))
    return {"npcs": sum(p[0] for p in parts), "solved": sum(p[1] for p in parts),
            "cache_hits": sum(p[2] for p in parts), "hash": h.hexdigest(), "shards": len(parts)}


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--domain", default="domains/western.toml")
    ap.add_argument("--npcs", type=int, default=1_000_000)
    ap.add_argument("--shard", type=int, default=1_000_000, help="NPCs per task")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--dask", default="local:2", help="local:N, a scheduler address, or none")
    a = ap.parse_args()
    if a.npcs < 1 or a.shard < 1:
        ap.error("--npcs and --shard must be at least 1")
    client = cluster = None
    if a.dask != "none":
        from distributed import Client, LocalCluster
        if a.dask.startswith("local:"):
            cluster = LocalCluster(n_workers=int(a.dask[6:]), threads_per_worker=1,
                                   processes=True, dashboard_address=None)
            client = Client(cluster)
        else:
            client = Client(a.dask)
    try:
        t0 = time.time()
        r = run(a.domain, a.npcs, a.shard, a.seed, client)
        secs = time.time() - t0
    finally:
        if client is not None:
            client.close()
        if cluster is not None:
            cluster.close()
    print(f"{a.domain}: {r['npcs']} NPCs in {r['shards']} shards on {a.dask}: {secs:.1f} s "
          f"({r['npcs'] / secs:,.0f} NPCs/s), solved {r['solved']}, cache hits "
          f"{r['cache_hits']}, hash {r['hash']}")


if __name__ == "__main__":
    main()

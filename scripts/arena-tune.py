#!/usr/bin/env python3
"""Tunes each selector of the wizard arena by the method of Sloan (2015) §6.1.1, then runs the
final comparison (docs/sim.md, "The arena tuned by the thesis's method").

  FSM     a grid of (health, mana) thresholds, multiples of STEP in 0..100, EPISODES each;
  GOAP    SETS random Table-6.1-style cost sets (five costs in 0.01..1.00), EPISODES each,
          once with forward A* and once with regressive A* (the thesis's GOAP plans backward);
  UDGOAP  SETS random weight sets (six drive weights in 0.01..1.00), EPISODES each.

The candidate with the longest mean lifespan wins (the thesis's rule). Every candidate of a
sweep sees the same episodes (seed --tune-seed), which are not those of the final run (seed
--final-seed): the final 300 episodes per selector are fresh, so the winner's luck in the sweep
does not carry into the table. The final run is `topoplan sim` on a scenario holding the four
tuned configurations; it prints the table beside Table 6.3 with Kruskal-Wallis and Dunn.

Engines for the sweeps: `cli` (default: one `topoplan sim` process per candidate, its --threads)
or `dask` (the Python package on a Dask cluster, sharded by candidate and episode range:
--dask local:N starts a LocalCluster of N single-threaded workers, --dask tcp://host:8786 uses a
running scheduler whose workers can import topoplan). Both give the same lifespans: episode i of
seed s is seeded stream_seed(s, i) (src/sim/core.cpp) by either engine, and the sweep's hash
covers every lifespan.

Writes OUT/sweep-*.csv (every candidate and its mean), OUT/tuned-PLANNER/arena.toml +
arena-udgoap.toml (the tuned scenarios), OUT/final-PLANNER.json and OUT/summary.json.
"""
import argparse
import csv
import json
import os
import random
import re
import shutil
import subprocess
import sys
import tempfile
import time

MASK = (1 << 64) - 1
DRIVES = ["kill_enemies", "maximize_health", "maximize_mana", "maximize_health_potions",
          "maximize_mana_potions", "minimize_enemies_nearby"]
COSTS = ["goto", "melee", "lightning", "blast", "heal"]


def splitmix64(x):
    x = (x + 0x9E3779B97F4A7C15) & MASK
    z = x
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & MASK
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & MASK
    return x, z ^ (z >> 31)


def stream_seed(seed, index):
    """The seed of episode `index` of a run seeded `seed` (sim::stream_seed, src/sim/core.cpp)."""
    x = (seed ^ ((index * 0xD1B54A32D192ED03) & MASK)) & MASK
    x, _ = splitmix64(x)
    _, z = splitmix64(x)
    return z


def lifespans_hash(values):
    """The CLI's lifespans_hash (cli/cmd_sim.cpp): FNV-1a over the lifespans in milliseconds."""
    h = 0xcbf29ce484222325
    for v in values:
        h = ((h ^ (round_half_away(v * 1000) & MASK)) * 0x100000001b3) & MASK
    return h


def round_half_away(x):  # std::llround
    return int(x + 0.5) if x >= 0 else -int(-x + 0.5)


# --- scenario variants: section-aware edits of the TOML text, comments kept ---------------------

def edit_section(text, section, key, value_text, add=False):
    """Sets `key = value_text` inside [section] (the first line of that key there)."""
    out, cur, done = [], None, False
    lines = text.split("\n")
    for i, line in enumerate(lines):
        m = re.match(r"^\s*\[\[?([^\]]+)\]\]?\s*(#.*)?$", line)
        if m:
            if add and cur == section and not done:
                out.insert(len(out) - trailing_blank(out), f"{key} = {value_text}")
                done = True
            cur = m.group(1).strip()
        elif cur == section and not done and re.match(rf"^{re.escape(key)}\s*=", line):
            line = f"{key} = {value_text}   # scripts/arena-tune.py"
            done = True
        out.append(line)
    if add and cur == section and not done:
        out.insert(len(out) - trailing_blank(out), f"{key} = {value_text}")
        done = True
    if not done:
        raise SystemExit(f"arena-tune: no '{key}' in [{section}] to set")
    return "\n".join(out)


def trailing_blank(lines):
    n = 0
    while n < len(lines) and lines[len(lines) - 1 - n].strip() == "":
        n += 1
    return n


def set_weights(template, weights):
    """Sets the weights of the six drives (by name) of the UDGOAP template."""
    out, drive = [], None
    for line in template.split("\n"):
        m = re.match(r'^name\s*=\s*"([^"]+)"', line)
        if re.match(r"^\s*\[", line):
            drive = "" if line.strip() == "[[drive]]" else None
        elif drive == "" and m:
            drive = m.group(1)
        elif drive and drive in weights and re.match(r"^weight\s*=", line):
            line = f"weight = {weights[drive]:.2f}"
        out.append(line)
    return "\n".join(out)


def variant(base, template, fsm=None, costs=None, planner=None, weights=None):
    """(arena.toml text, arena-udgoap.toml text) with the given configuration."""
    a, t = base, template
    if fsm is not None:
        a = edit_section(a, "fsm", "health", str(fsm[0]))
        a = edit_section(a, "fsm", "mana", str(fsm[1]))
    if costs is not None:
        inner = ", ".join(f"{k} = {costs[k]:.2f}" for k in COSTS)
        a = edit_section(a, "goap", "costs", "{ " + inner + " }")
    if planner is not None:
        a = edit_section(a, "goap", "planner", f'"{planner}"', add=True)
    if weights is not None:
        t = set_weights(t, weights)
    return a, t


def write_scenario(d, arena, template):
    os.makedirs(d, exist_ok=True)
    with open(os.path.join(d, "arena.toml"), "w") as f:
        f.write(arena)
    with open(os.path.join(d, "arena-udgoap.toml"), "w") as f:
        f.write(template)
    return os.path.join(d, "arena.toml")


# --- engines ------------------------------------------------------------------------------------

def run_shard(arena, template, selector, seed, start, count):
    """Lifespans of episodes start..start+count-1 through the Python package (a Dask task)."""
    import topoplan
    with tempfile.TemporaryDirectory(prefix="arena-shard-") as d:
        path = write_scenario(d, arena, template)
        return [topoplan.simulate(path, selector, stream_seed(seed, i))["lifespan"]
                for i in range(start, start + count)]


class CliEngine:
    def __init__(self, cli, threads, work):
        self.cli, self.threads, self.work = cli, threads, work

    def means(self, candidates, selector, seed, episodes):
        """[(mean, lifespans_hash)] per candidate (arena text, template text)."""
        out = []
        for k, (arena, template) in enumerate(candidates):
            path = write_scenario(os.path.join(self.work, "cand"), arena, template)
            r = subprocess.run([self.cli, "sim", path, "--selector", selector, "--episodes",
                                str(episodes), "--seed", str(seed), "--threads",
                                str(self.threads), "--json", "--quiet"],
                               capture_output=True, text=True)
            if r.returncode != 0:
                raise SystemExit(f"arena-tune: {' '.join(r.args)}: exit {r.returncode}\n{r.stderr}")
            s = json.loads(r.stdout)["selectors"][0]
            out.append((s["mean"], s["lifespans_hash"]))
            progress(k + 1, len(candidates))
        return out


class DaskEngine:
    def __init__(self, address, shard):
        from distributed import Client, LocalCluster
        self.cluster = None
        if address.startswith("local:"):
            n = int(address[len("local:"):])
            self.cluster = LocalCluster(n_workers=n, threads_per_worker=1, processes=True,
                                        dashboard_address=None)
            self.client = Client(self.cluster)
        else:
            self.client = Client(address)
        self.shard = shard

    def close(self):
        self.client.close()
        if self.cluster is not None:
            self.cluster.close()

    def means(self, candidates, selector, seed, episodes):
        futures = []
        for arena, template in candidates:
            shards = []
            for start in range(0, episodes, self.shard):
                shards.append(self.client.submit(run_shard, arena, template, selector, seed,
                                                 start, min(self.shard, episodes - start),
                                                 pure=False))
            futures.append(shards)
        out = []
        for k, shards in enumerate(futures):
            spans = [v for part in self.client.gather(shards) for v in part]
            out.append((sum(spans) / len(spans), lifespans_hash(spans)))
            progress(k + 1, len(candidates))
        return out


def progress(done, total):
    if sys.stderr.isatty():
        print(f"\r  {done}/{total}", end="" if done < total else "\n", file=sys.stderr)
    elif done % 10 == 0 or done == total:
        # A log of a long run says how far it got if it is stopped before the sweep's CSV.
        print(f"  {done}/{total} candidates", file=sys.stderr, flush=True)


# --- the method ---------------------------------------------------------------------------------

def sweep(engine, name, candidates, labels, selector, seed, episodes, out_dir):
    t0 = time.time()
    res = engine.means(candidates, selector, seed, episodes)
    secs = time.time() - t0
    best = max(range(len(res)), key=lambda i: (res[i][0], -i))
    with open(os.path.join(out_dir, f"sweep-{name}.csv"), "w", newline="") as f:
        w = csv.writer(f)
        w.writerow(list(labels[0].keys()) + ["mean_lifespan", "lifespans_hash"])
        for lab, (m, h) in zip(labels, res):
            w.writerow(list(lab.values()) + [f"{m:.4f}", h])
    h = 0xcbf29ce484222325
    for _, hh in res:
        h = ((h ^ hh) * 0x100000001b3) & MASK
    n = len(candidates) * episodes
    print(f"{name}: {len(candidates)} candidates x {episodes} episodes = {n} episodes in "
          f"{secs:.1f} s ({n / secs:.1f} episodes/s); best {labels[best]} mean "
          f"{res[best][0]:.2f} s; sweep hash {h:016x}", flush=True)
    return {"best": labels[best], "best_mean": res[best][0], "candidates": len(candidates),
            "episodes_each": episodes, "seconds": secs, "episodes_per_second": n / secs,
            "hash": f"{h:016x}"}


def report(j, cmd):
    """Prints the final table beside Table 6.3 and the tests; returns it for summary.json."""
    print(f"final: {cmd}")
    print("| selector | mean (s) | std. dev. (s) | median (s) | censored | thesis mean | thesis "
          "std. dev. |\n|---|---|---|---|---|---|---|")
    for r in j["selectors"]:
        print(f"| {r['selector']} | {r['mean']:.2f} | {r['stddev']:.2f} | {r['median']:.2f} | "
              f"{r['censored']} | {r['thesis_mean']:.2f} | {r['thesis_stddev']:.2f} |")
    kw = j.get("kruskal_wallis")
    if kw:
        print(f"Kruskal-Wallis H = {kw['h']:.2f}, df = {kw['df']}, p = {kw['p']:.3g} (thesis "
              f"{kw['thesis_p']}); Dunn, Hochberg-adjusted: " +
              ", ".join(f"{d['a']}-{d['b']} z = {d['z']:.2f} p = {d['p_adjusted']:.3g}"
                        for d in j["dunn"]), flush=True)
    return {"selectors": j["selectors"], "kruskal_wallis": kw, "dunn": j.get("dunn")}


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--cli", default="build/rel/cli/topoplan")
    ap.add_argument("--scenario", default="domains/sim/arena.toml")
    ap.add_argument("--out", default="build/arena-tune")
    ap.add_argument("--only", default="fsm,goap,goap-back,udgoap",
                    help="sweeps to run (the others keep the scenario's values)")
    ap.add_argument("--fsm-step", type=int, default=5, help="grid step (thesis 5: 21 x 21)")
    ap.add_argument("--fsm-episodes", type=int, default=40, help="thesis 40")
    ap.add_argument("--sets", type=int, default=270, help="random sets per GOAP/UDGOAP (270)")
    ap.add_argument("--set-episodes", type=int, default=10, help="thesis 10")
    ap.add_argument("--final-episodes", type=int, default=300, help="thesis 300; 0: none")
    ap.add_argument("--final-planners", default="astar-back,astar",
                    help="GOAP searches of the final runs (astar-back, astar)")
    ap.add_argument("--tune-seed", type=int, default=2)
    ap.add_argument("--final-seed", type=int, default=1)
    ap.add_argument("--threads", type=int, default=2, help="cli engine: threads per run")
    ap.add_argument("--reuse", action="append", default=[], metavar="SUMMARY.json",
                    help="tuned values of sweeps run earlier (their OUT/summary.json)")
    ap.add_argument("--dask", default="", help="local:N or a scheduler address (tcp://...)")
    ap.add_argument("--shard", type=int, default=10, help="dask: episodes per task")
    a = ap.parse_args()
    for flag in ("fsm_step", "fsm_episodes", "set_episodes", "threads", "shard"):
        if getattr(a, flag) < 1:
            ap.error(f"--{flag.replace('_', '-')} must be at least 1")
    if a.sets < 0 or a.final_episodes < 0 or 100 % a.fsm_step != 0:
        ap.error("--sets and --final-episodes must be >= 0; --fsm-step must divide 100")
    only = {x for x in a.only.split(",") if x not in ("", "none")}
    if not only <= {"fsm", "goap", "goap-back", "udgoap"}:
        ap.error(f"--only: fsm, goap, goap-back, udgoap; found {a.only}")

    base = open(a.scenario).read()
    tpl_name = re.search(r'^template\s*=\s*"([^"]+)"', base, re.M).group(1)
    template = open(os.path.join(os.path.dirname(a.scenario), tpl_name)).read()
    base = edit_section(base, "udgoap", "template", '"arena-udgoap.toml"')
    os.makedirs(a.out, exist_ok=True)
    work = tempfile.mkdtemp(prefix="arena-tune-")
    engine = DaskEngine(a.dask, a.shard) if a.dask else CliEngine(a.cli, a.threads, work)
    rng = random.Random(a.tune_seed)
    summary = {"args": vars(a)}
    tuned = {"fsm": None, "costs": None, "costs_back": None, "weights": None}
    for path in a.reuse:
        with open(path) as f:
            earlier = json.load(f)["tuned"]
        for k, v in earlier.items():
            if v is not None:
                tuned[k] = tuple(v) if k == "fsm" else v
        summary.setdefault("reused", []).append(path)
    try:
        if "fsm" in only:
            grid = range(0, 101, a.fsm_step)
            labels = [{"health": h, "mana": m} for h in grid for m in grid]
            cands = [variant(base, template, fsm=(x["health"], x["mana"])) for x in labels]
            summary["fsm"] = sweep(engine, "fsm", cands, labels, "fsm", a.tune_seed,
                                   a.fsm_episodes, a.out)
            b = summary["fsm"]["best"]
            tuned["fsm"] = (b["health"], b["mana"])
        sets = [{k: rng.randint(1, 100) / 100 for k in COSTS} for _ in range(a.sets)]
        wsets = [{k: rng.randint(1, 100) / 100 for k in DRIVES} for _ in range(a.sets)]
        for name, planner in (("goap", "astar"), ("goap-back", "astar-back")):
            if name not in only or not sets:
                continue
            # Forward A* is the scenario's default: its files carry no planner key.
            cands = [variant(base, template, costs=c,
                             planner=None if planner == "astar" else planner) for c in sets]
            summary[name] = sweep(engine, name, cands, sets, "goap", a.tune_seed,
                                  a.set_episodes, a.out)
            tuned["costs" if planner == "astar" else "costs_back"] = summary[name]["best"]
        if "udgoap" in only and wsets:
            cands = [variant(base, template, weights=w) for w in wsets]
            summary["udgoap"] = sweep(engine, "udgoap", cands, wsets, "udgoap", a.tune_seed,
                                      a.set_episodes, a.out)
            tuned["weights"] = summary["udgoap"]["best"]
    finally:
        if a.dask:
            engine.close()
        shutil.rmtree(work, ignore_errors=True)

    # The tuned scenario: one file per GOAP search (the FSM and UDGOAP values are the same in
    # both); the final runs are the CLI's, which prints the table and the tests.
    if tuned["costs_back"] is None and tuned["costs"] is not None:
        # No regressive sweep: the regressive A* plays the forward sweep's costs (both searches
        # return cost-optimal plans; only ties between equal-cost plans may differ).
        tuned["costs_back"] = tuned["costs"]
        summary["costs_back_from"] = "the forward GOAP sweep"
    summary["tuned"] = tuned
    if a.final_episodes > 0:
        for planner, costs in (("astar-back", tuned["costs_back"]), ("astar", tuned["costs"])):
            if planner not in a.final_planners.split(","):
                continue
            arena, tpl = variant(base, template, fsm=tuned["fsm"], costs=costs,
                                 planner=None if planner == "astar" else planner,
                                 weights=tuned["weights"])
            d = os.path.join(a.out, f"tuned-{planner}")
            path = write_scenario(d, arena, tpl)
            cmd = [a.cli, "sim", path, "--episodes", str(a.final_episodes), "--seed",
                   str(a.final_seed), "--threads", str(a.threads), "--quiet", "--json"]
            r = subprocess.run(cmd, capture_output=True, text=True)
            if r.returncode != 0:
                raise SystemExit(f"arena-tune: {' '.join(cmd)}: exit {r.returncode}\n{r.stderr}")
            with open(os.path.join(a.out, f"final-{planner}.json"), "w") as f:
                f.write(r.stdout)
            summary[f"final-{planner}"] = report(json.loads(r.stdout), " ".join(cmd))
    with open(os.path.join(a.out, "summary.json"), "w") as f:
        json.dump(summary, f, indent=1)


if __name__ == "__main__":
    main()

"""A benchmark sweep in the manner of the papers' figures, plotted with matplotlib.

For OnePrv_5(m) and MultiPrv_2_Cycle(m) (Prévost et al. 2023, §6; docs/benchmarks.md), plans the
family's instance with ℙ ("topo"), Bäckström's 𝒫 ("backstrom"), GOAP A* ("astar") and the exact
search, for growing m, and plots the planner's own wall-clock time (PlanResult.seconds, measured
inside the library: no Python overhead) against m, one panel per family. Every plan is checked by
the validator before it is counted.

    build/venv/bin/python examples/python/sweep.py -o sweep.png [--max-m 64] [--reps 5]
"""
import argparse
import statistics

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

import topoplan as tp  # noqa: E402

PLANNERS = ["topo", "backstrom", "astar", "exact"]
FAMILIES = ["oneprv-5", "multiprv-2-cycle"]


def sweep(family, sizes, reps, search_limit):
    times = {p: [] for p in PLANNERS}
    for m in sizes:
        task = tp.family(family, m)
        for p in PLANNERS:
            seconds = []
            for _ in range(reps):
                r = tp.plan(task, 0, p, max_expansions=search_limit)
                if not r:
                    seconds = None  # limit reached (search) or refused: no point
                    break
                assert tp.validate(task, 0, r.actions).valid, (family, m, p)
                seconds.append(r.seconds)
            times[p].append(statistics.median(seconds) * 1e6 if seconds else None)
    return times


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("-o", "--output", default="sweep.png")
    ap.add_argument("--max-m", type=int, default=64)
    ap.add_argument("--reps", type=int, default=5)
    ap.add_argument("--search-limit", type=int, default=200_000,
                    help="node limit of A* and the exact search (points beyond are left out)")
    args = ap.parse_args()
    sizes = [m for m in (1, 2, 4, 8, 12, 16, 24, 32, 48, 64, 96, 128, 192, 256)
             if m <= args.max_m]
    fig, axes = plt.subplots(1, len(FAMILIES), figsize=(11, 4.2))
    for ax, family in zip(axes, FAMILIES):
        times = sweep(family, sizes, args.reps, args.search_limit)
        for p in PLANNERS:
            pts = [(m, t) for m, t in zip(sizes, times[p]) if t is not None]
            if pts:
                ax.plot(*zip(*pts), marker="o", label=p)
            print(family, p, ", ".join(f"m={m}: {t:.1f} µs" for m, t in pts))
        ax.set_title(family)
        ax.set_xlabel("m (variables)")
        ax.set_ylabel("median time per plan (µs)")
        ax.set_yscale("log")
        ax.grid(True, which="both", alpha=0.3)
        ax.legend()
    fig.suptitle("topoplan, registry path (each call builds the planner's tables): "
                 "topo = ℙ, backstrom = Bäckström's P, astar = GOAP A*, exact search")
    fig.tight_layout()
    fig.savefig(args.output, dpi=110)
    print("wrote", args.output)


if __name__ == "__main__":
    main()

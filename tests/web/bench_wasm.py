"""WebAssembly vs native on this machine (not a test; scripts/test.sh does not run it):
ns per Western plan (ℙ) and ns per NPC in a 10^5-NPC crowd, single-threaded. Three sides, run
alternately: the module in headless Chromium (bench.html), the same binding sources compiled
natively with g++ -O3 against build/release's C API (tests/web/bench_native.cpp), and the
CLI (`topoplan bench western`, `topoplan crowd --npcs 100000 --threads 1`). Medians and minima
over the repetitions (the minimum is the least disturbed by other processes). Also the .wasm size
and the pages' load times.

  cmake --preset release && cmake --build build/release --target topoplan_c_research
  /usr/bin/python3 tests/web/bench_wasm.py [--rounds 3] [--cli build/ci/cli/topoplan]
"""

import argparse
import gzip
import json
import os
import statistics
import subprocess

from webtest import ROOT, SITE, Browser


def native(cli):
    w = json.loads(subprocess.run([cli, "bench", "western", "--json", "--planners", "topo"],
                                  check=True, capture_output=True, text=True).stdout)
    c = json.loads(subprocess.run([cli, "crowd", "--npcs", "100000", "--threads", "1", "--json"],
                                  check=True, capture_output=True, text=True).stdout)
    return {"western_ns": w["ns_per_plan"]["topo"], "cold_ns": c["cold_ns_per_npc_per_core"],
            "warm_ns": c["warm_ns_per_npc_per_core"],
            "cold_cpu_ns": c["cold_cpu_ns_per_npc"], "warm_cpu_ns": c["warm_cpu_ns_per_npc"]}


def figures(w, c):
    return {"western_ns": w["ns_per_plan"], "western_min": w["ns_per_plan_min"],
            "cold_ns": c["cold_ns_per_npc"], "cold_min": c["cold_ns_per_npc_min"],
            "warm_ns": c["warm_ns_per_npc"], "warm_min": c["warm_ns_per_npc_min"]}


def wasm(b):
    return figures(b.js("return window.__tp.bench.western(0.2, 5)"),
                   b.js("return window.__tp.bench.crowd(100000, 5, 10)"))


def tree_cpu_s(root):
    """CPU seconds (user + system) of `root` and all its descendants, from /proc."""
    tick = os.sysconf("SC_CLK_TCK")
    parent, cpu = {}, {}
    for d in os.listdir("/proc"):
        if not d.isdigit():
            continue
        try:
            f = open(f"/proc/{d}/stat").read().rsplit(")", 1)[1].split()
        except OSError:
            continue
        parent[int(d)] = int(f[1])
        cpu[int(d)] = (int(f[11]) + int(f[12])) / tick
    total, todo = 0.0, [root]
    while todo:
        p = todo.pop()
        total += cpu.get(p, 0.0)
        todo += [c for c, q in parent.items() if q == p]
    return total


def wasm_cpu(b):
    """CPU seconds the browser spends on the fixed-work calls bench_native.cpp also times."""
    root = b.driver.service.process.pid  # chromedriver: Chromium and its renderers below it
    out = {}
    for key, call in (("western_s", "window.__tp.bench.western(0, 5, 1000000)"),
                      ("build_s", "window.__tp.bench.crowd(100000, 0, 0)"),
                      ("cold_s", "window.__tp.bench.crowd(100000, 20, 0)"),
                      ("warm1_s", "window.__tp.bench.crowd(100000, 0, 1)"),
                      ("warm_s", "window.__tp.bench.crowd(100000, 0, 201)")):
        t0 = tree_cpu_s(root)
        b.js(call)
        out[key] = tree_cpu_s(root) - t0
    return out


def cpu_ns(c):
    """ns per plan / per NPC from the fixed-work CPU seconds."""
    return {"western": c["western_s"] * 1e9 / (5 * 1000000),
            "cold": (c["cold_s"] - c["build_s"]) * 1e9 / (20 * 100000),
            "warm": (c["warm_s"] - c["warm1_s"]) * 1e9 / (200 * 100000)}


def build_native_binding():
    """The binding's sources (src/wasm/*.cpp) compiled natively, linked to the Release C API
    (build/release's libtopoplan_c_research.so: the binding uses towns and the simulation): the module's code path, native."""
    out = os.path.join(ROOT, "build", "web-bench", "native_bench")
    os.makedirs(os.path.dirname(out), exist_ok=True)
    lib = os.path.join(ROOT, "build", "release", "src", "capi")
    wasm = os.path.join(ROOT, "src", "wasm")
    subprocess.run(["g++", "-std=c++20", "-O3", "-DNDEBUG", "-I" + os.path.join(ROOT, "include"),
                    "-I" + wasm] + [os.path.join(wasm, f) for f in
                                    ("binding.cpp", "live_town.cpp", "sim.cpp", "bench.cpp")] +
                   [os.path.join(ROOT, "tests", "web", "bench_native.cpp"), "-L" + lib,
                    "-Wl,-rpath," + lib, "-ltopoplan_c_research", "-o", out], check=True)
    return out


def native_binding(exe):
    j = json.loads(subprocess.run([exe], check=True, capture_output=True, text=True).stdout)
    return figures(j["western"], j["crowd"]), j["cpu"]


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--cli", default=os.path.join(ROOT, "build", "ci", "cli", "topoplan"))
    a = ap.parse_args()
    wasm_path = os.path.join(SITE, "topoplan_wasm.wasm")
    raw = open(wasm_path, "rb").read()
    print(f"topoplan_wasm.wasm: {len(raw):,} bytes ({len(gzip.compress(raw, 9)):,} gzip -9); "
          f"topoplan_wasm.js: {os.path.getsize(os.path.join(SITE, 'topoplan_wasm.js')):,} bytes")
    b = Browser()
    try:
        for page in ("index.html", "playground.html", "town.html", "replay.html"):
            loads = []
            for _ in range(3):
                b.open(page)
                nav = b.js("const n = performance.getEntriesByType('navigation')[0];"
                           "return {load: n.loadEventEnd, ready: performance.now(),"
                           " wasm: window.__tp ? window.__tp.loadMs : null}")
                loads.append(nav)
            med = lambda k: statistics.median(x[k] for x in loads if x[k] is not None) \
                if any(x[k] is not None for x in loads) else None
            print(f"{page}: load event {med('load'):.0f} ms, ready (data-ready seen) "
                  f"{med('ready'):.0f} ms, module instantiated in "
                  f"{med('wasm') if med('wasm') is None else round(med('wasm'))} ms (median of 3)")
        exe = build_native_binding()
        b.open("bench.html")
        rows = []
        for r in range(a.rounds):
            load = os.getloadavg()[0]
            wv = wasm(b)
            wc = cpu_ns(wasm_cpu(b))
            bv, bc = native_binding(exe)
            bc = cpu_ns(bc)
            cv = native(a.cli)
            rows.append((wv, bv, cv, wc, bc))
            print(f"round {r + 1} (load {load:.2f} -> {os.getloadavg()[0]:.2f})\n  wasm    {wv}\n"
                  f"  native  {bv}\n  CLI     {cv}\n  CPU ns: wasm {wc}, native {bc}")
        med = lambda side, k: statistics.median(x[side][k] for x in rows)
        low = lambda side, k: min(x[side][k] for x in rows)
        for k, name in (("western", "ℙ, ns per Western plan"), ("cold", "crowd 10^5 cold, ns/NPC"),
                        ("warm", "crowd 10^5 warm, ns/NPC")):
            kk = k + "_ns"
            w, n, c = med(0, kk), med(1, kk), med(2, kk)
            wm, nm = low(0, k + "_min"), low(1, k + "_min")
            print(f"{name}: median wasm {w:.1f} / native {n:.1f} = {w / n:.2f}x (CLI {c:.1f}, "
                  f"wasm/CLI {w / c:.2f}x); minimum wasm {wm:.1f} / native {nm:.1f} = {wm / nm:.2f}x")
            cw, cn = med(3, k), med(4, k)
            print(f"    CPU time (fixed work, warm includes 5 % churn): wasm {cw:.1f} / native "
                  f"{cn:.1f} = {cw / cn:.2f}x")
        print(f"load average now {os.getloadavg()}")
    finally:
        b.close()


if __name__ == "__main__":
    main()

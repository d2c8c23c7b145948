// topoplan in the browser: a small JavaScript API over the WebAssembly module
// (topoplan_wasm.js, built from src/wasm/binding.cpp). docs/web.md documents every call.
//
//   const tp = await Topoplan.create();
//   const d = tp.load(text);            // native TOML or Fast Downward .sas, by content
//   if (!d.ok) console.log(d.error.line, d.error.message);
//   tp.check(-1).report.class;          // "C0" | "C2S" | "C2*" | "none"
//   tp.plan("topo", 0).actions;         // [{id, name}, ...] with .validation
"use strict";

const Topoplan = (() => {
  const FORMATS = { auto: 0, native: 1, sas: 2 };

  async function create() {
    const t0 = performance.now();
    const m = await createTopoplan();
    const loadMs = performance.now() - t0;

    // Strings go through the heap (not the stack) so that large domain files fit.
    function withString(s, fn) {
      const n = m.lengthBytesUTF8(s) + 1;
      const p = m._malloc(n);
      try {
        m.stringToUTF8(s, p, n);
        return fn(p);
      } finally {
        m._free(p);
      }
    }
    const json = (ptr) => JSON.parse(m.UTF8ToString(ptr));

    const api = {
      module: m,
      loadMs,
      planners: () => json(m._tp_planners()),
      load: (text, format = "auto") =>
        withString(text, (p) => json(m._tp_load(p, FORMATS[format] ?? 0))),
      check: (npcClass = -1) => json(m._tp_check(npcClass)),
      plan: (planner, instance = 0, init = "", goal = "") =>
        withString(planner, (pp) =>
          withString(init, (pi) => withString(goal, (pg) => json(m._tp_plan(pp, instance, pi, pg))))),
      towns: () => ["western", "goap-level", "western-pus"],
      town: {
        // name: a built-in town ("western", "goap-level", "western-pus"), as `topoplan crowd`.
        create: (npcs, seed = 1, cacheEntries = 1 << 14, name = "western") =>
          withString(name, (pn) => json(m._tp_town_create(pn, npcs, seed, cacheEntries))),
        // mode "batch": the whole town each frame; "frame": Crowd::plan_frame with a budget.
        frame: (churn = 0.05, mode = "batch", budgetMs = 1.67) =>
          json(m._tp_town_frame(churn, mode === "frame" ? 1 : 0, budgetMs)),
        sample: (count) => json(m._tp_town_sample(count)),
      },
      // The simulation (docs/sim.md): a scenario from text, run to its end in WebAssembly, its
      // replay as `topoplan sim --replay` writes it. Relative paths resolve in `dir` (the module
      // holds domains/sim/ as /sim).
      sim: {
        load: (text, filename = "scenario.toml", dir = "/sim") =>
          withString(text, (pt) => withString(filename, (pf) =>
            withString(dir, (pd) => json(m._tp_sim_load(pt, pf, pd))))),
        run: (selector = "", seed = 1, every = 1, maxSeconds = 0) =>
          withString(selector, (ps) => json(m._tp_sim_run(ps, seed, every, maxSeconds))),
        replay: () => m.UTF8ToString(m._tp_sim_replay()),
      },
      bench: {
        western: (minSeconds = 0.2, reps = 5, fixedBatch = 0) =>
          json(m._tp_bench_western(minSeconds, reps, fixedBatch)),
        crowd: (npcs = 100000, reps = 5, frames = 10) => json(m._tp_bench_crowd(npcs, reps, frames)),
      },
      parseReplay,
    };
    return api;
  }

  // Reads a `topoplan sim --replay` file (JSON Lines): a header, one "state" line per agent per
  // recorded tick, "event" lines, an "end" line. Unknown fields and unknown line types are kept
  // or skipped, never an error; a line that is not JSON is reported with its number.
  function parseReplay(text) {
    const out = { header: null, ticks: [], byTick: new Map(), events: [], end: null, errors: [] };
    const lines = text.split(/\r?\n/);
    for (let i = 0; i < lines.length; ++i) {
      const line = lines[i].trim();
      if (!line) continue;
      let o;
      try {
        o = JSON.parse(line);
      } catch (e) {
        out.errors.push({ line: i + 1, message: "not JSON: " + e.message });
        continue;
      }
      if (typeof o !== "object" || o === null) {
        out.errors.push({ line: i + 1, message: "not a JSON object" });
        continue;
      }
      switch (o.type) {
        case "header":
          if (out.header) out.errors.push({ line: i + 1, message: "a second header" });
          else out.header = o;
          break;
        case "state": {
          if (typeof o.tick !== "number" || typeof o.npc !== "number") {
            out.errors.push({ line: i + 1, message: "a state needs numeric tick and npc" });
            break;
          }
          let frame = out.byTick.get(o.tick);
          if (!frame) {
            frame = { tick: o.tick, t: o.t, agents: new Map() };
            out.byTick.set(o.tick, frame);
            out.ticks.push(o.tick);
          }
          frame.agents.set(o.npc, o);
          break;
        }
        case "event":
          out.events.push(o);
          break;
        case "end":
          out.end = o;
          break;
        default:
          break;  // a newer producer's line type: ignored
      }
    }
    if (!out.header) out.errors.unshift({ line: 1, message: "no header line" });
    out.ticks.sort((a, b) => a - b);
    return out;
  }

  return { create, parseReplay };
})();

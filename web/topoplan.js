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
        // A domain file's town (native TOML or SAS text; filename names it in messages), as
        // `topoplan crowd --domain FILE`: {ok, ...} or {ok: false, error: {file, line, message}}.
        createDomain: (text, filename, npcs, seed = 1, cacheEntries = 1 << 14) =>
          withString(text, (pt) => withString(filename, (pf) =>
            json(m._tp_town_create_domain(pt, pf, npcs, seed, cacheEntries)))),
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
      // NPCs living by the agent runtime (docs/agents.md): a domain file with [agents], [[goal]]
      // and [[event]] tables, played as `topoplan agents` plays it (same file, agents and seed:
      // the same events hash).
      agents: {
        create: (text, filename = "agents.toml", count = 100, seed = 1) =>
          withString(text, (pt) => withString(filename, (pf) =>
            json(m._tp_agents_create(pt, pf, count, seed)))),
        // One frame: {frame, ms, events, examined, planned, waiting, watched: [lines of agent
        // `watch`], event_hash, replans: [by reason], no_plan: [by reason]}.
        frame: (sense = 0, watch = -1, scripted = true) =>
          json(m._tp_agents_frame(sense, watch, scripted ? 1 : 0)),
        run: (frames, sense = 0) => json(m._tp_agents_run(frames, sense)),
        // A sensed fact (agent -1: every agent); false on a bad id.
        sense: (agent, variable, value) => m._tp_agents_sense(agent, variable, value) === 0,
        fail: (agent) => m._tp_agents_fail(agent) === 0,
        agent: (i) => json(m._tp_agents_agent(i)),
        // Per agent `columns` int32 (place value, running action, goal, last replan reason, last
        // no-plan reason or -1, frame of its last plan or -1): a view into the module's memory, valid until the memory grows
        // (call again when view.buffer !== module.HEAP32.buffer).
        view: (count, columns) => {
          const p = m._tp_agents_view() >> 2;
          return m.HEAP32.subarray(p, p + count * columns);
        },
      },
      parseReplay,
    };
    return api;
  }

  // Reads a `topoplan sim --replay` file (JSON Lines): a header, one "state" line per agent per
  // recorded tick, "event" lines, an "end" line. Unknown fields and unknown line types are kept
  // or skipped, never an error; a line that is not JSON is reported with its number.
  //
  // A `topoplan agents --record` file (one decision per line: {tick, agent, class, goal, plan,
  // reason} or {..., no_plan, reason}, no "type") is read as a replay too: agentsToReplay.
  function parseReplay(text) {
    const out = { header: null, ticks: [], byTick: new Map(), events: [], end: null, errors: [] };
    const decisions = [];
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
      if (o.type === undefined && typeof o.tick === "number" && typeof o.agent === "number") {
        decisions.push(o);
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
    if (!out.header && decisions.length) agentsToReplay(decisions, out);
    if (!out.header) out.errors.unshift({ line: 1, message: "no header line" });
    out.ticks.sort((a, b) => a - b);
    return out;
  }

  // An agents recording as a replay: each agent a fixed seat (classes in blocks of rows), one
  // state per decision (its action: the plan's first step; its goal, plan and replan reason), the
  // last state carried to the last tick, each decision an event, and the replans by reason as
  // the result. Frames are 1/60 s, as `topoplan agents` updates.
  function agentsToReplay(decisions, out) {
    const dt = 1 / 60;
    const classOf = new Map();
    for (const d of decisions) if (!classOf.has(d.agent)) classOf.set(d.agent, String(d.class ?? ""));
    const ids = [...classOf.keys()].sort((a, b) => a - b);
    const classes = [...new Set(ids.map((id) => classOf.get(id)))];
    const width = Math.max(6, Math.ceil(Math.sqrt(ids.length * 2)));
    const rows = [];  // [class, ids of the row]
    for (const c of classes) {
      const mine = ids.filter((id) => classOf.get(id) === c);
      for (let k = 0; k < mine.length; k += width) rows.push([c, mine.slice(k, k + width), k === 0]);
    }
    const seat = new Map(), spots = [];
    const height = 2 * rows.length + 2;
    rows.forEach(([c, row, first], r) => {
      const y = height - 2 - 2 * r;
      if (first) spots.push({ name: c || "agents", x: 1, y });
      row.forEach((id, k) => seat.set(id, [4 + 2 * k, y]));
    });
    out.header = {
      type: "header", version: 1, scenario: "agents recording", selector: "agent runtime",
      seed: "–", dt, world: { width: 2 * width + 5, height }, spots, drives: [],
      agents: ids.map((id) => ({ id, name: `agent ${id}`, kind: classOf.get(id) || "agent" })),
      agentsRecording: true,
    };
    const replans = {}, noPlan = {}, last = new Map();
    let lastTick = 0;
    for (const d of decisions) {
      const [x, y] = seat.get(d.agent);
      const plan = Array.isArray(d.plan) ? d.plan : null;
      const s = {
        type: "state", tick: d.tick, t: d.tick * dt, npc: d.agent, x, y, goal: d.goal,
        action: plan ? (plan[0] ?? "(goal holds)") : `no plan (${d.no_plan ?? "?"})`,
        plan, reason: d.reason, no_plan: d.no_plan,
      };
      let frame = out.byTick.get(d.tick);
      if (!frame) {
        frame = { tick: d.tick, t: d.tick * dt, agents: new Map() };
        out.byTick.set(d.tick, frame);
        out.ticks.push(d.tick);
      }
      frame.agents.set(d.agent, s);
      last.set(d.agent, s);
      lastTick = Math.max(lastTick, d.tick);
      replans[d.reason] = (replans[d.reason] || 0) + 1;
      if (d.no_plan !== undefined) noPlan[d.no_plan] = (noPlan[d.no_plan] || 0) + 1;
      out.events.push({
        type: "event", tick: d.tick, t: d.tick * dt, x, y,
        text: `agent ${d.agent} (${classOf.get(d.agent)}) → ${d.goal}: ${d.reason}` +
          (plan ? `: ${plan.join(" → ") || "(nothing to do)"}` : `, no plan: ${d.no_plan}`),
      });
    }
    // The last decision of each agent holds until the end of the recording.
    let end = out.byTick.get(lastTick);
    for (const [id, s] of last)
      if (!end.agents.has(id)) end.agents.set(id, { ...s, tick: lastTick, t: lastTick * dt });
    out.events.sort((a, b) => a.tick - b.tick);
    out.end = { type: "end", tick: lastTick, t: lastTick * dt,
      result: { agents: ids.length, decisions: decisions.length, replans, no_plan: noPlan } };
  }

  return { create, parseReplay };
})();

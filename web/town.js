// A town (Western, the GOAP level of 12 places, or a domain file's: the §6 crowds, real GOAP
// domains, the user's own) with N NPCs planned every frame in WebAssembly; a sample walks its
// plans.
"use strict";

(async () => {
  const $ = (id) => document.getElementById(id);
  const canvas = $("map"), ctx = canvas.getContext("2d");
  const SAMPLE = 240;

  // Places of the town and where each variable's actions happen (docs/domains.md, Western).
  const WESTERN_SPOTS = {
    Stable: [150, 120], Forge: [330, 90], Saloon: [520, 110], Store: [700, 120],
    "Sheriff's office": [820, 260], Kitchen: [640, 420], Coop: [790, 470],
    Corral: [300, 430], Range: [100, 470], Badlands: [860, 60],
  };
  const VAR_SPOT = {
    haystack: "Stable", bucket: "Stable", water: "Stable", saddle: "Stable", rider: "Stable",
    lasso: "Stable", coal: "Forge", forge: "Forge", horseshoe: "Forge", tongs: "Forge",
    hammer: "Forge", whiskeyBottle: "Saloon", glass: "Saloon", broom: "Saloon",
    saloonFloor: "Saloon", cattle: "Corral", corralGate: "Corral", shutters: "Store",
    crate: "Store", crowbar: "Store", shelves: "Store", ledger: "Store", gunbelt: "Sheriff's office",
    revolver: "Sheriff's office", outlaw: "Sheriff's office", cellDoor: "Sheriff's office",
    keys: "Sheriff's office", stove: "Kitchen", eggs: "Kitchen",
  };
  const ACTION_SPOT = { HerdCattle: "Range", CaptureOutlaw: "Badlands", GatherEggs: "Coop" };
  const HOME = { Rancher: "Corral", HorseBreeder: "Stable", Cook: "Kitchen", Shopkeeper: "Store",
    Bartender: "Saloon", Blacksmith: "Forge", Sheriff: "Sheriff's office" };
  let SPOTS = WESTERN_SPOTS;
  // Outside Western, places on a ring road: the values of the town's place variable (the GOAP
  // level's "location"; in a domain file a variable named like a place), an action drawn where
  // it ends (a move) or must happen (its prevail-condition on the place), else where the NPC
  // stands. A domain without a place variable: one place per variable, an action drawn at the
  // variable it changes.
  let LOCATION = -1;
  let BY_VARIABLE = false;
  const PLACE_NAME = /^(place|location|at_?location|at|zone|position|pos|where)$/i;
  function ringSpots(places) {
    const out = {};
    places.forEach((name, k) => {
      const a = (2 * Math.PI * k) / places.length - Math.PI / 2;
      out[name] = [470 + 360 * Math.cos(a), 285 + 205 * Math.sin(a)];
    });
    return out;
  }
  const BUILTIN = new Set(["western", "goap-level"]);
  let townBusy = false;  // a town is being built (fetching its file): no frame meanwhile
  let customName = "domain.toml";
  const COLORS = ["#c0392b", "#2471a3", "#7d3c98", "#1e8449", "#d35400", "#34495e", "#b7950b"];

  let tp, info, running = true, frames = 0, served = 0;
  const msHistory = [];
  let agents = [];  // sampled NPCs: {i, cls, x, y, queue, step, wait, plan}
  let selected = -1;
  let autoSelect = true;  // the page chose the selected NPC (a click: the user did)
  let lastFrameStats = null;
  let frameShares = null;  // the last frame's: plans by ℙ / by the fallback / pending
  let fpsT = performance.now(), fpsN = 0, fps = 0;
  const totals = { served: 0, planned: 0, hits: 0, unsolvable: 0, noPlan: 0, solved: 0,
    solvedFallback: 0, unsolvableFallback: 0, pending: 0 };

  const fmt = (x) => x.toLocaleString("en-US");
  // Names from a user's file go into HTML.
  const esc = (t) => String(t).replace(/[&<>"]/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;" }[c]));
  const pct = (x) => (x > 0 && x < 1e-4 ? "< 0.01" : (100 * x).toFixed(x < 0.01 && x > 0 ? 2 : 1)) + " %";
  function npcsFromSlider() {
    const raw = Math.pow(10, Number($("npcs").value) / 100);
    const p = Math.pow(10, Math.floor(Math.log10(raw)) - 1);
    return Math.round(raw / p) * p;  // two significant digits
  }
  // The place of action a, or null: where the NPC stands.
  function spotOf(a) {
    const act = info.actions[a];
    if (LOCATION >= 0) {  // where the action ends (GoTo) or must happen (prevail on location)
      const moves = act.effects.find(([v]) => v === LOCATION);
      if (moves) return info.values[LOCATION][moves[2]];
      const at = act.prevail.find(([v]) => v === LOCATION);
      return at ? info.values[LOCATION][at[1]] : null;
    }
    if (BY_VARIABLE) return info.variables[act.var];
    return ACTION_SPOT[act.name] || VAR_SPOT[info.variables[act.var]] || "Stable";
  }
  // Where an NPC stands when its plan starts, from the plan: the place its first move leaves
  // (a defined pre-condition) or its first action on the place requires; null when the plan
  // does not say.
  function startOf(plan) {
    if (LOCATION < 0) return null;
    for (const id of plan) {
      const act = info.actions[id];
      const moves = act.effects.find(([v]) => v === LOCATION);
      if (moves) return moves[1] >= 0 ? info.values[LOCATION][moves[1]] : null;
      const at = act.prevail.find(([v]) => v === LOCATION);
      if (at) return info.values[LOCATION][at[1]];
    }
    return null;
  }
  function homeOf(cls) {
    if (LOCATION >= 0) return info.values[LOCATION][cls % info.values[LOCATION].length];
    if (BY_VARIABLE) return info.variables[cls % info.variables.length];
    return HOME[info.classes[cls]] || "Stable";
  }
  function jitter(i, k) {  // a stable offset per NPC so that dots at a place do not stack
    const h = Math.sin(i * 12.9898 + k * 78.233) * 43758.5453;
    return (h - Math.floor(h)) * 2 - 1;
  }

  function showError(error) {
    const box = $("town-error");
    box.textContent = error ? `${error.text || error.message}` : "";
    box.classList.toggle("hidden", !error);
  }

  // Builds the chosen town: a built-in one by name, else a domain file's (a file of the site's
  // domains/, or the user's text) read by the library's reader. A bad file shows the reader's
  // "file:line: message"; the town that was running (if the text did not even parse) goes on.
  async function createTown() {
    const choice = $("town").value;
    $("custom").classList.toggle("hidden", choice !== "custom");
    const n = npcsFromSlider();
    $("npcs-label").textContent = fmt(n);
    let r;
    townBusy = true;
    try {
      if (BUILTIN.has(choice)) {
        r = tp.town.create(n, 1, 1 << 14, choice);
      } else {
        let text = $("custom-text").value, name = customName;
        if (choice !== "custom") {
          const res = await fetch(choice);
          if (!res.ok) throw new Error(`cannot fetch ${choice}: ${res.status}`);
          text = await res.text();
          name = choice.split("/").pop();
        }
        r = tp.town.createDomain(text, name, n, 1, 1 << 14);
      }
    } finally {
      townBusy = false;
    }
    if (!r.ok) {
      showError(r.error);
      window.__townError = r.error;
      if (!tp.town.sample(1).length) {  // the previous town is gone too: nothing to plan
        info = null;
        agents = [];
      }
      return;
    }
    showError(null);
    window.__townError = null;
    info = r;
    LOCATION = choice === "goap-level" ? info.variables.indexOf("location")
      : choice === "western" ? -1
      : info.variables.findIndex((v, k) => PLACE_NAME.test(v) && info.values[k].length >= 2);
    BY_VARIABLE = !BUILTIN.has(choice) && LOCATION < 0;
    SPOTS = LOCATION >= 0 ? ringSpots(info.values[LOCATION])
      : BY_VARIABLE ? ringSpots(info.variables) : WESTERN_SPOTS;
    $("town-about").textContent = `${info.domain} · ${info.classes.length} NPC class` +
      `${info.classes.length === 1 ? "" : "es"}: ${info.classes.map((c, k) =>
        `${c} (${info.class_analysis[k].class})`).join(", ")} · ` +
      `${fmt(info.distinct_situations)} distinct situations · output room ` +
      `${info.actions_per_npc} actions per NPC (the town's longest plan, at least 12) · built in ` +
      `${info.build_ms.toFixed(0)} ms. Classes C0 / C2S / C2*: ℙ decides every NPC; none: ℙ runs ` +
      "on part of the class's actions and the fallback answers the NPCs it leaves open.";
    frames = 0;
    msHistory.length = 0;
    Object.keys(totals).forEach((k) => { totals[k] = 0; });
    agents = tp.town.sample(SAMPLE).map((s) => {
      const home = SPOTS[homeOf(s.class)];
      return { i: s.i, cls: s.class, x: home[0] + 40 * jitter(s.i, 1), y: home[1] + 30 * jitter(s.i, 2),
        queue: [], step: 0, wait: Math.random() * 1.5, plan: [], target: null, fresh: true };
    });
    $("legend").innerHTML = info.classes.map((c, k) =>
      `<span><svg width="10" height="10"><circle cx="5" cy="5" r="4.5" fill="${COLORS[k % COLORS.length]}"/></svg> ${esc(c)}</span>`).join("");
    // Western: a blacksmith; elsewhere the first sampled NPC with a plan, once one has one.
    selected = agents.findIndex((a) => info.classes[a.cls] === "Blacksmith");
    autoSelect = true;
    showNpc();
  }
  // From an event handler: errors go to the page's error box, never a blank page.
  const rebuild = () => createTown().catch((e) => {
    console.error(e);
    showError({ message: String(e.message || e) });
  });

  function planFrame() {
    const r = tp.town.frame(Number($("churn").value) / 100, $("mode").value, 1.67);
    if (!r.ok) throw new Error(r.error.message);
    lastFrameStats = r;
    frameShares = r.served > 0 ? [(r.solved - r.solved_fallback) / r.served,
      r.solved_fallback / r.served, r.pending / r.served] : frameShares;
    frames++;
    served = r.served;
    msHistory.push(r.ms);
    if (msHistory.length > 30) msHistory.shift();
    totals.served += r.served;
    totals.planned += r.planned;
    totals.hits += r.cache_hits;
    totals.unsolvable += r.unsolvable;
    totals.noPlan += r.no_plan;
    totals.solved += r.solved;
    totals.solvedFallback += r.solved_fallback;
    totals.unsolvableFallback += r.unsolvable_fallback;
    totals.pending += r.pending;
    // Idle sampled NPCs take their latest plan.
    const sample = tp.town.sample(SAMPLE);
    for (let k = 0; k < agents.length && k < sample.length; ++k) {
      const a = agents[k], s = sample[k];
      a.latest = s;
      if (a.queue.length === 0 && a.wait <= 0 && s.plan.length) {
        const start = a.fresh ? startOf(s.plan) : null;
        if (start !== null) {  // its first plan: it starts where the plan says it stands
          a.x = SPOTS[start][0] + 40 * jitter(a.i, 1);
          a.y = SPOTS[start][1] + 30 * jitter(a.i, 2);
        }
        a.fresh = false;
        a.cls = s.class;  // churn may have made NPC i someone else: walk as the plan's class
        a.plan = s.plan.slice();
        a.queue = s.plan.slice();
        a.step = 0;
        a.target = null;
      }
    }
    // Chosen by the page (not clicked): an NPC with a plan to show.
    const a = agents[selected];
    if (autoSelect && (!a || (!a.plan.length && !(a.latest && a.latest.plan.length))))
      selected = agents.findIndex((b) => b.latest && b.latest.plan.length > 0);
  }

  function showStats() {
    const sorted = msHistory.slice().sort((x, y) => x - y);
    const med = sorted.length ? sorted[sorted.length >> 1] : 0;
    $("s-served").textContent = fmt(served);
    $("s-ms").textContent = med < 0.1 ? "< 0.1 ms" : med.toFixed(med < 10 ? 2 : 1) + " ms";
    // Plans per second: NPCs served per second of planning, at the median frame time.
    $("s-pps").textContent = med > 0 ? fmt(Math.round(served / (med / 1e3))) : "–";
    $("s-hit").textContent = lastFrameStats ? pct(lastFrameStats.hit_rate) : "–";
    const t = totals.served || 1;
    $("s-p").textContent = `${pct(totals.planned / t)} / ${pct(totals.hits / t)}`;
    $("s-unsolv").textContent = pct(totals.unsolvable / t);
    // The crowd's planner chain: ℙ, then GOAP A* for the NPCs ℙ gives up on (docs/crowds.md).
    const byFallback = totals.solvedFallback + totals.unsolvableFallback;
    $("s-fallback").textContent = pct(byFallback / t) + (byFallback
      ? ` (${fmt(totals.solvedFallback)} plans, ${fmt(totals.unsolvableFallback)} proofs)` : "");
    $("s-shares").textContent = `${pct((totals.solved - totals.solvedFallback) / t)} / ` +
      `${pct(totals.solvedFallback / t)} / ${pct(totals.pending / t)}`;
    $("s-frame-shares").textContent = frameShares ? frameShares.map(pct).join(" / ") : "–";
    window.__shares = { ...totals };
    $("s-frames").textContent = `${fmt(frames)} · ${fps.toFixed(0)}`;
  }

  function move(dt) {
    for (const a of agents) {
      if (a.wait > 0) { a.wait -= dt; continue; }
      if (!a.queue.length) continue;
      if (!a.target) {
        const spot = spotOf(a.queue[0]);
        const sp = spot === null ? null : SPOTS[spot];
        a.target = sp ? [sp[0] + 26 * jitter(a.i, 3 + a.step), sp[1] + 18 * jitter(a.i, 4 + a.step)]
          : [a.x, a.y];  // done where it stands
      }
      const dx = a.target[0] - a.x, dy = a.target[1] - a.y, d = Math.hypot(dx, dy);
      const v = 160 * dt;
      if (d <= v) {  // arrived: do the action, then on to the next one
        a.x = a.target[0];
        a.y = a.target[1];
        a.queue.shift();
        a.step++;
        a.target = null;
        a.wait = 0.35;
        if (!a.queue.length) a.wait = 1.2;
      } else {
        a.x += (dx / d) * v;
        a.y += (dy / d) * v;
      }
    }
  }

  function draw() {
    ctx.fillStyle = "#efe4cf";
    ctx.fillRect(0, 0, canvas.width, canvas.height);
    ctx.strokeStyle = "#d9c7a3";  // main street, or the level's ring road
    ctx.lineWidth = 40;
    ctx.beginPath();
    if (SPOTS !== WESTERN_SPOTS) ctx.ellipse(470, 285, 360, 205, 0, 0, 2 * Math.PI);
    else { ctx.moveTo(40, 270); ctx.lineTo(900, 270); }
    ctx.stroke();
    ctx.lineWidth = 1;
    ctx.font = "13px system-ui, sans-serif";
    ctx.textAlign = "center";
    // Boxes narrower when many places share the ring (a domain drawn by variable).
    const entries = Object.entries(SPOTS), w = Math.min(104, 1750 / entries.length - 12);
    for (const [name, [x, y]] of entries) {
      ctx.fillStyle = "#c9b48c";
      ctx.strokeStyle = "#8a6d3b";
      ctx.beginPath();
      ctx.roundRect ? ctx.roundRect(x - w / 2, y - 34, w, 68, 8) : ctx.rect(x - w / 2, y - 34, w, 68);
      ctx.fill();
      ctx.stroke();
      ctx.fillStyle = "#4a3520";
      ctx.fillText(name, x, y - 40);
    }
    agents.forEach((a, k) => {
      ctx.fillStyle = COLORS[a.cls % COLORS.length];
      ctx.beginPath();
      ctx.arc(a.x, a.y, k === selected ? 7 : 4, 0, 2 * Math.PI);
      ctx.fill();
      if (k === selected) {
        ctx.strokeStyle = "#000";
        ctx.lineWidth = 2;
        ctx.stroke();
        ctx.lineWidth = 1;
      }
    });
    ctx.textAlign = "left";
    ctx.fillStyle = "#4a3520";
    ctx.font = "12px system-ui, sans-serif";
    ctx.fillText(`${agents.length} of ${fmt(info.npcs)} NPCs shown`, 10, canvas.height - 10);
  }

  function showNpc() {
    if (selected < 0 || !agents[selected]) {
      $("npc-info").textContent = "–";
      $("npc-plan").innerHTML = "";
      return;
    }
    const a = agents[selected];
    const s = a.latest;
    const by = (s && s.status & 128 ? " (by the fallback, GOAP A*)" : s && s.status & 32 ? " (cached)" : "") +
      (s && s.valid === true ? ", valid (validator)" : s && s.valid === false ? `, INVALID: ${s.invalid}` : "");
    const status = (!s ? "" : s.status & 1 ? "has a plan" : s.status & 2 ? "proven unsolvable" :
      s.status & 64 ? "pending (fallback resumes next frame)" : s.status & 4 ? "no plan, no proof" :
      "not served yet") + by;
    const now = s && s.class !== a.cls ? ` (now a ${info.classes[s.class]}: ${status})` : ` · ${status}`;
    $("npc-info").textContent = `NPC #${fmt(a.i)} · ${info.classes[a.cls]}, walking its plan${now}`;
    // The plan it walks, or before it takes one, its latest answer.
    const shown = a.plan.length || !s ? a.plan : s.plan;
    $("npc-plan").innerHTML = shown.map((id, k) => {
      const cur = k === a.step && a.queue.length ? " style=\"font-weight:700\"" : k < a.step ? ' style="color:#999"' : "";
      const spot = spotOf(id);
      return `<li${cur}>${esc(info.actions[id].name)}` +
        (spot === null ? "" : ` <span class="muted">@ ${esc(spot)}</span>`) + "</li>";
    }).join("") || "<li class=\"muted\">(nothing to do)</li>";
  }

  canvas.addEventListener("click", (e) => {
    const r = canvas.getBoundingClientRect();
    const x = (e.clientX - r.left) * (canvas.width / r.width), y = (e.clientY - r.top) * (canvas.height / r.height);
    let best = -1, bd = 15;
    agents.forEach((a, k) => { const d = Math.hypot(a.x - x, a.y - y); if (d < bd) { bd = d; best = k; } });
    selected = best;
    autoSelect = false;
    showNpc();
  });

  let last = performance.now();
  function tick(now) {
    const dt = Math.min(0.1, (now - last) / 1e3);
    last = now;
    if (document.body.dataset.view === "agents") {  // the agents tab runs its own loop
      requestAnimationFrame(tick);
      return;
    }
    if (!info || townBusy) {  // no town (a file that failed), or one being built
      requestAnimationFrame(tick);
      return;
    }
    try {
      if (running) planFrame();
      move(dt);
      draw();
      if (frames % 5 === 0 || !running) { showStats(); showNpc(); }
      fpsN++;
      if (now - fpsT > 1000) { fps = (fpsN * 1000) / (now - fpsT); fpsT = now; fpsN = 0; }
      window.__town = { town: info.town, domain: info.domain, frames, served, npcs: info.npcs,
        room: lastFrameStats ? lastFrameStats.actions_per_npc : info.actions_per_npc,
        medianMs: msHistory.slice().sort((x, y) => x - y)[msHistory.length >> 1] };
    } catch (e) {
      console.error(e);
      running = false;
      return;
    }
    requestAnimationFrame(tick);
  }

  tp = await Topoplan.create();
  window.__tp = tp;
  $("load-note").textContent = `WebAssembly ready in ${tp.loadMs.toFixed(0)} ms`;
  await createTown();
  $("npcs").addEventListener("input", () => { $("npcs-label").textContent = fmt(npcsFromSlider()); });
  $("npcs").addEventListener("change", rebuild);
  $("town").addEventListener("change", () => {
    if ($("town").value === "custom") {  // the user's file: built on "Build the town"
      $("custom").classList.remove("hidden");
      return;
    }
    rebuild();
  });
  $("custom-build").addEventListener("click", rebuild);
  $("custom-file").addEventListener("change", async () => {
    const f = $("custom-file").files[0];
    if (!f) return;
    $("custom-text").value = await f.text();
    customName = f.name;
    rebuild();
  });
  $("churn").addEventListener("input", () => { $("churn-label").textContent = $("churn").value + " %"; });
  $("mode").addEventListener("change", () => { msHistory.length = 0; });
  $("run").addEventListener("click", () => {
    running = !running;
    $("run").textContent = running ? "Pause" : "Run";
  });
  document.body.dataset.ready = "1";
  requestAnimationFrame(tick);
})().catch((e) => {
  console.error(e);
  document.getElementById("load-note").textContent = "failed: " + e.message;
});

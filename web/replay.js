// The replay viewer: plays a `topoplan sim --replay` file (JSON Lines; docs/web.md) with a
// timeline, the agents' positions, and the action, goal and drives of the selected agent. The
// file is opened, or made here: a scenario (built-in or pasted) run to its end in WebAssembly.
"use strict";

(() => {
  const $ = (id) => document.getElementById(id);
  const canvas = $("world"), ctx = canvas.getContext("2d");
  const KIND_COLORS = ["#6c3483", "#1e8449", "#c0392b", "#2471a3", "#d35400", "#34495e", "#b7950b"];
  let R = null;              // the parsed replay
  let perAgent = new Map();  // npc -> sorted states
  let bounds = null, kinds = [], driveMax = {};
  let agentInfo = new Map();  // npc -> {name, kind}: the header's list, else the states' fields
  let index = 0;             // position on the timeline (index into R.ticks)
  let time = 0, playing = false, lastNow = 0;

  const esc = (s) => String(s).replace(/[&<>"]/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;" })[c]);

  function open(text, name) {
    R = Topoplan.parseReplay(text);
    const errs = $("replay-errors");
    if (R.errors.length) {
      errs.innerHTML = R.errors.slice(0, 8).map((e) => `line ${e.line}: ${esc(e.message)}`).join("<br>") +
        (R.errors.length > 8 ? `<br>… ${R.errors.length - 8} more` : "");
      errs.classList.remove("hidden");
    } else {
      errs.classList.add("hidden");
    }
    if (!R.header || !R.ticks.length) {
      $("replay-title").textContent = `${name}: nothing to play`;
      $("play").disabled = $("timeline").disabled = true;
      return;
    }
    const h = R.header;
    perAgent = new Map();
    const xs = [], ys = [];
    for (const tick of R.ticks)
      for (const [npc, s] of R.byTick.get(tick).agents) {
        if (!perAgent.has(npc)) perAgent.set(npc, []);
        perAgent.get(npc).push(s);
        if (typeof s.x === "number") { xs.push(s.x); ys.push(s.y); }
      }
    for (const sp of h.spots || []) { xs.push(sp.x); ys.push(sp.y); }
    for (const e of R.events) if (typeof e.x === "number") { xs.push(e.x); ys.push(e.y); }
    // The world's extent: the header's size when the data fits in it, else what the data spans.
    const w = (h.world && h.world.width) || 0, hh = (h.world && h.world.height) || 0;
    let minX = Math.min(...xs), maxX = Math.max(...xs), minY = Math.min(...ys), maxY = Math.max(...ys);
    if (minX >= 0 && maxX <= w && minY >= 0 && maxY <= hh) { minX = 0; maxX = w; minY = 0; maxY = hh; }
    else if (maxX - minX < w && maxY - minY < hh) {  // centred world
      const cx = (minX + maxX) / 2, cy = (minY + maxY) / 2;
      minX = Math.min(minX, cx - w / 2); maxX = Math.max(maxX, cx + w / 2);
      minY = Math.min(minY, cy - hh / 2); maxY = Math.max(maxY, cy + hh / 2);
    }
    const pad = 0.06 * Math.max(maxX - minX, maxY - minY, 1);
    bounds = { minX: minX - pad, maxX: maxX + pad, minY: minY - pad, maxY: maxY + pad };
    // Agents the header does not list (spawned later) may name themselves in their states.
    agentInfo = new Map((h.agents || []).map((a) => [a.id, { name: a.name, kind: a.kind }]));
    for (const [npc, states] of perAgent)
      if (!agentInfo.has(npc)) {
        const named = states.find((x) => x.name !== undefined || x.kind !== undefined) || {};
        agentInfo.set(npc, { name: named.name ?? `agent ${npc}`, kind: named.kind ?? "?" });
      }
    kinds = [...new Set([...agentInfo.values()].map((a) => a.kind))];
    $("legend").innerHTML = kinds.map((k, i) =>
      `<span><svg width="10" height="10"><circle cx="5" cy="5" r="4.5" fill="${KIND_COLORS[i % KIND_COLORS.length]}"/></svg> ${esc(k)}</span>`)
      .join("") + "<span>faded ✝: no longer recorded (hidden after 3 s) · red rings: events</span>";
    driveMax = {};
    for (const d of h.drives || []) driveMax[d] = 100;
    for (const states of perAgent.values())
      for (const s of states)
        for (const [d, v] of Object.entries(s.drives || {})) driveMax[d] = Math.max(driveMax[d] || 100, v);
    const sel = $("agent");
    const ids = [...new Set([...(h.agents || []).map((a) => a.id), ...perAgent.keys()])].sort((a, b) => a - b);
    sel.innerHTML = ids.map((id) => `<option value="${id}">${esc(agentName(id))}</option>`).join("");
    $("replay-title").innerHTML = `<b>${esc(name)}</b>: scenario ${esc(h.scenario ?? "?")}, selector ` +
      `${esc(h.selector ?? "?")}, seed ${esc(h.seed ?? "?")}, ${ids.length} agents, ` +
      `${R.ticks.length} recorded ticks, ${R.events.length} events`;
    $("timeline").max = String(R.ticks.length - 1);
    $("play").disabled = $("timeline").disabled = false;
    $("result-panel").classList.add("hidden");
    document.body.dataset.ended = "0";
    shownPast = -1;
    seek(0);
    document.body.dataset.loaded = "1";
  }

  function agentName(id) {
    const a = agentInfo.get(id);
    return a ? `${a.name} (${a.kind})` : `agent ${id}`;
  }
  function agentKind(id) {
    const a = agentInfo.get(id);
    return a ? a.kind : "?";
  }
  const tickTime = (k) => {
    const f = R.byTick.get(R.ticks[k]);
    return typeof f.t === "number" ? f.t : R.ticks[k] * (R.header.dt || 1);
  };

  // The last state of `npc` at or before tick index k (binary search), and the next one.
  function stateAt(npc, tick) {
    const st = perAgent.get(npc) || [];
    let lo = 0, hi = st.length - 1, best = -1;
    while (lo <= hi) {
      const m = (lo + hi) >> 1;
      if (st[m].tick <= tick) { best = m; lo = m + 1; } else hi = m - 1;
    }
    return best < 0 ? [null, st[0] || null, st] : [st[best], st[best + 1] || null, st];
  }

  function seek(k) {
    index = Math.max(0, Math.min(R.ticks.length - 1, k));
    time = tickTime(index);
    render();
  }

  function sx(x) { return ((x - bounds.minX) / (bounds.maxX - bounds.minX)) * canvas.width; }
  function sy(y) { return canvas.height - ((y - bounds.minY) / (bounds.maxY - bounds.minY)) * canvas.height; }

  function render() {
    const tick = R.ticks[index];
    const last = R.ticks[R.ticks.length - 1];
    $("timeline").value = String(index);
    $("time").textContent = `tick ${tick} / ${last} · t = ${time.toFixed(2)} s`;
    ctx.fillStyle = "#f1ead9";
    ctx.fillRect(0, 0, canvas.width, canvas.height);
    ctx.strokeStyle = "#e0d5bd";
    for (let g = Math.ceil(bounds.minX); g <= bounds.maxX; g += 2) { ctx.beginPath(); ctx.moveTo(sx(g), 0); ctx.lineTo(sx(g), canvas.height); ctx.stroke(); }
    for (let g = Math.ceil(bounds.minY); g <= bounds.maxY; g += 2) { ctx.beginPath(); ctx.moveTo(0, sy(g)); ctx.lineTo(canvas.width, sy(g)); ctx.stroke(); }
    ctx.font = "12px system-ui, sans-serif";
    ctx.textAlign = "center";
    for (const sp of R.header.spots || []) {
      ctx.fillStyle = "#c9b48c";
      ctx.fillRect(sx(sp.x) - 9, sy(sp.y) - 9, 18, 18);
      ctx.fillStyle = "#4a3520";
      ctx.fillText(sp.name, sx(sp.x), sy(sp.y) - 13);
    }
    // Events of the last second, as fading rings.
    for (const e of R.events) {
      if (typeof e.x !== "number" || e.tick > tick) continue;
      const age = time - (typeof e.t === "number" ? e.t : e.tick * (R.header.dt || 1));
      if (age > 1.0) continue;
      ctx.strokeStyle = `rgba(192,57,43,${1 - age})`;
      ctx.lineWidth = 2;
      ctx.beginPath();
      ctx.arc(sx(e.x), sy(e.y), 10 + 30 * age, 0, 2 * Math.PI);
      ctx.stroke();
      ctx.lineWidth = 1;
    }
    const selected = Number($("agent").value);
    // The gone (no longer recorded) first, so that the living are drawn over them.
    const order = [...perAgent.keys()].sort((p, q) => {
      const gp = perAgent.get(p).at(-1).tick < tick, gq = perAgent.get(q).at(-1).tick < tick;
      return gp === gq ? p - q : gp ? -1 : 1;
    });
    for (const npc of order) {
      const [s, next, all] = stateAt(npc, tick);
      if (!s || typeof s.x !== "number") continue;
      // Between recorded ticks while playing: interpolate.
      let x = s.x, y = s.y;
      if (next && typeof next.t === "number" && typeof s.t === "number" && next.t > s.t && time > s.t) {
        const a = Math.min(1, (time - s.t) / (next.t - s.t));
        x += (next.x - s.x) * a;
        y += (next.y - s.y) * a;
      }
      const gone = all[all.length - 1].tick < tick;  // no longer recorded (dead or removed)
      const lastT = all[all.length - 1].t;
      if (gone && typeof lastT === "number" && time - lastT > 3) continue;  // long gone: hidden
      const k = Math.max(0, kinds.indexOf(agentKind(npc)));
      ctx.globalAlpha = gone ? 0.3 : 1;
      ctx.fillStyle = KIND_COLORS[k % KIND_COLORS.length];
      ctx.beginPath();
      ctx.arc(sx(x), sy(y), npc === selected ? 9 : 7, 0, 2 * Math.PI);
      ctx.fill();
      if (npc === selected) { ctx.strokeStyle = "#000"; ctx.lineWidth = 2; ctx.stroke(); ctx.lineWidth = 1; }
      ctx.fillStyle = "#222";
      const a = (agentInfo.get(npc) || {}).name || `#${npc}`;
      if (gone) ctx.fillText("✝", sx(x), sy(y) - 10);
      else ctx.fillText(a, sx(x), sy(y) + 21);
      ctx.globalAlpha = 1;
    }
    showAgent(selected, tick);
    showEvents(tick);
    if (index === R.ticks.length - 1 && R.end) {
      $("result-panel").classList.remove("hidden");
      $("result").textContent = JSON.stringify(R.end.result ?? {}, null, 1);
    }
  }

  function showAgent(npc, tick) {
    const [s] = stateAt(npc, tick);
    $("a-kind").textContent = agentKind(npc);
    $("a-action").textContent = s ? s.action ?? "–" : "(not yet in the world)";
    $("a-goal").textContent = s ? s.goal ?? "–" : "–";
    $("a-pos").textContent = s && typeof s.x === "number" ? `(${s.x.toFixed(2)}, ${s.y.toFixed(2)}) at tick ${s.tick}` : "–";
    // Agents recordings (topoplan agents --record): the plan and why the agent replanned.
    $("a-reason").textContent = s && s.reason !== undefined ?
      s.reason + (s.no_plan !== undefined ? ` · no plan: ${s.no_plan}` : "") : "–";
    $("a-plan").textContent = s && Array.isArray(s.plan) ? s.plan.join(" → ") || "(goal holds)" : "–";
    const names = [...new Set([...(R.header.drives || []), ...Object.keys((s && s.drives) || {})])];
    $("drives").innerHTML = names.map((d) => {
      const v = s && s.drives ? s.drives[d] : undefined;
      const w = typeof v === "number" ? Math.max(0, Math.min(100, (100 * v) / driveMax[d])) : 0;
      return `<div class="bar" data-drive="${esc(d)}"><div class="label"><span>${esc(d)}</span>` +
        `<span class="mono">${typeof v === "number" ? v : "–"}</span></div>` +
        `<div class="track"><div class="fill" style="width: ${w}%"></div></div></div>`;
    }).join("");
  }

  let shownPast = -1;
  function showEvents(tick) {
    const past = R.events.filter((e) => e.tick <= tick).length;  // rebuild only when it changes
    if (past === shownPast) return;
    shownPast = past;
    const box = $("events");
    // A window around the current tick: recordings of many agents hold tens of thousands.
    const from = Math.max(0, past - 200), to = Math.min(R.events.length, past + 50);
    box.innerHTML = R.events.slice(from, to).map((e) =>
      `<div class="${e.tick <= tick ? "past" : "future"}">[${e.tick}] ${esc(e.text ?? "")}</div>`).join("") ||
      '<div class="muted">no events</div>';
    const shown = box.querySelectorAll("div.past");
    if (shown.length) box.scrollTop = shown[shown.length - 1].offsetTop - box.offsetTop - 60;
  }

  function frame(now) {
    if (!playing) return;
    const dt = (now - lastNow) / 1e3;
    lastNow = now;
    time += dt * Number($("speed").value);
    while (index < R.ticks.length - 1 && tickTime(index + 1) <= time) index++;
    if (index >= R.ticks.length - 1) {
      time = tickTime(R.ticks.length - 1);
      playing = false;
      $("play").textContent = "Play";
      render();
      document.body.dataset.ended = "1";
      return;
    }
    render();
    requestAnimationFrame(frame);
  }

  $("play").addEventListener("click", () => {
    if (playing) { playing = false; $("play").textContent = "Play"; return; }
    if (index >= R.ticks.length - 1) seek(0);
    document.body.dataset.ended = "0";
    playing = true;
    $("play").textContent = "Pause";
    lastNow = performance.now();
    requestAnimationFrame(frame);
  });
  $("timeline").addEventListener("input", () => seek(Number($("timeline").value)));
  $("agent").addEventListener("change", () => render());
  $("file").addEventListener("change", () => {
    const f = $("file").files[0];
    if (!f) return;
    const reader = new FileReader();
    reader.onload = () => open(String(reader.result), f.name);
    reader.readAsText(f);
  });
  $("sample").addEventListener("click", async () => {
    const res = await fetch("sample-replay.jsonl");
    open(await res.text(), "sample-replay.jsonl");
  });

  // The simulation in the page: the module is instantiated on the first run.
  let tp = null, scenarioName = "";
  async function module() {
    if (!tp) {
      $("sim-status").textContent = "loading WebAssembly…";
      tp = await Topoplan.create();
      window.__tp = tp;
    }
    return tp;
  }
  function simError(text) {
    const box = $("sim-error");
    box.textContent = text;
    box.classList.toggle("hidden", !text);
  }
  // Reads the scenario in the text box; fills the selectors it can run.
  async function loadScenario() {
    const t = await module();
    const r = t.sim.load($("scenario-text").value, scenarioName);
    if (!r.ok) {
      simError(r.error.text);
      $("selector").innerHTML = "";
      return null;
    }
    simError("");
    const keep = $("selector").value;
    $("selector").innerHTML = r.selectors.map((x) => `<option>${esc(x)}</option>`).join("");
    if (r.selectors.includes(keep)) $("selector").value = keep;
    return r;
  }
  async function fetchScenario() {
    const url = $("scenario").value;
    scenarioName = url.split("/").pop();
    const res = await fetch(url);
    if (!res.ok) throw new Error(`cannot fetch ${url}: ${res.status}`);
    $("scenario-text").value = await res.text();
    await loadScenario();
    $("sim-status").textContent = "";
  }
  async function runScenario() {
    document.body.dataset.ran = "0";
    const s = await loadScenario();
    if (!s) return;
    const t = await module();
    const r = t.sim.run($("selector").value, Number($("seed").value) || 0,
      Math.max(1, Number($("every").value) || 1));
    if (!r.ok) { simError(r.error.text); return; }
    const res = r.result;
    $("sim-status").textContent = `${s.name} (${s.kind}), ${$("selector").value}: ` +
      `${res.seconds.toFixed(2)} s simulated, ${res.ticks} ticks, ${res.plans} plans` +
      (s.kind === "arena" ? `, ${res.kills} kills` : res.censored ? ", goal not reached" : ", goal reached") +
      ` — run in ${r.ms.toFixed(0)} ms in WebAssembly (${(r.bytes / 1024).toFixed(0)} KB of replay)`;
    open(t.sim.replay(), `${scenarioName} · ${$("selector").value} · seed ${$("seed").value}`);
    document.body.dataset.ran = "1";
  }
  const guard = (f) => () => f().catch((e) => { console.error(e); simError(String(e.message || e)); });
  $("scenario").addEventListener("change", guard(fetchScenario));
  $("scenario-text").addEventListener("change", guard(loadScenario));
  $("run-sim").addEventListener("click", guard(runScenario));
  guard(fetchScenario)().then(() => { document.body.dataset.ready = "1"; });
})();

// The Town page's agents tab: a village's NPCs living by the agent runtime (topoplan::agents) in
// WebAssembly. The page plays the engine as `topoplan agents` does; the user interrupts (closes a
// door, takes an item, fails an action) by writing sensed facts. Per frame it reads one int32
// view of the module's memory (place, running action, goal, replan reason per agent) and a small
// JSON answer; positions live in typed arrays, so a frame allocates next to nothing.
"use strict";

(async () => {
  const $ = (id) => document.getElementById(id);
  const canvas = $("a-map"), ctx = canvas.getContext("2d");
  const DRAWN = 1500;  // agents drawn at most (the first ones); all of them live
  const COLORS = ["#2471a3", "#c0392b", "#7d3c98", "#1e8449", "#d35400", "#34495e", "#b7950b"];
  const FILE = "domains/village.toml";
  // The replan reasons and the planner's no-plan answers in words (agents.h's ReplanReason; a
  // no-plan event's status, topoplan_status_string).
  const REPLAN_WORDS = {
    "none": "not yet: it has not asked for a plan",
    "no-plan": "it had no plan for its goal",
    "plan-finished": "its plan ran to its end",
    "action-failed": "the engine reported its running action failed",
    "condition-broken": "a fact it sensed broke the rest of its plan",
    "better-goal": "a goal of higher priority stopped holding",
    "world-changed": "the level changed since the plan was made",
    "plan-too-old": "its plan grew too old",
  };
  const NO_PLAN_WORDS = {
    "unsolvable": "no plan: proved unsolvable (no plan reaches the goal from what it believes)",
    "gave up": "no plan: the planner chain gave up, no proof either way",
    "limit reached": "no plan: the planner chain reached its limits, no proof either way",
    "buffer too small": "no plan: the plan is longer than the agent can hold",
    "invalid argument": "no plan: the crowd refused the input",
  };
  // Ring colours by ReplanReason (index): plan-finished grey, broken red, failed orange, ...
  const REASON_COLORS = ["#000", "#888", "#999", "#e67e22", "#e74c3c", "#8e44ad", "#2980b9", "#16a085"];
  // Interruptions offered as buttons when the domain has these facts.
  const QUICK = [
    ["Close the bakery door", "bakeryDoor", "closed"],
    ["Take the bread", "bread", "stolen"],
    ["Restock the bread", "bread", "onShelf"],
    ["Call the guard", "guard", "near"],
  ];

  while (!window.__tp) await new Promise((r) => setTimeout(r, 50));
  const tp = window.__tp;
  const text = await (await fetch(FILE)).text();

  let info = null, view = null, cols = 5, n = 0, drawn = 0, running = true, selected = 0;
  let pos = new Float32Array(0), spots = [], accumulated = 0, last = performance.now();
  let lastFrame = null;
  const msHistory = new Float64Array(30);
  let msCount = 0;
  const log = [];

  function currentView() {
    if (!view || view.buffer !== tp.module.HEAP32.buffer) view = tp.agents.view(n, cols);
    return view;
  }

  // The places: the values of the place variable on an ellipse.
  function layout() {
    spots = [];
    const pv = info.place_var;
    const names = pv >= 0 ? info.variables[pv].values : ["here"];
    names.forEach((name, k) => {
      const a = (2 * Math.PI * k) / names.length - Math.PI / 2;
      spots.push({ name, x: 380 + 270 * Math.cos(a), y: 265 + 180 * Math.sin(a) });
    });
  }
  // Where agent i is headed: the place its running action ends at (an effect on the place
  // variable) or happens at (a prevail-condition on it), else the place it believes it is at.
  function targetPlace(i, v) {
    const place = v[i * cols], run = v[i * cols + 1], pv = info.place_var;
    if (run >= 0 && pv >= 0) {
      const act = info.actions[run];
      const e = act.effects.find(([x]) => x === pv);
      if (e) return e[1];
      const p = act.prevail.find(([x]) => x === pv);
      if (p) return p[1];
    }
    return place >= 0 ? place : 0;
  }
  function jitter(i, k) {
    const h = Math.sin(i * 12.9898 + k * 78.233) * 43758.5453;
    return (h - Math.floor(h)) * 2 - 1;
  }

  function create() {
    n = Math.max(1, Math.min(100000, Math.round(Number($("a-count").value) || 40)));
    info = tp.agents.create(text, "village.toml", n, Math.max(0, Number($("a-seed").value) || 0));
    if (!info.ok) throw new Error(info.error.text);
    cols = info.columns;
    view = null;
    drawn = Math.min(n, DRAWN);
    layout();
    pos = new Float32Array(drawn * 2);
    const v = currentView();
    for (let i = 0; i < drawn; ++i) {
      const s = spots[Math.max(0, v[i * cols])] || spots[0];
      pos[2 * i] = s.x + 30 * jitter(i, 1);
      pos[2 * i + 1] = s.y + 22 * jitter(i, 2);
    }
    selected = Math.min(selected, n - 1);
    log.length = 0;
    lastFrame = null;
    msCount = 0;
    $("a-legend").innerHTML = info.classes.map((c, k) =>
      `<span><svg width="10" height="10"><circle cx="5" cy="5" r="4.5" fill="${COLORS[k % COLORS.length]}"/></svg> ${c}</span>`)
      .join("") + `<span>${n.toLocaleString("en-US")} agents (${drawn.toLocaleString("en-US")} drawn) · ring: replanned (red: a sensed fact broke the plan, orange: an action failed, grey: plan finished)</span>`;
    // The interruption controls, from the domain.
    $("a-var").innerHTML = info.variables.map((x, k) => `<option value="${k}">${x.name}</option>`).join("");
    fillValues();
    $("a-quick").innerHTML = "";
    for (const [label, vname, value] of QUICK) {
      const x = info.variables.findIndex((y) => y.name === vname);
      if (x < 0) continue;
      const y = info.variables[x].values.indexOf(value);
      if (y < 0) continue;
      const b = document.createElement("button");
      b.textContent = label;
      b.dataset.var = String(x);
      b.dataset.value = String(y);
      b.addEventListener("click", () => sense(x, y, label));
      $("a-quick").appendChild(b);
    }
    showAgent();
    showStats();
    document.body.dataset.agentsFrame = "0";
  }
  function fillValues() {
    const x = Number($("a-var").value) || 0;
    $("a-val").innerHTML = info.variables[x].values.map((y, k) => `<option value="${k}">${y}</option>`).join("");
  }

  function sense(x, y, label) {
    const one = $("a-scope").value === "one";
    tp.agents.sense(one ? selected : -1, x, y);
    log.push(`[${lastFrame ? lastFrame.frame + 1 : 0}] you: ${label} (${info.variables[x].name} = ` +
      `${info.variables[x].values[y]}, ${one ? "sensed by agent " + selected : "sensed by everyone"})`);
    showAgent();
  }

  function step() {
    const f = tp.agents.frame(Number($("a-sense").value) / 100, selected, $("a-scripted").checked);
    if (!f.ok) throw new Error(f.error.text);
    lastFrame = f;
    msHistory[msCount++ % msHistory.length] = f.ms;
    for (const line of f.watched) log.push(`[${f.frame}] ${line}`);
    if (log.length > 40) log.splice(0, log.length - 40);
    document.body.dataset.agentsFrame = String(f.frame + 1);
  }

  function move(dt) {
    const v = currentView();
    // Fast enough that a walk across the village fits in an action's frames at most speeds.
    const speed = Math.max(160, 130 * Number($("a-speed").value)) * dt;
    for (let i = 0; i < drawn; ++i) {
      const s = spots[targetPlace(i, v)] || spots[0];
      const tx = s.x + 30 * jitter(i, 1), ty = s.y + 22 * jitter(i, 2);
      const dx = tx - pos[2 * i], dy = ty - pos[2 * i + 1], d = Math.hypot(dx, dy);
      if (d <= speed) { pos[2 * i] = tx; pos[2 * i + 1] = ty; }
      else { pos[2 * i] += (dx / d) * speed; pos[2 * i + 1] += (dy / d) * speed; }
    }
  }

  function draw() {
    const v = currentView();
    ctx.fillStyle = "#efe4cf";
    ctx.fillRect(0, 0, canvas.width, canvas.height);
    ctx.strokeStyle = "#d9c7a3";
    ctx.lineWidth = 30;
    ctx.beginPath();
    ctx.ellipse(380, 265, 270, 180, 0, 0, 2 * Math.PI);
    ctx.stroke();
    ctx.lineWidth = 1;
    ctx.font = "13px system-ui, sans-serif";
    ctx.textAlign = "center";
    for (const s of spots) {
      ctx.fillStyle = "#c9b48c";
      ctx.strokeStyle = "#8a6d3b";
      ctx.beginPath();
      ctx.rect(s.x - 48, s.y - 32, 96, 64);
      ctx.fill();
      ctx.stroke();
      ctx.fillStyle = "#4a3520";
      ctx.fillText(s.name, s.x, s.y - 38);
    }
    for (let i = 0; i < drawn; ++i) {
      const cls = i % Math.max(1, info.classes.length);
      ctx.fillStyle = COLORS[cls % COLORS.length];
      ctx.globalAlpha = v[i * cols + 1] >= 0 ? 1 : 0.45;  // faded: no running action
      ctx.beginPath();
      ctx.arc(pos[2 * i], pos[2 * i + 1], i === selected ? 7 : 4, 0, 2 * Math.PI);
      ctx.fill();
      ctx.globalAlpha = 1;
      // A ring for an agent that adopted a plan in the last two frames, in the colour of why.
      const at = v[i * cols + 5];
      if (lastFrame && at >= 0 && lastFrame.frame - at < 2 && at > 0) {
        ctx.strokeStyle = REASON_COLORS[v[i * cols + 3]] || "#000";
        ctx.beginPath();
        ctx.arc(pos[2 * i], pos[2 * i + 1], 8, 0, 2 * Math.PI);
        ctx.stroke();
      }
    }
    if (selected < drawn) {
      ctx.strokeStyle = "#000";
      ctx.lineWidth = 2;
      ctx.beginPath();
      ctx.arc(pos[2 * selected], pos[2 * selected + 1], 10, 0, 2 * Math.PI);
      ctx.stroke();
      ctx.lineWidth = 1;
      const r = v[selected * cols + 1];
      ctx.fillStyle = "#111";
      ctx.font = "bold 12px system-ui, sans-serif";
      ctx.fillText(`#${selected}: ${r >= 0 ? info.actions[r].name : "idle"}`, pos[2 * selected],
        pos[2 * selected + 1] + 24);
    }
  }

  const esc = (s) => String(s).replace(/[&<>"]/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;" })[c]);
  function showAgent() {
    const a = tp.agents.agent(selected);
    if (!a.ok) return;
    $("a-who").textContent = `#${a.agent} (${a.class})`;
    $("a-goal").textContent = a.goal || "– (every goal holds)";
    $("a-running").textContent = a.running ? `${a.running} (step ${a.step + 1} of ${a.plan.length})` : "–";
    $("a-replan").textContent = `${a.replan}: ${REPLAN_WORDS[a.replan] || a.replan}`;
    $("a-replan").dataset.reason = a.replan;
    $("a-noplan").textContent = a.no_plan ? `${a.no_plan}: ${NO_PLAN_WORDS[a.no_plan] || ""}` :
      a.plan.length ? "a plan" : "–";
    $("a-noplan").dataset.reason = a.no_plan;
    $("a-plan").innerHTML = a.plan.map((name, k) =>
      `<li class="${k < a.step ? "done" : k === a.step && a.running ? "running" : ""}">${esc(name)}</li>`).join("");
    $("a-beliefs").textContent = info.variables.map((x, k) => `${x.name}=${x.values[a.state[k]] ?? "?"}`).join("  ");
    $("a-log").innerHTML = log.map((l) => `<div class="past">${esc(l)}</div>`).join("");
    $("a-log").scrollTop = $("a-log").scrollHeight;
  }
  function showStats() {
    const f = lastFrame;
    $("as-frame").textContent = f ? (f.frame + 1).toLocaleString("en-US") : "0";
    const k = Math.min(msCount, msHistory.length);
    const sorted = Array.from(msHistory.subarray(0, k)).sort((x, y) => x - y);
    // performance.now() has 0.1 ms steps in a page without cross-origin isolation.
    $("as-ms").textContent = !k ? "–" : sorted[k >> 1] < 0.1 ? "< 0.1 ms" : `${sorted[k >> 1].toFixed(1)} ms`;
    $("as-ep").textContent = f ? `${f.examined} / ${f.planned}` : "–";
    $("as-hash").textContent = f ? f.event_hash : "–";
    if (f) {
      const r = info.replan_reasons.map((name, i) => [name, f.replans[i]]).filter(([, c], i) => i > 0 && c > 0);
      const np = info.no_plan_reasons.map((name, i) => [name, f.no_plan[i]]).filter(([, c]) => c > 0);
      $("as-replans").textContent = (r.map(([x, c]) => `${x} ${c}`).join(" · ") || "none") +
        "  |  no plan: " + (np.map(([x, c]) => `${x} ${c}`).join(" · ") || "none");
    }
  }

  canvas.addEventListener("click", (e) => {
    const r = canvas.getBoundingClientRect();
    const x = ((e.clientX - r.left) * canvas.width) / r.width, y = ((e.clientY - r.top) * canvas.height) / r.height;
    let best = -1, bd = 1e9;
    for (let i = 0; i < drawn; ++i) {
      const d = Math.hypot(pos[2 * i] - x, pos[2 * i + 1] - y);
      if (d < bd) { bd = d; best = i; }
    }
    if (best >= 0 && bd < 20) { selected = best; log.length = 0; showAgent(); }
  });

  function loop(now) {
    const dt = Math.min(0.1, (now - last) / 1e3);
    last = now;
    if (document.body.dataset.view === "agents") {
      try {
        if (running) {
          accumulated += dt * Number($("a-speed").value);
          let k = 0;
          while (accumulated >= 1 && k++ < 4) { step(); accumulated -= 1; }
          if (accumulated >= 1) accumulated = 0;
          if (k > 0) { showAgent(); showStats(); }
        }
        move(dt);
        draw();
      } catch (e) {
        console.error(e);
        running = false;
      }
    }
    requestAnimationFrame(loop);
  }

  function setView(which) {
    document.body.dataset.view = which;
    $("crowd-view").classList.toggle("hidden", which === "agents");
    $("agents-view").classList.toggle("hidden", which !== "agents");
    $("tab-crowd").classList.toggle("here", which !== "agents");
    $("tab-agents").classList.toggle("here", which === "agents");
  }
  $("tab-crowd").addEventListener("click", () => setView("crowd"));
  $("tab-agents").addEventListener("click", () => setView("agents"));
  $("a-reset").addEventListener("click", () => create());
  $("a-count").addEventListener("change", () => create());
  $("a-seed").addEventListener("change", () => create());
  $("a-speed").addEventListener("input", () => { $("a-speed-label").textContent = $("a-speed").value; });
  $("a-sense").addEventListener("input", () => { $("a-sense-label").textContent = $("a-sense").value + " %"; });
  $("a-var").addEventListener("change", fillValues);
  $("a-apply").addEventListener("click", () => {
    const x = Number($("a-var").value), y = Number($("a-val").value);
    sense(x, y, "sensed");
  });
  $("a-fail").addEventListener("click", () => {
    if (tp.agents.fail(selected)) log.push(`[${lastFrame ? lastFrame.frame + 1 : 0}] you: its action failed`);
    showAgent();
  });
  $("a-run").addEventListener("click", () => {
    running = !running;
    $("a-run").textContent = running ? "Pause" : "Run";
  });
  $("a-step").addEventListener("click", () => { step(); showAgent(); showStats(); });

  create();
  // For tests and the console: select an agent, step frames, read the panel.
  window.__agents = {
    select: (i) => { selected = Math.max(0, Math.min(n - 1, i)); log.length = 0; showAgent(); },
    pause: () => { running = false; $("a-run").textContent = "Run"; },
    info: () => info,
  };
  if (new URLSearchParams(location.search).get("view") === "agents") setView("agents");
  document.body.dataset.agentsReady = "1";
  requestAnimationFrame(loop);
})().catch((e) => {
  console.error(e);
  document.getElementById("load-note").textContent = "agents failed: " + e.message;
});

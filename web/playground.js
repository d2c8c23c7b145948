// The playground: edit a domain, check it, plan it with every planner, see the graphs.
"use strict";

(async () => {
  const $ = (id) => document.getElementById(id);
  const text = $("text"), gutter = $("gutter");
  let tp = null;
  let domain = null;        // the loaded domain (JSON from tp.load)
  let lastPlan = null;      // the last plan shown (its action ids are highlighted)
  let errorLine = 0;

  function esc(s) {
    return String(s).replace(/[&<>"]/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;" })[c]);
  }

  // The browser's clock has 0.1 ms steps (5 µs when cross-origin isolated).
  const fmtMs = (s) => (s * 1e3 < 0.1 ? "< 0.1" : (s * 1e3).toFixed(1));

  // ------------------------------------------------------------------ editor gutter
  function renderGutter() {
    const n = text.value.split("\n").length;
    let html = "";
    for (let i = 1; i <= n; ++i) html += `<div${i === errorLine ? ' class="error"' : ""}>${i}</div>`;
    gutter.innerHTML = html;
    gutter.scrollTop = text.scrollTop;
  }
  text.addEventListener("scroll", () => { gutter.scrollTop = text.scrollTop; });
  function goToLine(line) {
    const lines = text.value.split("\n");
    let pos = 0;
    for (let i = 0; i < line - 1 && i < lines.length; ++i) pos += lines[i].length + 1;
    text.focus();
    text.setSelectionRange(pos, pos + (lines[line - 1] || "").length);
    text.scrollTop = Math.max(0, (line - 5) * 18);
    gutter.scrollTop = text.scrollTop;
  }

  // ------------------------------------------------------------------ load + check
  function showError(err) {
    errorLine = err.line || 0;
    const where = errorLine ? `<a href="#" id="error-line" data-line="${errorLine}">line ${errorLine}</a>: ` : "";
    $("error").innerHTML = `${where}${esc(err.message)}`;
    $("error").classList.remove("hidden");
    const a = $("error-line");
    if (a) a.addEventListener("click", (e) => { e.preventDefault(); goToLine(errorLine); });
    renderGutter();
  }
  function clearError() {
    errorLine = 0;
    $("error").classList.add("hidden");
    $("error").innerHTML = "";
    renderGutter();
  }

  function reload() {
    const r = tp.load(text.value, $("format").value);
    lastPlan = null;
    $("plan-list").innerHTML = "";
    $("plan-head").textContent = "";
    $("validation").innerHTML = "";
    $("planners-table").querySelector("tbody").innerHTML = "";
    if (!r.ok) {
      domain = null;
      $("domain-status").innerHTML = `<span class="bad">error</span>`;
      showError(r.error);
      $("instance").innerHTML = "";
      $("scope").innerHTML = "";
      $("class-badge").textContent = "–";
      $("class-badge").className = "badge";
      $("why-not").innerHTML = "";
      $("class-summary").textContent = "";
      $("restrictions").textContent = "";
      $("action-graph").innerHTML = '<div class="muted" style="padding: 0.5em">no domain</div>';
      $("dags").innerHTML = "";
      $("plan-head").innerHTML = `<span class="bad">The domain does not load${r.error.line ? " (line " + r.error.line + ")" : ""}: nothing to plan.</span>`;
      return;
    }
    clearError();
    domain = r.domain;
    const d = domain;
    $("domain-status").innerHTML =
      `<span class="ok">${r.format === "sas" ? "SAS" : "TOML"}</span> ${esc(d.name || "(unnamed)")}: ` +
      `${d.variables.length} variables, ${d.actions.length} actions, ${d.classes.length} NPC classes`;
    const inst = $("instance");
    inst.innerHTML = d.instances.map((x, i) =>
      `<option value="${i}">${esc(x.name || "instance " + (i + 1))}</option>`).join("") ||
      `<option value="-1">(no instance in the file)</option>`;
    const scope = $("scope");
    scope.innerHTML = `<option value="-1">all actions</option>` +
      d.classes.map((c, i) => `<option value="${i}">class ${esc(c.name)}</option>`).join("");
    // Analyse the class of the first instance when it has one (that is what its NPC plans with).
    const first = d.instances[0];
    scope.value = first && first.class >= 0 ? String(first.class) : "-1";
    check();
  }

  function check() {
    if (!domain) return;
    const r = tp.check(Number($("scope").value));
    if (!r.ok) return;
    const rep = r.report;
    const badge = $("class-badge");
    badge.textContent = rep.class;
    badge.className = "badge " + rep.class;
    const flag = (b, name) => `<span class="${b ? "ok" : "bad"}">${b ? "" : "not "}${name}</span>`;
    $("restrictions").innerHTML = `${rep.actions} actions: ${flag(rep.unary, "unary")}, ` +
      `${flag(rep.post_unique, "post-unique")}, ${flag(rep.single_valued, "single-valued")}`;
    const words = rep.words.length ? rep.words
      : [rep.class === "C0" ? "C0 holds: no requestable action lies on a cycle of a domain-action graph."
        : "nothing to report"];
    $("why-not").innerHTML = words.map((w) => `<li>${esc(w)}</li>`).join("");
    $("class-summary").innerHTML = r.classes.length
      ? "per class: " + r.classes.map((c) => `${esc(c.name)} <span class="badge ${esc(c.class)}">${esc(c.class)}</span>`).join(" ")
      : "";
    drawGraphs(rep);
  }

  function drawGraphs(rep) {
    const inPlan = new Set(lastPlan ? lastPlan.actions.map((a) => a.id) : []);
    $("action-graph").innerHTML = "";
    $("action-graph").appendChild(Graphs.actionGraph(domain, rep, inPlan));
    const dags = $("dags");
    dags.innerHTML = "";
    for (const v of rep.variables) {
      if (!v.actions.length) continue;
      dags.appendChild(Graphs.domainActionGraph(domain, rep, v, inPlan));
    }
  }

  // ------------------------------------------------------------------ planning
  function planWith(name) {
    const i = Number($("instance").value);
    return tp.plan(name, Number.isFinite(i) ? i : -1, $("init").value.trim(), $("goal").value.trim());
  }
  // The goal as the changes it asks for; the full states on hover.
  function changes(r) {
    const c = r.changes.length ? r.changes.join(", ") : "the goal already holds";
    return `<div class="mono" title="${esc(r.init)} → ${esc(r.goal)}">goal: ${esc(c)}</div>`;
  }
  function showPlan(r) {
    lastPlan = null;
    if (!r.ok) {
      $("plan-head").innerHTML = `<span class="bad">${esc(r.error.message)}</span>`;
      $("plan-list").innerHTML = "";
      $("validation").innerHTML = "";
      return;
    }
    const ms = fmtMs(r.seconds);
    if (r.status !== "solved") {
      $("plan-head").innerHTML = `<span class="bad">${esc(r.status)}</span> (${esc(r.planner)}, ${ms} ms): ${esc(r.message)}${changes(r)}`;
      $("plan-list").innerHTML = "";
      $("validation").innerHTML = "";
    } else {
      lastPlan = r;
      $("plan-head").innerHTML = `<span class="ok">solved</span> by ${esc(r.engine)} in ${ms} ms — ` +
        `${r.actions.length} actions, cost ${r.cost}${changes(r)}`;
      $("plan-list").innerHTML = r.actions.map((a) => `<li>(${esc(a.name)})</li>`).join("");
      const v = r.validation;
      $("validation").innerHTML = v.valid
        ? `<span class="ok" id="valid">✔ valid plan</span>: ${r.actions.length} actions, cost ${v.cost} (checked by the validator)`
        : `<span class="bad">✘ invalid plan</span>: step ${v.failed_step + 1}: ${esc(v.reason)}`;
    }
    check();
  }
  function planAll() {
    const rows = [];
    for (const p of planners) {
      const r = planWith(p.name);
      const solved = r.ok && r.status === "solved";
      const valid = solved ? (r.validation.valid ? '<span class="ok">valid</span>' : '<span class="bad">INVALID</span>') : "–";
      rows.push(`<tr data-planner="${esc(p.name)}" title="${esc(p.description)}"><td>${esc(p.name)}</td>` +
        `<td class="${solved ? "ok" : "bad"}">${esc(r.ok ? r.status : "error")}</td>` +
        `<td>${solved ? r.actions.length : "–"}</td><td>${solved ? r.cost : "–"}</td>` +
        `<td>${esc(r.ok ? r.engine : r.error.message)}</td>` +
        `<td>${r.ok ? fmtMs(r.seconds) + " ms" : ""}</td><td>${valid}</td></tr>`);
    }
    const body = $("planners-table").querySelector("tbody");
    body.innerHTML = rows.join("");
    for (const tr of body.querySelectorAll("tr")) {
      tr.classList.toggle("selected", tr.dataset.planner === $("planner").value);
      tr.addEventListener("click", () => { $("planner").value = tr.dataset.planner; plan(); });
    }
  }
  function plan() {
    if (!domain) return;
    showPlan(planWith($("planner").value));
    planAll();
  }

  // ------------------------------------------------------------------ wiring
  async function loadSample(url) {
    const res = await fetch(url);
    if (!res.ok) throw new Error(`cannot fetch ${url}: ${res.status}`);
    text.value = await res.text();
    renderGutter();
    reload();
    plan();
  }

  tp = await Topoplan.create();
  window.__tp = tp;
  const planners = tp.planners();
  $("planner").innerHTML = planners.map((p) =>
    `<option value="${esc(p.name)}" title="${esc(p.description)}">${esc(p.name)}</option>`).join("");
  $("planner").value = "topo";
  $("load-note").textContent = `WebAssembly ready in ${tp.loadMs.toFixed(0)} ms`;

  let timer = 0;
  text.addEventListener("input", () => {
    renderGutter();
    clearTimeout(timer);
    timer = setTimeout(() => { reload(); plan(); }, 350);
  });
  text.addEventListener("keydown", (e) => {  // Tab indents instead of leaving the editor
    if (e.key !== "Tab") return;
    e.preventDefault();
    const s = text.selectionStart;
    text.setRangeText("  ", s, text.selectionEnd, "end");
    text.dispatchEvent(new Event("input"));
  });
  $("format").addEventListener("change", () => { reload(); plan(); });
  $("sample").addEventListener("change", () => loadSample($("sample").value));
  $("scope").addEventListener("change", check);
  $("instance").addEventListener("change", plan);
  $("planner").addEventListener("change", plan);
  $("plan-btn").addEventListener("click", plan);
  for (const id of ["init", "goal"])
    $(id).addEventListener("keydown", (e) => { if (e.key === "Enter") plan(); });
  await loadSample($("sample").value);
  document.body.dataset.ready = "1";
})().catch((e) => {
  console.error(e);
  document.getElementById("load-note").textContent = "failed: " + e.message;
});

// SVG drawings of the class analysis (no Graphviz, no library): the action graph
// G = (A, E_pre ∪ E_prv) as layered columns, and each domain-action graph G(v) on a circle.
// Colours follow `topoplan check --dot`: post→pre edges blue, post→prevail green dashed,
// cycle edges thick, requestable actions gold, actions on a cycle with a double border.
"use strict";

const Graphs = (() => {
  const NS = "http://www.w3.org/2000/svg";
  const PRE = "#1f5fbf", PRV = "#2e8b3e";

  function el(name, attrs, parent) {
    const e = document.createElementNS(NS, name);
    for (const [k, v] of Object.entries(attrs || {})) e.setAttribute(k, v);
    if (parent) parent.appendChild(e);
    return e;
  }
  function textWidth(s, px) { return s.length * px * 0.58; }

  function markers(svg) {
    const defs = el("defs", {}, svg);
    for (const [id, color] of [["arr-pre", PRE], ["arr-prv", PRV]]) {
      const m = el("marker", { id, viewBox: "0 0 10 10", refX: 9, refY: 5, markerWidth: 9,
        markerHeight: 9, markerUnits: "userSpaceOnUse", orient: "auto-start-reverse" }, defs);
      el("path", { d: "M0,0 L10,5 L0,10 z", fill: color }, m);
    }
  }

  // Longest-path layers on the graph with DFS back edges removed, then barycentre ordering.
  function layout(nodes, edges) {
    const index = new Map(nodes.map((n, i) => [n, i]));
    const out = nodes.map(() => []);
    for (const [a, b] of edges) if (index.has(a) && index.has(b) && a !== b) out[index.get(a)].push(index.get(b));
    const state = nodes.map(() => 0), forward = nodes.map(() => []);
    for (let s = 0; s < nodes.length; ++s) {  // iterative DFS: 0 new, 1 on stack, 2 done
      if (state[s]) continue;
      const stack = [[s, 0]];
      state[s] = 1;
      while (stack.length) {
        const top = stack[stack.length - 1];
        const [u, k] = top;
        if (k < out[u].length) {
          top[1]++;
          const v = out[u][k];
          if (state[v] === 0) { forward[u].push(v); state[v] = 1; stack.push([v, 0]); }
          else if (state[v] === 2) forward[u].push(v);
          // state 1: a back edge, left out of the layering
        } else { state[u] = 2; stack.pop(); }
      }
    }
    const order = [];  // topological order of the forward graph
    const indeg = nodes.map(() => 0);
    for (const vs of forward) for (const v of vs) indeg[v]++;
    const queue = indeg.map((d, i) => (d === 0 ? i : -1)).filter((i) => i >= 0);
    while (queue.length) {
      const u = queue.shift();
      order.push(u);
      for (const v of forward[u]) if (--indeg[v] === 0) queue.push(v);
    }
    const layer = nodes.map(() => 0);
    for (const u of order) for (const v of forward[u]) layer[v] = Math.max(layer[v], layer[u] + 1);
    const layers = [];
    for (let i = 0; i < nodes.length; ++i) (layers[layer[i]] ||= []).push(i);
    const pos = nodes.map(() => 0);
    const preds = nodes.map(() => []), succs = nodes.map(() => []);
    for (let u = 0; u < nodes.length; ++u) for (const v of out[u]) { preds[v].push(u); succs[u].push(v); }
    layers.forEach((L) => L.forEach((u, k) => { pos[u] = k; }));
    for (let sweep = 0; sweep < 6; ++sweep) {
      const down = sweep % 2 === 0;
      const seq = down ? layers.slice(1) : layers.slice(0, -1).reverse();
      for (const L of seq) {
        const bary = (u) => {
          const ns = down ? preds[u] : succs[u];
          return ns.length ? ns.reduce((s, v) => s + pos[v], 0) / ns.length : pos[u];
        };
        const keyed = L.map((u) => [bary(u), pos[u], u]).sort((a, b) => a[0] - b[0] || a[1] - b[1]);
        keyed.forEach(([, , u], k) => { L[k] = u; pos[u] = k; });
      }
    }
    return { layer, pos, layers };
  }

  function actionGraph(domain, rep, inPlan) {
    const nodes = rep.analysed.slice();
    const wrap = document.createElement("div");
    if (!nodes.length) { wrap.textContent = "no action to draw"; return wrap; }
    const req = new Set(rep.requestable), onCycle = new Set(rep.on_cycle);
    const cycleEdge = new Set();
    for (const v of rep.variables)
      for (const c of v.cycles) {
        const inC = new Set(c.actions);
        for (const [a, b] of v.edges) if (inC.has(a) && inC.has(b)) cycleEdge.add(a + ">" + b);
      }
    const edges = rep.pre_edges.map((e) => [e[0], e[1], "pre"]).concat(rep.prv_edges.map((e) => [e[0], e[1], "prv"]));
    const { layer, pos, layers } = layout(nodes, edges);
    const px = 11.5, H = 34, rowGap = 16, colGap = 70;
    const label = (a) => domain.actions[a].name;
    const sub = (a) => domain.actions[a].effects.map((e) => {
      const v = domain.variables[e.var];
      return `${v.name}: ${e.pre < 0 ? "u" : v.values[e.pre]} → ${v.values[e.post]}`;
    }).join(", ");
    const width = nodes.map((a) => Math.max(textWidth(label(a), px + 0.5), textWidth(sub(a), px - 2)) + 20);
    const colW = layers.map((L) => Math.max(...L.map((i) => width[i])));
    const colX = [];
    let x = 16;
    for (const w of colW) { colX.push(x); x += w + colGap; }
    const maxRows = Math.max(...layers.map((L) => L.length));
    const W = x - colGap + 16, Hsvg = maxRows * (H + rowGap) + 24;
    const svg = el("svg", { width: W, height: Hsvg, viewBox: `0 0 ${W} ${Hsvg}`, role: "img",
      "aria-label": "action graph" });
    markers(svg);
    const box = (i) => {
      const L = layers[layer[i]];
      const y0 = 12 + ((maxRows - L.length) * (H + rowGap)) / 2;
      return { x: colX[layer[i]], y: y0 + pos[i] * (H + rowGap), w: colW[layer[i]], h: H };
    };
    const index = new Map(nodes.map((n, i) => [n, i]));
    const eg = el("g", {}, svg);
    let bottom = Hsvg;
    for (const [a, b, kind] of edges) {
      if (!index.has(a) || !index.has(b)) continue;
      const A = box(index.get(a)), B = box(index.get(b));
      let d;
      if (a === b) {
        d = `M${A.x + A.w - 12},${A.y} C${A.x + A.w + 20},${A.y - 26} ${A.x + A.w + 26},${A.y + 10} ${A.x + A.w},${A.y + 8}`;
      } else if (layer[index.get(b)] > layer[index.get(a)]) {
        const x1 = A.x + A.w, y1 = A.y + A.h / 2 + (kind === "prv" ? 5 : -3), x2 = B.x, y2 = B.y + B.h / 2 + (kind === "prv" ? 5 : -3);
        const c = Math.max(30, (x2 - x1) / 2);
        d = `M${x1},${y1} C${x1 + c},${y1} ${x2 - c},${y2} ${x2},${y2}`;
      } else {  // backwards or same column: arc below
        const x1 = A.x + A.w / 2, y1 = A.y + A.h, x2 = B.x + B.w / 2, y2 = B.y + B.h;
        const dip = 26 + Math.abs(x1 - x2) * 0.12 + (kind === "prv" ? 8 : 0);
        d = `M${x1},${y1} C${x1},${Math.max(y1, y2) + dip} ${x2},${Math.max(y1, y2) + dip} ${x2},${y2}`;
        bottom = Math.max(bottom, Math.max(y1, y2) + dip * 0.75 + 12);
      }
      const thick = kind === "pre" && cycleEdge.has(a + ">" + b);
      el("path", { d, fill: "none", stroke: kind === "pre" ? PRE : PRV, "stroke-width": thick ? 3.2 : 1.4,
        "stroke-dasharray": kind === "prv" ? "5 3" : "none", "marker-end": `url(#arr-${kind})`,
        opacity: 0.9 }, eg).appendChild(el("title", {})).textContent =
        `${label(a)} → ${label(b)} (${kind === "pre" ? "post → pre" : "post → prevail"})`;
    }
    svg.setAttribute("height", bottom);
    svg.setAttribute("viewBox", `0 0 ${W} ${bottom}`);
    const ng = el("g", {}, svg);
    nodes.forEach((a, i) => {
      const B = box(i);
      const g = el("g", { "data-action": domain.actions[a].name }, ng);
      const fill = inPlan.has(a) ? "#cfe3c4" : req.has(a) ? "#f2c94c" : "#ffffff";
      el("rect", { x: B.x, y: B.y, width: B.w, height: B.h, rx: 6, fill, stroke: "#555",
        "stroke-width": inPlan.has(a) && req.has(a) ? 2.5 : 1.1 }, g);
      if (req.has(a) && inPlan.has(a))
        el("rect", { x: B.x + 1.5, y: B.y + 1.5, width: B.w - 3, height: 5, rx: 2, fill: "#f2c94c" }, g);
      if (onCycle.has(a))
        el("rect", { x: B.x + 3, y: B.y + 3, width: B.w - 6, height: B.h - 6, rx: 4, fill: "none", stroke: "#555" }, g);
      el("text", { x: B.x + B.w / 2, y: B.y + 15, "text-anchor": "middle", "font-size": px, "font-weight": 600 }, g)
        .textContent = label(a);
      el("text", { x: B.x + B.w / 2, y: B.y + 27, "text-anchor": "middle", "font-size": px - 2, fill: "#555" }, g)
        .textContent = sub(a);
    });
    return svg;
  }

  // G(v): the actions changing v on a circle, an edge a → b when post(a) = pre(b).
  function domainActionGraph(domain, rep, v, inPlan) {
    const div = document.createElement("div");
    div.className = "dag";
    const name = domain.variables[v.var].name;
    const values = domain.variables[v.var].values;
    const req = new Set(v.requestable);
    const inCycle = new Set(v.cycles.flatMap((c) => c.actions));
    const n = v.actions.length;
    const px = 10.5;
    const labels = v.actions.map((a) => domain.actions[a].name);
    const wMax = Math.max(...labels.map((s) => textWidth(s, px))) + 14;
    // Adjacent labels on the circle must not overlap: chord 2R·sin(π/n) ≥ label width.
    const R = n === 1 ? 0 : n === 2 ? 34 : Math.max(40, (wMax + 36) / (2 * Math.sin(Math.PI / n)));
    const cyc = v.cycles.length ? ` · ${v.cycles.length} cycle${v.cycles.length > 1 ? "s" : ""}` : " · acyclic";
    const subtitle = `${n} action${n > 1 ? "s" : ""}${cyc}` +
      (v.ghost_values.length ? ` · set by none: ${v.ghost_values.map((x) => values[x]).join(", ")}` : "");
    const W = Math.max(2 * R + wMax + 20, textWidth(subtitle, 10) + 14, textWidth(`G(${name})`, 12.5) + 14);
    const Hs = 2 * R + 64;
    const cx = W / 2, cy = R + 46;
    const svg = el("svg", { width: W, height: Hs, viewBox: `0 0 ${W} ${Hs}`, role: "img",
      "aria-label": `domain-action graph of ${name}` }, div);
    markers(svg);
    el("text", { x: 6, y: 14, "font-size": 12, "font-weight": 700, fill: "#8a4b14" }, svg).textContent = `G(${name})`;
    el("text", { x: 6, y: 27, "font-size": 10, fill: "#6b6b6b" }, svg).textContent = subtitle;
    const P = v.actions.map((a, i) => {
      const t = -Math.PI / 2 + (2 * Math.PI * i) / Math.max(1, n);
      return { x: cx + R * Math.cos(t), y: cy + R * Math.sin(t) };
    });
    const idx = new Map(v.actions.map((a, i) => [a, i]));
    const boxW = labels.map((l) => textWidth(l, px) + 10);
    for (const [a, b] of v.edges) {
      const A = P[idx.get(a)], B = P[idx.get(b)];
      const thick = inCycle.has(a) && inCycle.has(b);
      if (a === b) {
        el("path", { d: `M${A.x - 6},${A.y - 10} C${A.x - 24},${A.y - 40} ${A.x + 24},${A.y - 40} ${A.x + 6},${A.y - 10}`,
          fill: "none", stroke: PRE, "stroke-width": thick ? 2.6 : 1.3, "marker-end": "url(#arr-pre)" }, svg);
        continue;
      }
      // Shorten to the label boxes and bend a little so that a ⇄ b shows two arcs.
      const dx = B.x - A.x, dy = B.y - A.y, len = Math.hypot(dx, dy) || 1;
      const ux = dx / len, uy = dy / len;
      // Leave and enter at the label boxes' borders, so that arrowheads stay visible.
      const border = (i) => Math.min((boxW[i] / 2 + 2) / Math.max(Math.abs(ux), 1e-9), 11 / Math.max(Math.abs(uy), 1e-9));
      const ca = border(idx.get(a)), cb = border(idx.get(b));
      const x1 = A.x + ux * ca, y1 = A.y + uy * ca, x2 = B.x - ux * cb, y2 = B.y - uy * cb;
      const mx = (x1 + x2) / 2 - uy * 14, my = (y1 + y2) / 2 + ux * 14;
      el("path", { d: `M${x1},${y1} Q${mx},${my} ${x2},${y2}`, fill: "none", stroke: PRE,
        "stroke-width": thick ? 2.6 : 1.3, "marker-end": "url(#arr-pre)" }, svg);
    }
    v.actions.forEach((a, i) => {
      const w = textWidth(labels[i], px) + 10;
      const fill = inPlan.has(a) ? "#cfe3c4" : req.has(a) ? "#f2c94c" : "#fff";
      el("rect", { x: P[i].x - w / 2, y: P[i].y - 9, width: w, height: 18, rx: 5, fill, stroke: "#555",
        "stroke-width": inCycle.has(a) ? 1.8 : 1 }, svg);
      el("text", { x: P[i].x, y: P[i].y + 4, "text-anchor": "middle", "font-size": px }, svg).textContent = labels[i];
    });
    return div;
  }

  return { actionGraph, domainActionGraph };
})();

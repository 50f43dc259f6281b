// Inline SVG charts of an /api/distribution answer: the probability of each final score
// (bars, in bins when the range is wide) and the chance of reaching each score (a curve).

import { fixed } from "./percent.js";

const NS = "http://www.w3.org/2000/svg";
const H = 220, LEFT = 44, RIGHT = 12, TOP = 14, BOTTOM = 26;
let W = 600;   // the drawing's width in px: the container's, so text keeps its size

function el(tag, attrs, parent, text) {
  const node = document.createElementNS(NS, tag);
  for (const [k, v] of Object.entries(attrs)) node.setAttribute(k, v);
  if (text !== undefined) node.textContent = text;
  if (parent) parent.appendChild(node);
  return node;
}

function points(map) {
  return Object.entries(map).map(([x, p]) => [Number(x), p]).sort((a, b) => a[0] - b[0]);
}

const pct = (p) => fixed(p, p < 0.001 ? 3 : 1);

// The score range worth drawing: from the 0.05 % to the 99.95 % point.
function span(dist) {
  const pts = points(dist.distribution);
  let acc = 0, lo = pts[0][0], hi = pts[pts.length - 1][0];
  for (const [x, p] of pts) { if (acc + p >= 0.0005) { lo = x; break; } acc += p; }
  acc = 0;
  for (let i = pts.length - 1; i >= 0; i--) { if (acc + pts[i][1] >= 0.0005) { hi = pts[i][0]; break; } acc += pts[i][1]; }
  return [lo, Math.max(hi, lo + 1), pts];
}

function frame(container, label) {
  W = Math.max(300, Math.min(900, Math.round(container.clientWidth || 600)));
  const svg = el("svg", { viewBox: `0 0 ${W} ${H}`, class: "chart", role: "img", "aria-label": label });
  container.replaceChildren(svg);
  return svg;
}

function xAxis(svg, lo, hi, sx) {
  const y = H - BOTTOM;
  el("line", { x1: LEFT, x2: W - RIGHT, y1: y, y2: y, class: "axis" }, svg);
  const most = Math.max(3, Math.floor((W - LEFT - RIGHT) / 60));
  const stepTicks = [5, 10, 20, 25, 50, 100, 200].find((s) => (hi - lo) / s <= most) || 500;
  for (let t = Math.ceil(lo / stepTicks) * stepTicks; t <= hi; t += stepTicks) {
    el("line", { x1: sx(t), x2: sx(t), y1: y, y2: y + 4, class: "axis" }, svg);
    el("text", { x: sx(t), y: y + 16, "text-anchor": "middle" }, svg, String(t));
  }
}

// A round step for about four grid lines up to `top`.
function niceStep(top) {
  const raw = top / 4, unit = 10 ** Math.floor(Math.log10(raw));
  return [1, 2, 2.5, 5, 10].map((m) => m * unit).find((s) => s >= raw);
}

function yGrid(svg, top, sy, format, step = niceStep(top)) {
  for (let i = 0; i * step <= top * (1 + 1e-9); i++) {
    const v = i * step;
    el("line", { x1: LEFT, x2: W - RIGHT, y1: sy(v), y2: sy(v), class: "grid" }, svg);
    el("text", { x: LEFT - 6, y: sy(v) + 4, "text-anchor": "end" }, svg, format(v));
  }
}

export function drawDistribution(container, dist) {
  const [lo, hi, pts] = span(dist);
  const width = [1, 2, 5, 10, 20, 50].find((w) => (hi - lo + 1) / w <= 90) || 100;
  const start = Math.floor(lo / width) * width;
  const bins = new Map();
  for (const [x, p] of pts) {
    const b = Math.min(Math.max(Math.floor(x / width) * width, start), Math.floor(hi / width) * width);
    bins.set(b, (bins.get(b) || 0) + p);
  }
  const highest = Math.max(...bins.values()) * 1.05;
  const step = niceStep(highest);
  const top = Math.ceil(highest / step) * step;
  const end = Math.floor(hi / width) * width + width;
  const sx = (x) => LEFT + ((x - start) / (end - start)) * (W - LEFT - RIGHT);
  const sy = (p) => H - BOTTOM - (p / top) * (H - TOP - BOTTOM);
  const svg = frame(container, `Distribution of the final score, mean ${dist.expected_final.toFixed(1)}` +
    (width > 1 ? `, in bins of ${width} points` : ""));
  yGrid(svg, top, sy, (v) => `${+(100 * v).toFixed(2)}%`, step);
  for (const [b, p] of bins) {
    const rect = el("rect", { x: sx(b) + 0.5, y: sy(p), width: Math.max(sx(b + width) - sx(b) - 1, 0.8),
      height: H - BOTTOM - sy(p), class: "bar-rect" }, svg);
    el("title", {}, rect, `${width > 1 ? `${b}–${b + width - 1}` : b}: ${pct(p)}`);
  }
  const mean = dist.expected_final;
  el("line", { x1: sx(mean), x2: sx(mean), y1: TOP, y2: H - BOTTOM, class: "mean" }, svg);
  el("text", { x: sx(mean) + 4, y: TOP + 10, class: "mean-label" }, svg, `mean ${mean.toFixed(1)}`);
  xAxis(svg, start, end, sx);
  if (width > 1) el("text", { x: W - RIGHT, y: TOP + 10, "text-anchor": "end" }, svg, `bins of ${width} points`);
}

// The chance of reaching each final score: playing for the highest average (p_reach)
// and, when the server has a target table (p_best), the best chance of each target, each
// target played for on its own; the marks are then of the best chances.
export function drawReach(container, dist) {
  const [lo, hi] = span(dist);
  const reach = points(dist.p_reach);
  const best = dist.p_best ? points(dist.p_best) : null;
  const sx = (x) => LEFT + ((x - lo) / (hi - lo)) * (W - LEFT - RIGHT);
  const sy = (p) => H - BOTTOM - p * (H - TOP - BOTTOM);
  const atIn = (curve, x) => { let p = 1; for (const [s, r] of curve) { if (s >= x) { p = r; break; } p = 0; } return p; };
  const marked = best || reach;
  const targets = [];
  for (let t = Math.ceil(lo / 50) * 50; t <= hi; t += 50) {
    const p = atIn(marked, t);
    if (p > 0.03 && p < 0.97) targets.push([t, p]);
  }
  const shown = targets.length > 4 ? targets.filter((_, i) => i % Math.ceil(targets.length / 4) === 0) : targets;
  const svg = frame(container, (best ? "Best chance of reaching each final score, each played for: "
    : "Chance of reaching each final score: ") + shown.map(([t, p]) => `${t} or more ${pct(p)}`).join(", "));
  yGrid(svg, 1, sy, (v) => `${Math.round(v * 100)}%`, 0.25);
  const path = (curve, cls, end) => {   // end: the last score the curve knows
    let d = `M ${sx(lo)} ${sy(atIn(curve, lo))}`;
    let last = atIn(curve, lo);
    for (const [s, r] of curve) {
      if (s <= lo || s > hi) continue;
      d += ` H ${sx(s)} V ${sy(r)}`;
      last = r;
    }
    d += ` H ${sx(Math.min(hi, end))} V ${sy(last)}`;
    el("path", { d, class: cls }, svg);
  };
  path(reach, best ? "curve average" : "curve", hi);
  if (best && best.length) path(best, "curve", best[best.length - 1][0] + 1);  // up to the table's largest target
  for (const [t, p] of shown) {
    el("line", { x1: sx(t), x2: sx(t), y1: sy(p), y2: H - BOTTOM, class: "mark" }, svg);
    el("circle", { cx: sx(t), cy: sy(p), r: 3.5, class: "mark-label" }, svg);
    el("text", { x: sx(t) + 5, y: sy(p) - 6, class: "mark-label" }, svg, `${t}+: ${pct(p)}`);
  }
  xAxis(svg, lo, hi, sx);
}

// Each player's chance to win at the start of each of their turns (`series`: one
// { name, points: [[turn, chance], ...] } per player), a line per player over the turns.
export function drawWinChances(container, series, turns) {
  const sx = (t) => LEFT + ((t - 1) / Math.max(turns - 1, 1)) * (W - LEFT - RIGHT);
  const sy = (p) => H - BOTTOM - p * (H - TOP - BOTTOM);
  const last = series.map((s) => `${s.name} ${pct(s.points[s.points.length - 1][1])}`).join(", ");
  const svg = frame(container, `Chance to win at the start of each turn; latest: ${last}`);
  yGrid(svg, 1, sy, (v) => `${Math.round(v * 100)}%`, 0.25);
  series.forEach((s, i) => {
    const cls = `win-line win-${i % 4}`;
    el("path", { d: s.points.map(([t, p], j) => `${j ? "L" : "M"} ${sx(t)} ${sy(p)}`).join(" "),
      class: cls }, svg);
    for (const [t, p] of s.points) {
      const dot = el("circle", { cx: sx(t), cy: sy(p), r: 3.5, class: cls }, svg);
      el("title", {}, dot, `${s.name}, turn ${t}: ${pct(p)}`);
    }
    const [t, p] = s.points[s.points.length - 1];
    el("text", { x: Math.min(sx(t) + 6, W - RIGHT - 40), y: sy(p) - 6, class: `${cls} win-label` }, svg,
      `${s.name} ${pct(p)}`);
  });
  const y = H - BOTTOM;
  el("line", { x1: LEFT, x2: W - RIGHT, y1: y, y2: y, class: "axis" }, svg);
  const every = turns > 8 && W < 500 ? 2 : 1;
  for (let t = 1; t <= turns; t += every) {
    el("text", { x: sx(t), y: y + 16, "text-anchor": "middle" }, svg, String(t));
  }
}

// Dice drawn as SVG, and a die as a button.

import { act } from "./state.js";

const PIPS = { 1: [[2, 2]], 2: [[1, 1], [3, 3]], 3: [[1, 1], [2, 2], [3, 3]],
  4: [[1, 1], [3, 1], [1, 3], [3, 3]], 5: [[1, 1], [3, 1], [2, 2], [1, 3], [3, 3]],
  6: [[1, 1], [3, 1], [1, 2], [3, 2], [1, 3], [3, 3]] };
const SVG = "http://www.w3.org/2000/svg";

export function svg(tag, attrs = {}, parent = null) {
  const el = document.createElementNS(SVG, tag);
  for (const [k, v] of Object.entries(attrs)) el.setAttribute(k, v);
  if (parent) parent.appendChild(el);
  return el;
}

export function die(face, cls = "") {
  const el = svg("svg", { viewBox: "0 0 40 40", class: `die ${cls}`.trim(), role: "img",
                          "aria-label": face ? `${face}${cls.includes("kept") ? " (kept)" : ""}` : "empty" });
  svg("rect", { x: 2, y: 2, width: 36, height: 36, rx: 7 }, el);
  for (const [x, y] of face ? PIPS[face] : []) svg("circle", { cx: x * 9 + 2, cy: y * 9 + 2, r: 3.6 }, el);
  return el;
}

export function dieButton(face, cls, label, onTap) {
  const button = document.createElement("button");
  button.type = "button";
  button.className = "die-button" + (cls.includes("selected") ? " selected" : "");
  button.appendChild(die(face, cls.replace("selected", "").trim()));
  button.setAttribute("aria-label", label);
  button.addEventListener("click", act(onTap));
  return button;
}

// The Yahtzee advisor page: a game at a real table, advised move by move.
// Every number shown comes from the server's API (docs/web.md); the page's modules keep
// the game (state.js, records.js) and draw it (board.js, options.js, chase.js,
// charts_panel.js); this one wires the page's controls to them.

import { markScrollers, setView } from "./board.js";
import { drawCharts } from "./charts_panel.js";
import { stopChase } from "./chase.js";
import { die } from "./dice.js";
import {
  addPlayerField, removePlayerField, show, showSetup, startGame, undo, upload,
} from "./game.js";
import { drawOptions, whyFigures } from "./options.js";
import { addFace, askWhy, choose, removeFace, scoreBox, submitTyped, tapDie } from "./playing.js";
import { initPractice } from "./practice.js";
import { checkSaved } from "./records.js";
import { analyzeGame, closeAnalysis, download, leavePractice, openPractice } from "./review.js";
import { staticSite } from "./site.js";
import {
  $, act, advice, api, load, on, phase, setDefaultRules, setLocal, setRuleSets, setRules,
  setShowAll, setState, showAll, state,
} from "./state.js";

Object.assign(on, { tapDie, choose, scoreBox, askWhy });

async function onKey(event) {
  const tag = (event.target.tagName || "").toLowerCase();
  if (["input", "select", "textarea"].includes(tag) || event.ctrlKey || event.metaKey || event.altKey) return;
  if (!state || $("game").hidden) return;
  if (/^[1-6]$/.test(event.key)) { event.preventDefault(); return addFace(Number(event.key)); }
  if (event.key === "Backspace") { event.preventDefault(); return removeFace(); }
  if (event.key === "u" || event.key === "U") { event.preventDefault(); return undo(); }
  if (event.key === "Enter" && tag !== "button" && tag !== "summary" && advice && phase() === "choose") {
    event.preventDefault();
    return choose(advice.options[0]);
  }
  return undefined;
}

async function init() {
  // a touch screen gets no keyboard help (style.css), whatever pointer it also reports
  if (navigator.maxTouchPoints > 0 || matchMedia("(any-pointer: coarse)").matches) {
    document.documentElement.classList.add("touch");
  }
  // what scrolls into view stops below the sticky totals bar, however tall it wraps
  const scores = $("scores");
  new ResizeObserver(() => document.documentElement.style.setProperty("--scores-height",
    `${scores.offsetHeight ? scores.offsetHeight + 8 : 0}px`)).observe(scores);
  for (const button of document.querySelectorAll(".face[data-face]")) {
    const face = Number(button.dataset.face);
    button.appendChild(die(face));
    button.addEventListener("click", act(() => addFace(face)));
  }
  $("backspace").addEventListener("click", act(removeFace));
  $("typed-form").addEventListener("submit", act(submitTyped));
  $("undo").addEventListener("click", act(undo));
  $("new-game").addEventListener("click", () => { showSetup(); });
  $("again").addEventListener("click", () => { showSetup(); });
  $("download").addEventListener("click", download);
  $("upload").addEventListener("click", () => $("upload-file").click());
  $("upload-file").addEventListener("change", act(async () => {
    const file = $("upload-file").files[0];
    $("upload-file").value = "";
    if (file) await upload(file);
  }));
  $("analyze").addEventListener("click", act(analyzeGame));
  $("view-game").addEventListener("click", act(async () => {
    if (!$("analysis").hidden) await closeAnalysis();
    else if (!$("practice").hidden) await leavePractice();
  }));
  $("view-practice").addEventListener("click", act(openPractice));
  initPractice({ $, api, act, die, whyFigures, setView, leave: leavePractice });
  window.addEventListener("resize", markScrollers);
  $("analysis-all").addEventListener("toggle", markScrollers);
  $("close-analysis").addEventListener("click", act(closeAnalysis));
  $("more-options").addEventListener("click", () => { setShowAll(!showAll); drawOptions(); });
  $("add-player").addEventListener("click", () => addPlayerField());
  $("remove-player").addEventListener("click", removePlayerField);
  $("setup-form").addEventListener("submit", act(startGame));
  $("charts-box").addEventListener("toggle", act(drawCharts));
  document.addEventListener("keydown", act(onKey));
  setLocal(await staticSite());
  load();
  const info = await api("/api/rules");
  setRuleSets(info.rule_sets);
  setDefaultRules(info.name);
  const select = $("rules-select");
  for (const r of info.rule_sets) {
    const option = document.createElement("option");
    option.value = r.name;
    option.textContent = r.name;
    option.title = r.summary;
    select.appendChild(option);
  }
  const kinds = info.objectives || ["ev"];
  $("objective-field").hidden = kinds.length < 2;
  for (const option of $("objective-select").options) option.hidden = !kinds.includes(option.value);
  $("objective-select").addEventListener("change", () => {
    for (const el of document.querySelectorAll("[data-objective]")) el.hidden = el.dataset.objective !== $("objective-select").value;
  });
  // the chance to win from the first turn (the default), or from N open boxes on
  const first = (info.win_from || 15) >= Number($("win-from-input").max);
  $("win-from-when").value = first ? "first" : "late";
  $("win-from-count").hidden = first;
  $("win-from-input").value = String(first ? 4 : info.win_from);
  $("win-from-when").addEventListener("change", () => {
    $("win-from-count").hidden = $("win-from-when").value === "first";
  });
  $("chase-stop").addEventListener("click", stopChase);
  if (state) await checkSaved();
  select.value = state ? state.rules : info.name;
  if (state) { await show(); } else { setRules(info); showSetup(); }
}

act(init)().catch((e) => {
  const main = $("main");
  const p = document.createElement("p");
  p.className = "error";
  p.setAttribute("role", "alert");
  p.textContent = `The saved game could not be shown (${e.message}); start a new one.`;
  main.prepend(p);
  setState(null);
  showSetup();
});

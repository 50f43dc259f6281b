// The choices of the roll showing: their list, ranked, and the detail of the dice held or
// of the choice whose "why" was asked (what it leads to).

import { heldKeep, syncRoll } from "./board.js";
import { objectiveOf } from "./objective.js";
import { pct } from "./percent.js";
import {
  $, SHOWN_OPTIONS, act, advice, isOver, on, phase, rollsLeft, rules, setWhyFor, showAll, state,
  whyAdvice, whyFor, whyPending,
} from "./state.js";
import { chanceText, describe, ordinal, phrase } from "./words.js";

// What the list shown is ranked by: the advice's objective (the expected score until the
// turn's solve is done), or the game's when the server described it (its words, heading).
function rankedBy() {
  const ranked = objectiveOf(advice && advice.objective);
  const playing = objectiveOf(state.objective);
  return ranked.solvesTurns && playing.info ? playing : ranked;
}

// The option whose figures a row shows: choice, chance (under an objective), expected final
// score and loss; the same cells in the list and in the detail of the dice held.
function optionCells(option) {
  const what = document.createElement("span");
  what.className = option.action === "keep" ? "what keep" : "what";
  what.textContent = describe(option);
  if (option.action === "score") {  // "Score " (left out on a phone: the box names say it)
    const verb = document.createElement("span");
    verb.className = "verb";
    verb.textContent = "Score ";
    what.prepend(verb);
  }
  const chance = document.createElement("span");
  chance.className = "num chance";
  const ranked = rankedBy();
  const p = ranked.chanceOf(option);
  const digits = p === undefined ? 2 : ranked.lossDecimals;
  chance.textContent = p === undefined ? "" : chanceText(p, digits);
  if (p !== undefined && ranked.chanceTitle) chance.title = ranked.chanceTitle;
  const ev = document.createElement("span");
  ev.className = "num ev";
  ev.textContent = option.expected_final.toFixed(2);
  ev.dataset.value = String(option.expected_final);
  const loss = document.createElement("span");
  loss.className = "num loss";
  // ranked by a chance, the loss is in percentage points of it (the expected final beside)
  const lost = p === undefined ? option.loss : 100 * (option.p_loss ?? 0);
  const unit = p === undefined ? "" : " pp";
  // a loss is a positive figure under the "loss" heading, as `advise` prints it
  loss.textContent = lost > 0 ? `${lost.toFixed(digits)}${unit}` : "best";
  const label = `${what.textContent}: ` + (p === undefined ? "" : `chance ${chance.textContent}, `) +
    `expected final ${ev.textContent}, ` + (lost > 0 ? `loses ${lost.toFixed(digits)}` +
    (p === undefined ? "" : " percentage points") : "the best choice");
  return { cells: [what, chance, ev, loss], label };
}

// The detail area: what keeping the dice held is worth, exactly as `advise` ranks it, or
// what the option whose "why" was tapped leads to.
export function drawHold() {
  const detail = $("option-detail");
  detail.replaceChildren();
  const asked = whyFor !== null && advice && !isOver() && phase() === "choose";
  const show = !isOver() && phase() === "choose" && advice && (rollsLeft() > 0 || asked);
  detail.hidden = !show;
  if (!show) return;
  syncRoll();
  if (asked) { drawWhyOf(detail); return; }
  const keep = heldKeep();
  const say = (text) => {
    const p = document.createElement("p");
    p.className = "hint";
    p.textContent = text;
    detail.appendChild(p);
  };
  if (!keep.length) {
    say("Hold dice by tapping them: what keeping them is worth shows here.");
    return;
  }
  if (keep.length === 5) {
    say("Holding all five dice ends the rolling: score a box (below, or on the card).");
    return;
  }
  const rank = advice.options.findIndex((o) => o.action === "keep" && o.keep.join("") === keep.join(""));
  if (rank < 0) {
    say(`Keep ${keep.join(" ")} is not among the choices of this roll.`);
    return;
  }
  const option = advice.options[rank];
  const row = detailRow(option, rank, "Held");
  const meta = document.createElement("p");
  meta.className = "hint rank";
  meta.textContent = rank === 0 ? `Held: the best of ${advice.options.length} choices.`
    : `Held: the ${ordinal(rank + 1)} of ${advice.options.length} choices.`;
  const go = document.createElement("button");
  go.type = "button";
  go.id = "keep-held";
  go.className = rank === 0 ? "primary" : "";
  const n = 5 - keep.length;
  go.textContent = `Keep ${keep.join(" ")}, reroll ${n} ${n === 1 ? "die" : "dice"}`;
  go.addEventListener("click", act(() => on.choose(option)));
  detail.append(row, meta, whyBlock(optionKey(option)), go);
}

// The row of one option in the detail area: its cells, as in the list.
function detailRow(option, rank, what) {
  const row = document.createElement("div");
  row.className = "held-row" + (rank === 0 ? " best" : "");
  const { cells, label } = optionCells(option);
  row.append(...cells);
  row.setAttribute("aria-label", `${what}: ${label}`);
  return row;
}

export const optionKey = (o) => (o.action === "keep" ? `keep ${o.keep.join("")}` : `score ${o.box}`);

// What an option leads to: the boxes of this turn, the bonuses at the end, the spread.
export function whyFigures(outcome, labelOf, strategy, objective, mean) {
  const box = document.createElement("div");
  box.className = "why";
  if (!outcome) {  // a static site: no per-state figures (local.js)
    const p = document.createElement("p");
    p.textContent = `${mean === undefined ? "" : `${mean.toFixed(2)} expected final score. `}`
      + "What it leads to (boxes, bonuses, spread) needs yahtzee serve.";
    box.appendChild(p);
    return box;
  }
  const turn = document.createElement("p");
  // each box filled with points ("Large Straight") and with 0 ("0 in Large Straight"): they add up to 1
  const zeros = outcome.zeros || {};
  const likely = Object.entries(outcome.boxes).flatMap(([b, p]) => {
    const z = Math.min(zeros[b] || 0, p);
    return [[labelOf(b), p - z], [`0 in ${labelOf(b)}`, z]];
  }).filter(([, p]) => p > 5e-5).sort((a, b) => b[1] - a[1]);
  const shown = likely.slice(0, 4).map(([what, p]) => `${what} ${pct(p)}`);
  const rest = likely.slice(4).reduce((t, [, p]) => t + p, 0);
  if (rest > 0) shown.push(`other boxes ${pct(rest)}`);
  turn.innerHTML = "<b>This turn:</b> ";
  turn.append(shown.join(", "));
  const end = document.createElement("p");
  end.innerHTML = "<b>By the end:</b> ";
  end.append(`upper bonus ${pct(outcome.upper_bonus)} · 50 in the Yahtzee box ` +
    `${pct(outcome.yahtzee_50)} · Yahtzee bonuses ${outcome.yahtzee_bonuses.toFixed(2)}`);
  const spread = document.createElement("p");
  spread.innerHTML = "<b>Final score:</b> ";
  spread.append(`${mean === undefined ? "" : `${mean.toFixed(2)} on average, `}give or take ` +
    `${outcome.sd.toFixed(1)} points (SD)`);
  box.append(turn, end, spread);
  if (objective && objectiveOf(objective).solvesTurns && (!strategy || !objectiveOf(strategy).solvesTurns)) {
    const note = document.createElement("p");
    note.className = "hint";
    note.textContent = "These figures follow play for the highest average score from then on.";
    box.appendChild(note);
  }
  return box;
}

// The outcome of one option (key), or a note while it is being worked out.
function whyBlock(key) {
  const option = whyAdvice && whyAdvice.options.find((o) => optionKey(o) === key);
  if (option && option.outcome) {
    return whyFigures(option.outcome, (b) => rules.boxes.find((x) => x.name === b).label,
      whyAdvice.outcome_strategy, state.objective, option.expected_final);
  }
  const p = document.createElement("p");
  p.className = "hint why-wait";
  p.textContent = whyPending ? "Working out what it leads to (the server's first time: about half a minute)…"
    : "";
  return p;
}

function drawWhyOf(detail) {
  const option = advice.options.find((o) => optionKey(o) === whyFor);
  if (!option) { setWhyFor(null); drawHold(); return; }
  const rank = advice.options.indexOf(option);
  const row = detailRow(option, rank, "Why");
  const meta = document.createElement("p");
  meta.className = "hint rank";
  meta.textContent = `${rank === 0 ? "The best" : `The ${ordinal(rank + 1)}`} of ${advice.options.length} ` +
    "choices. With the best play from then on it leads to:";
  const go = document.createElement("button");
  go.type = "button";
  go.id = "take-why";
  go.className = rank === 0 ? "primary" : "";
  go.textContent = option.action === "keep" ? (option.keep.length ? `Keep ${option.keep.join(" ")}` : "Reroll all")
    : `Score ${describe(option)}`;
  go.addEventListener("click", act(() => on.choose(option)));
  const close = document.createElement("button");
  close.type = "button";
  close.className = "link";
  close.textContent = "Close";
  close.addEventListener("click", () => { setWhyFor(null); drawHold(); drawOptions(); });
  detail.append(row, meta, whyBlock(whyFor), go, close);
}

export function drawOptions() {
  const show = !isOver() && phase() === "choose" && advice;
  $("advice").hidden = !show;
  if (!show) return;
  const list = $("options");
  list.replaceChildren();
  const ranked = rankedBy();
  $("advice").classList.toggle("with-chance", ranked.solvesTurns);
  // a big tournament's figures have more decimals (0.0047%, 0.0020 pp): smaller, to fit
  $("advice").classList.toggle("long-figures", ranked.solvesTurns && ranked.lossDecimals > 2);
  $("advice").querySelector(".options-head .chance").textContent = ranked.header;
  // ranked by expected score while the game's objective is being worked out: said so
  $("advice-title").textContent = ranked.solvesTurns || !objectiveOf(state.objective).solvesTurns
    ? ranked.adviceTitle : "Your choices, by expected final score";
  syncRoll();
  const keep = rollsLeft() > 0 ? heldKeep().join("") : null;
  const options = showAll ? advice.options : advice.options.slice(0, SHOWN_OPTIONS);
  for (const option of options) {
    const li = document.createElement("li");
    if (keep && option.action === "keep" && option.keep.join("") === keep) li.className = "held";
    if (whyFor === optionKey(option)) li.classList.add("asked");
    const button = document.createElement("button");
    button.type = "button";
    button.className = "take";
    const { cells, label } = optionCells(option);
    button.append(...cells);
    button.setAttribute("aria-label", label);
    button.addEventListener("click", act(() => on.choose(option)));
    const why = document.createElement("button");
    why.type = "button";
    why.className = "why-button";
    why.textContent = "?";
    why.title = "What it leads to";
    why.setAttribute("aria-label", `Why: what ${phrase(option)} leads to`);
    why.addEventListener("click", act(() => on.askWhy(option)));
    li.append(button, why);
    list.appendChild(li);
  }
  const more = $("more-options");
  const hidden = advice.options.length - SHOWN_OPTIONS;
  more.hidden = hidden <= 0;
  more.textContent = showAll ? "Show fewer choices" : `Show all ${advice.options.length} choices`;
}

// The game's board drawn from the state: the totals, the turn, the dice being entered or
// held, the scorecard; the page's messages, its views and its wide tables. What a tap
// does is the move's (playing.js), reached through state.on.

import { die, dieButton } from "./dice.js";
import {
  $, act, advice, api, cardInfo, digits, entering, held, isOver, keepBefore, keptFaces, lastRoll,
  nBoxes, on, phase, player, rollFaces, rollsLeft, rules, selected, setHeld, setRollFaces,
  setSelected, sorted, state, total, undoStack,
} from "./state.js";

export function toolState() {
  $("undo").disabled = !undoStack.length;
  $("download").disabled = $("analyze").disabled = !state;
}

export function rollError(message) {
  const el = $("roll-error");
  el.textContent = message || "";
  el.hidden = !message;
}

// The totals and who leads, at the top of the game (sticky on a phone).
export function drawScores() {
  const strip = $("scores");
  strip.replaceChildren();
  const totals = state.players.map((p) => [p, total(p)]);
  const over = isOver();
  for (const [name, points] of totals) {
    const chip = document.createElement("span");
    chip.className = "score" + (!over && name === player() ? " current" : "");
    const who = document.createElement("span");
    who.className = "who";
    who.textContent = name;
    const figure = document.createElement("b");
    figure.textContent = String(points);
    chip.append(who, " ", figure);
    strip.appendChild(chip);
  }
  if (totals.length < 2) return;
  const ranked = [...totals].sort((a, b) => b[1] - a[1]);
  const lead = document.createElement("span");
  lead.className = "lead";
  const margin = ranked[0][1] - ranked[1][1];
  const tied = ranked.filter(([, t]) => t === ranked[0][1]).map(([p]) => p);
  if (ranked[0][1] === 0) return;   // nothing scored yet
  lead.textContent = margin > 0 ? `${ranked[0][0]} ${over ? "won" : "leads"} by ${margin}`
    : tied.length === totals.length ? (over ? "a tie" : "level") : `${tied.join(" and ")} ${over ? "tied" : "level"} first`;
  strip.appendChild(lead);
}

export function drawNote() {
  const note = state.note;
  const el = $("cost-note");
  el.hidden = !note;
  el.textContent = note ? (state.players.length > 1 ? `${note.player}: ${note.text}`
    : note.text.charAt(0).toUpperCase() + note.text.slice(1)) : "";
}

export function drawTurn() {
  const over = isOver();
  const many = state.players.length > 1;
  const round = Math.floor(state.turns.length / state.players.length) + 1;
  $("turn-title").textContent = over ? "Game over"
    : many ? `${player()} · turn ${round} of ${nBoxes()}` : `Turn ${round} of ${nBoxes()}`;
  $("rolls-left").textContent = over ? "" : String(rollsLeft());
  $("rolls-word").textContent = over ? "" : (rollsLeft() === 1 ? "roll left" : "rolls left");
  $("game-over").hidden = !over;
  if (over) {
    const totals = state.players.map((p) => [p, total(p)]);
    const best = Math.max(...totals.map(([, t]) => t ?? -1));
    const winners = totals.filter(([, t]) => t === best).map(([p]) => p);
    $("winner").textContent = state.players.length === 1 ? `Final score: ${best}`
      : winners.length > 1 ? `A tie: ${winners.join(" and ")} with ${best}` : `${winners[0]} wins with ${best}`;
    const standings = $("standings");
    standings.replaceChildren();
    if (state.players.length > 1) {
      for (const [name, points] of [...totals].sort((a, b) => b[1] - a[1])) {
        const li = document.createElement("li");
        li.textContent = `${name}: ${points}`;
        standings.appendChild(li);
      }
    }
  }
}

// rollFaces and held for the roll showing: its dice sorted, the dice of the keep it was
// rolled after still held (as a dice app keeps them), unless already drawn.
export function syncRoll() {
  if (rollFaces && sorted(rollFaces).join("") === lastRoll()) return;
  setRollFaces(digits(lastRoll()));
  setHeld(rollFaces.map(() => false));
  for (const f of keepBefore()) {
    const i = rollFaces.findIndex((g, j) => g === f && !held[j]);
    if (i >= 0) held[i] = true;
  }
  setSelected(-1);
}

export function drawEntry() {
  const box = $("dice");
  box.replaceChildren();
  const over = isOver();
  const rolling = !over && phase() === "roll";
  $("entry").hidden = over;
  for (const el of document.querySelectorAll(".faces button, #typed-form input, #typed-form button")) {
    el.disabled = over;
  }
  if (over) return;
  const hint = $("entry-hint");
  const many = state.players.length > 1;
  if (rolling) {
    const kept = keptFaces();
    for (const f of kept) box.appendChild(die(f, "kept"));
    entering.forEach((f, i) => box.appendChild(dieButton(f, i === selected ? "selected" : "",
      `${f}${i === selected ? " (to change: tap its right face)" : ""}`, () => on.tapDie(i))));
    for (let i = kept.length + entering.length; i < 5; i++) box.appendChild(die(0, "empty"));
    const first = state.current.rolls.length === 0;
    const n = 5 - kept.length;
    hint.textContent = selected >= 0 ? `Tap the right face for the ringed ${entering[selected]}, or ⌫ to remove it.`
      : first ? `${many ? `${player()}: r` : "R"}oll all five dice, then tap their faces or type them.`
        : kept.length ? `Kept ${kept.join(" ")}: reroll ${n} ${n === 1 ? "die" : "dice"} and enter ${n === 1 ? "it" : "them"}.`
          : "Reroll all five dice and enter them.";
    if (!first || entering.length) hint.textContent += entering.length && selected < 0 ? " Tap a die to change it." : "";
    $("typed").placeholder = "or type the dice, e.g. 22256";
    for (const b of document.querySelectorAll(".face[data-face]")) {
      b.setAttribute("aria-label", selected >= 0 ? `Change the ringed die to a ${b.dataset.face}` : `Add a ${b.dataset.face}`);
    }
  } else {
    syncRoll();
    const canHold = rollsLeft() > 0;
    // no ring on the die tapped last: a tap here is mostly a hold; a face tapped next
    // changes that die (the hint says so), which is then seen at once
    rollFaces.forEach((f, i) => {
      const b = dieButton(f, held[i] ? "held" : "", `${f}${held[i] ? ", held" : ""}`, () => on.tapDie(i));
      if (canHold) b.setAttribute("aria-pressed", held[i] ? "true" : "false");
      box.appendChild(b);
    });
    hint.textContent = canHold ? "Tap dice to hold them. A wrong die? Tap it, then its right face below."
      : "No rolls left: choose a box. A wrong die? Tap it, then its right face.";
    $("typed").placeholder = "or retype the dice";
    for (const b of document.querySelectorAll(".face[data-face]")) {
      b.setAttribute("aria-label", `Change the die tapped last to a ${b.dataset.face}`);
    }
  }
  box.setAttribute("aria-label", `Dice: ${[...box.children].map((c) => c.getAttribute("aria-label")
    || c.querySelector("svg").getAttribute("aria-label")).join(", ")}`);
}

export const heldKeep = () => sorted(rollFaces.filter((_, i) => held[i]));

export async function cardOf(name) {
  const key = `${state.rules}|${state.cards[name]}`;
  if (!cardInfo.has(key)) cardInfo.set(key, await api("/api/card", { rules: state.rules, card: state.cards[name] }));
  return cardInfo.get(key);
}

export async function drawCard() {
  const infos = await Promise.all(state.players.map(cardOf));
  const table = $("card");
  table.replaceChildren();
  const current = isOver() ? -1 : state.players.indexOf(player());
  const head = table.createTHead().insertRow();
  const corner = document.createElement("th");
  corner.textContent = "Box";
  head.appendChild(corner);
  state.players.forEach((p, i) => {
    const th = document.createElement("th");
    th.scope = "col";
    th.textContent = p;
    if (i === current) th.className = "current";
    head.appendChild(th);
  });
  const body = table.createTBody();
  const choices = new Map();
  if (advice && phase() === "choose" && !isOver()) {
    advice.options.forEach((o, rank) => { if (o.action === "score") choices.set(o.box, { ...o, rank }); });
  }
  const row = (label, cls, cell) => {
    const tr = body.insertRow();
    if (cls) tr.className = cls;
    const th = document.createElement("th");
    th.scope = "row";
    th.textContent = label;
    tr.appendChild(th);
    infos.forEach((info, i) => {
      const td = tr.insertCell();
      if (i === current) td.className = "current";
      cell(td, info, i);
    });
  };
  for (const box of rules.boxes) {
    row(box.label, "", (td, info, i) => {
      const points = info.entries[box.name];
      if (points !== undefined) { td.textContent = String(points); return; }
      const choice = i === current ? choices.get(box.name) : undefined;
      if (!choice) return;
      const b = document.createElement("button");
      b.type = "button";
      b.textContent = choice.bonus ? `${choice.points}+${choice.bonus}` : String(choice.points);
      b.className = choice.rank === 0 ? "best" : "";
      b.setAttribute("aria-label", `Score ${box.label} ${choice.points}` +
        (choice.bonus ? ` plus ${choice.bonus} bonus` : "") + `, expected final ${choice.expected_final.toFixed(2)}`);
      b.addEventListener("click", act(() => on.scoreBox(box.name)));
      td.appendChild(b);
    });
    if (box.upper && box === rules.boxes.filter((b) => b.upper).at(-1)) {
      row("Upper subtotal", "sub", (td, info) => { td.textContent = `${info.upper_subtotal} / ${rules.upper_target}`; });
      row(`Bonus (${rules.upper_bonus})`, "sub", (td, info) => {
        const upperOpen = rules.boxes.some((b) => b.upper && info.entries[b.name] === undefined);
        td.textContent = info.upper_bonus ? String(info.upper_bonus)
          : upperOpen ? `needs ${info.upper_needed}` : "0";
      });
    }
  }
  if (rules.yahtzee_bonus) {
    row("Yahtzee bonus", "sub", (td, info) => { td.textContent = String(info.yahtzee_bonus * rules.yahtzee_bonus); });
  }
  row("Total", "sum", (td, info) => { td.textContent = String(info.total); });
}

export function pageError(message) {
  const el = $("page-error");
  el.textContent = message || "";
  el.hidden = !message;
}

export function pageStatus(message) {
  const el = $("page-status");
  el.textContent = message || "";
  el.hidden = !message;
}

// The view switcher: the game, practice and the game's analysis.
export function setView(name) {
  $("view-game").setAttribute("aria-pressed", String(name === "game"));
  $("view-practice").setAttribute("aria-pressed", String(name === "practice"));
  $("analyze").setAttribute("aria-pressed", String(name === "analysis"));
  $("practice").hidden = name !== "practice";
}

// A table wider than its box scrolls sideways; say so above it (and the edge shadows show it).
export function markScrollers() {
  for (const box of document.querySelectorAll(".card-scroll")) {
    const note = box.previousElementSibling;
    const wide = box.offsetParent !== null && box.scrollWidth > box.clientWidth + 1;
    box.classList.toggle("overflows", wide);
    if (note && note.classList.contains("scroll-note")) note.hidden = !wide;
  }
}

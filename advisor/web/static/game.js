// The game shown: drawn whole after each step, a new game's form, undo, a record opened.

import {
  cardOf, drawCard, drawEntry, drawNote, drawScores, drawTurn, markScrollers, pageError, rollError,
  setView, toolState,
} from "./board.js";
import { drawCharts } from "./charts_panel.js";
import { fetchAdvice, watchChase } from "./chase.js";
import { drawHold, drawOptions } from "./options.js";
import { checkedState, gameFromRecord } from "./records.js";
import {
  $, advice, api, busy, freshTurnView, isOver, lastRoll, newGame, objectiveFromForm, phase, post,
  rollsLeft, rules, save, setAdvice, setRules, setState, setUndoStack, state, undoStack,
} from "./state.js";

export async function undo() {
  if (busy || !undoStack.length) return;
  const kept = undoStack.pop();
  let earlier;
  try {
    earlier = await checkedState(JSON.parse(kept));
  } catch (e) {
    undoStack.push(kept);
    pageError(`Undo: ${e.message}`);
    return;
  }
  if (!earlier) {  // an undo step the record checks refuse (edited): the steps stop here
    setUndoStack([]);
    pageError("The earlier steps of this game kept in the browser were refused by the record checks: undo stops here.");
  } else {
    setState(earlier);
    freshTurnView();
  }
  save();
  await show();
}

export function showSetup() {
  document.body.dataset.phase = "setup";
  $("game").hidden = true;
  $("analysis").hidden = true;
  $("practice").hidden = true;
  $("setup").hidden = false;
  toolState();
  const list = $("player-names");
  if (!list.children.length) { addPlayerField(); }
  list.querySelector("input").focus();
}

export function addPlayerField(name = "") {
  const list = $("player-names");
  if (list.children.length >= 8) return;
  const li = document.createElement("li");
  const input = document.createElement("input");
  input.name = "player";
  input.maxLength = 20;
  input.value = name;
  input.placeholder = `Player ${list.children.length + 1}`;
  input.setAttribute("aria-label", `Name of player ${list.children.length + 1}`);
  li.appendChild(input);
  list.appendChild(li);
  $("add-player").disabled = list.children.length >= 8;
  $("remove-player").disabled = list.children.length <= 1;
}

export function removePlayerField() {
  const list = $("player-names");
  if (list.children.length > 1) list.lastElementChild.remove();
  $("add-player").disabled = list.children.length >= 8;
  $("remove-player").disabled = list.children.length <= 1;
}

function playerNames() {
  const inputs = [...$("player-names").querySelectorAll("input")];
  const names = inputs.map((el) => (el.value.trim() || el.placeholder).replace(/\s+/g, " "));
  for (const name of names) {
    if (/[,:#]/.test(name)) throw new Error(`name "${name}": commas, colons and # are not allowed`);
  }
  const seen = new Set();
  for (const name of names) {
    if (seen.has(name.toLowerCase())) throw new Error(`two players are called "${name}"`);
    seen.add(name.toLowerCase());
  }
  return names;
}

export async function startGame(event) {
  event.preventDefault();
  const err = $("setup-error");
  err.hidden = true;
  try {
    const names = playerNames();
    setRules(await api("/api/rules", { rules: $("rules-select").value }));
    if (state) undoStack.push(JSON.stringify(state));
    setState(newGame(rules.name, names, await objectiveFromForm(rules.name)));
    freshTurnView();
    save();
    await show();
  } catch (e) {
    err.textContent = e.message;
    err.hidden = false;
  }
}

export async function show() {
  if (!state) { showSetup(); return; }
  if (!rules || rules.name !== state.rules) setRules(await api("/api/rules", { rules: state.rules }));
  $("setup").hidden = true;
  $("analysis").hidden = true;
  $("game").hidden = false;
  setView("game");
  toolState();
  if (!isOver() && phase() === "choose" && !advice) {
    try {
      await Promise.all(state.players.map(cardOf));
      setAdvice(await fetchAdvice(lastRoll(), rollsLeft()));
    } catch (e) { rollError(e.message); }
  }
  await Promise.all(state.players.map(cardOf));   // every card's figures, for the totals
  document.body.dataset.phase = isOver() ? "over" : phase();
  drawScores();
  drawTurn();
  drawNote();
  drawEntry();
  drawHold();
  drawOptions();
  await drawCard();
  markScrollers();
  drawCharts();
  watchChase();
}

export async function upload(file) {
  pageError("");
  try {
    const answer = await post("/api/record", await file.text());
    if (state) undoStack.push(JSON.stringify(state));
    setState({ ...gameFromRecord(answer), note: null });
    freshTurnView();
    save();
    $("analysis").hidden = true;
    await show();
  } catch (e) {
    pageError(`${file.name}: ${e.message}`);
  }
}

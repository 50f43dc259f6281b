// The page's game and what it keeps between a user's actions: the rule set shown, the
// game (a game record plus each player's card), its undo steps, the advice showing and
// the roll being entered; what asks the server (api, post) and what every module reads of
// the game (player, phase, rolls left, ...). Only this module assigns these variables:
// the others read them (live ES-module bindings) and change them through the setters.

import { objectiveOf, objectiveOfForm } from "./objective.js";
import { keep } from "./storage.js";

const STORE = "yahtzee-game-v1";
const MAX_UNDO = 400;
export const SHOWN_OPTIONS = 8;
export const $ = (id) => document.getElementById(id);

export let rules = null;          // /api/rules answer for the game's rule set
export let state = null;          // the game: see newGame()
export let undoStack = [];        // earlier states, as JSON text
export let advice = null;         // /api/advise answer for the roll showing (every option: top=0)
export let whyAdvice = null;      // the same with every option's outcome (why=1), once asked for
export let whyFor = null;         // the option whose outcome the detail shows (null: the dice held)
export let whyPending = null;     // the request of whyAdvice under way
export let entering = [];         // faces entered so far for the next roll, in the order tapped
export let rollFaces = null;      // the roll showing, in the order drawn (a corrected die keeps its place)
export let held = [];             // held[i]: die i of rollFaces is held (its keep is shown at once)
export let selected = -1;         // the die tapped last: a face tapped now replaces it
export let selectedWasHeld = false;
export let showAll = false;
export let busy = false;
export const cardInfo = new Map();   // rules|card text -> /api/card answer
export const dists = new Map();      // rules|card text -> /api/distribution answer

export class ApiError extends Error {}

// The game's variables are set here only (the other modules import these setters).
export function setAdvice(value) { advice = value; }
export function setBusy(value) { busy = value; }
export function setDefaultRules(value) { defaultRules = value; }
export function setEntering(value) { entering = value; }
export function setHeld(value) { held = value; }
export function setLocal(value) { local = value; }
export function setRollFaces(value) { rollFaces = value; }
export function setRuleSets(value) { ruleSets = value; }
export function setRules(value) { rules = value; }
export function setSelected(value) { selected = value; }
export function setSelectedWasHeld(value) { selectedWasHeld = value; }
export function setShowAll(value) { showAll = value; }
export function setState(value) { state = value; }
export function setUndoStack(value) { undoStack = value; }
export function setWhyAdvice(value) { whyAdvice = value; }
export function setWhyFor(value) { whyFor = value; }
export function setWhyPending(value) { whyPending = value; }

// What the drawing (board.js, options.js) calls when a die, a choice or a box is tapped:
// the moves of playing.js, which draw the board again, so they are set here by app.js
// rather than imported (no module imports one that imports it).
export const on = { tapDie: null, choose: null, scoreBox: null, askWhy: null };

// Every user action runs through act(): <body data-busy> is "1" while one is under way and
// <body data-phase> tells setup / roll / choose / over (the browser tests wait on them).
let pending = 0;
export function act(fn) {
  return async (...args) => {
    pending += 1;
    document.body.dataset.busy = "1";
    try { await fn(...args); } finally {
      pending -= 1;
      if (!pending) document.body.dataset.busy = "0";
    }
  };
}

// A static site (`yahtzee site`): its answers come from the page itself (local.js), and
// what needs `yahtzee serve` is said so (site.js); null when the server answers.
export let local = null;

export async function api(path, params = {}) {
  if (local) return local.get(path, Object.fromEntries(new URLSearchParams(params)));
  const res = await fetch(`${path}?${new URLSearchParams(params)}`);
  let body = null;
  try { body = await res.json(); } catch { body = null; }
  if (!res.ok) throw new ApiError(body && body.error ? body.error : `${res.status} ${res.statusText}`);
  return body;
}

// state.note: what the last choice cost, when it was not the best ({ player, text }).
export function newGame(rulesName, players, objective = { kind: "ev" }) {
  return { rules: rulesName, players, turns: [], cards: Object.fromEntries(players.map((p) => [p, ""])),
           current: { rolls: [], keeps: [] }, objective, note: null };
}

// The turn's drawing starts afresh (after a step that changes the roll or the phase).
export function freshTurnView() {
  advice = null;
  whyAdvice = null;
  whyFor = null;
  whyPending = null;
  entering = [];
  rollFaces = null;
  held = [];
  selected = -1;
}

// What the objective of the turn under way asks /api/advise and /api/jobs/turn for: a
// target, or beating the others (their cards now: one opponent, or the best of several),
// or null for the expected score (also before the win objective's "from N open boxes").
export function objectiveParams() {
  const others = state.players.filter((p) => p !== player()).map((p) => state.cards[p]);
  return objectiveOf(state.objective).params({ others, open: openBoxes(player()), winFrom: winFrom() });
}

// An objective whose fields carry data-param (the tournament's players) is checked and
// described by the server (GET /api/objective: the CLI's checks and messages; its key,
// column heading and words), kept in the game as { ...its JSON, params, info }.
export async function objectiveFromForm(rulesName) {
  const kind = $("objective-field").hidden ? "ev" : $("objective-select").value;
  const fields = document.querySelectorAll(`[data-objective="${kind}"] [data-param]`);
  if (fields.length) {
    const asked = Object.fromEntries([...fields].map((el) => [el.dataset.param, el.value.trim()]));
    const info = await api("/api/objective", { rules: rulesName, ...asked });
    return { ...info.objective, params: info.params, info };
  }
  return objectiveOfForm(kind, $);
}
export const winFrom = () => (state.objective && state.objective.from) || (rules && rules.win_from) || 15;
export const openBoxes = (p) => (cardInfo.get(`${state.rules}|${state.cards[p]}`) || { open: [] }).open.length;
const perTurn = () => rules.rolls_per_turn;
export const nBoxes = () => rules.boxes.length;
export const isOver = () => state.turns.length >= state.players.length * nBoxes();
export const player = () => state.players[state.turns.length % state.players.length];
export const phase = () => (state.current.rolls.length > state.current.keeps.length ? "choose" : "roll");
export const rollsLeft = () => perTurn() - state.current.rolls.length;
export const keptFaces = () => {
  const k = state.current.keeps;
  return phase() === "roll" && k.length ? digits(k[k.length - 1]) : [];
};
export const digits = (text) => [...text].map(Number);
export const sorted = (faces) => [...faces].sort((a, b) => a - b);
export const lastRoll = () => state.current.rolls[state.current.rolls.length - 1];
// The keep the roll showing was rolled after (choose phase): those dice cannot change.
export const keepBefore = () => {
  const { rolls, keeps } = state.current;
  return rolls.length >= 2 ? digits(keeps[rolls.length - 2]) : [];
};
export const total = (p) => (cardInfo.get(`${state.rules}|${state.cards[p]}`) || { total: 0 }).total;

// A full storage: the game goes on without saving, said once (storage.js).
export function save() {
  keep(STORE, JSON.stringify({ state, undo: undoStack.slice(-MAX_UNDO) }));
}

// A game state as saved (an undo step): its shape checked before it is kept; what it
// holds is checked by the record checks when it is shown again (checkedState).
const DICE_TEXT = /^[1-6]{5}$/;
const KEEP_TEXT = /^[1-6]{0,4}$/;
const isText = (x) => typeof x === "string";
const texts = (x, form) => Array.isArray(x) && x.every((t) => isText(t) && form.test(t));
function isSavedState(x) {
  if (!x || typeof x !== "object" || Array.isArray(x) || !isText(x.rules)) return false;
  if (!Array.isArray(x.players) || !x.players.length || !x.players.every(isText)) return false;
  if (!x.cards || typeof x.cards !== "object" || !x.players.every((p) => Object.hasOwn(x.cards, p) && isText(x.cards[p]))) return false;
  if (!Array.isArray(x.turns) || !x.turns.every((t) => t && isText(t.player) && texts(t.rolls, DICE_TEXT)
      && texts(t.keeps, KEEP_TEXT) && isText(t.box))) return false;
  const c = x.current;
  return Boolean(c) && texts(c.rolls, DICE_TEXT) && texts(c.keeps, KEEP_TEXT)
    && (x.objective === undefined || (Boolean(x.objective) && typeof x.objective === "object"));
}
const isSavedStep = (text) => {
  try { return isText(text) && isSavedState(JSON.parse(text)); } catch { return false; }
};

export function load() {
  try {
    const saved = JSON.parse(localStorage.getItem(STORE) || "null");
    if (saved && saved.state && Array.isArray(saved.state.players)) {
      state = saved.state;
      undoStack = Array.isArray(saved.undo) ? saved.undo.filter(isSavedStep) : [];  // checked steps only
    }
  } catch { state = null; }
}

export function step(change) {
  undoStack.push(JSON.stringify(state));
  change();
  save();
}

export async function post(path, body) {
  if (local) return local.post(path, body);
  const res = await fetch(path, { method: "POST", body, headers: { "Content-Type": "text/plain" } });
  let answer = null;
  try { answer = await res.json(); } catch { answer = null; }
  if (!res.ok) throw new ApiError(answer && answer.error ? answer.error : `${res.status} ${res.statusText}`);
  return answer;
}

export let ruleSets = [];   // every rule set (/api/rules), for the practice form
export let defaultRules = "official";

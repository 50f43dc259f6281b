// The Yahtzee advisor page: a game at a real table, advised move by move.
// Every number shown comes from the server's API (docs/web.md); this file only keeps the
// game (a game record plus each player's card) and draws it.

import { drawDistribution, drawReach, drawWinChances } from "./charts.js";
import { fixed, pct } from "./percent.js";
import { initPractice, showPractice } from "./practice.js";
import { staticSite } from "./site.js";
import { keep } from "./storage.js";

const STORE = "yahtzee-game-v1";
const MAX_UNDO = 400;
const SHOWN_OPTIONS = 8;
const $ = (id) => document.getElementById(id);

let rules = null;          // /api/rules answer for the game's rule set
let state = null;          // the game: see newGame()
let undoStack = [];        // earlier states, as JSON text
let advice = null;         // /api/advise answer for the roll showing (every option: top=0)
let whyAdvice = null;      // the same with every option's outcome (why=1), once asked for
let whyFor = null;         // the option whose outcome the detail shows (null: the dice held)
let whyPending = null;     // the request of whyAdvice under way
let entering = [];         // faces entered so far for the next roll, in the order tapped
let rollFaces = null;      // the roll showing, in the order drawn (a corrected die keeps its place)
let held = [];             // held[i]: die i of rollFaces is held (its keep is shown at once)
let selected = -1;         // the die tapped last: a face tapped now replaces it
let selectedWasHeld = false;
let showAll = false;
let busy = false;
const cardInfo = new Map();   // rules|card text -> /api/card answer
const dists = new Map();      // rules|card text -> /api/distribution answer

class ApiError extends Error {}

// Every user action runs through act(): <body data-busy> is "1" while one is under way and
// <body data-phase> tells setup / roll / choose / over (the browser tests wait on them).
let pending = 0;
function act(fn) {
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
let local = null;

async function api(path, params = {}) {
  if (local) return local.get(path, Object.fromEntries(new URLSearchParams(params)));
  const res = await fetch(`${path}?${new URLSearchParams(params)}`);
  let body = null;
  try { body = await res.json(); } catch { body = null; }
  if (!res.ok) throw new ApiError(body && body.error ? body.error : `${res.status} ${res.statusText}`);
  return body;
}

// ------------------------------------------------------------------ game state
// state.note: what the last choice cost, when it was not the best ({ player, text }).
function newGame(rulesName, players, objective = { kind: "ev" }) {
  return { rules: rulesName, players, turns: [], cards: Object.fromEntries(players.map((p) => [p, ""])),
           current: { rolls: [], keeps: [] }, objective, note: null };
}

// The turn's drawing starts afresh (after a step that changes the roll or the phase).
function freshTurnView() {
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
function objectiveParams() {
  const objective = state.objective || { kind: "ev" };
  if (objective.params) return objective.params;   // an objective the server described
  if (objective.kind === "target") return { target: String(objective.target) };
  if (objective.kind === "win" && objective.opponent !== undefined) return { opponent: objective.opponent };
  if (objective.kind === "win" && objective.opponents !== undefined) return { opponents: objective.opponents.join(";") };
  if (objective.kind === "win") {
    const others = state.players.filter((p) => p !== player());
    if (!others.length || openBoxes(player()) > winFrom()) return null;
    if (others.length === 1) return { opponent: state.cards[others[0]] };
    return { opponents: others.map((p) => state.cards[p]).join(";") };
  }
  return null;
}

// An objective whose fields carry data-param (the tournament's players) is checked and
// described by the server (GET /api/objective: the CLI's checks and messages; its key,
// column heading and words), kept in the game as { ...its JSON, params, info }.
async function objectiveFromForm(rulesName) {
  const kind = $("objective-field").hidden ? "ev" : $("objective-select").value;
  const fields = document.querySelectorAll(`[data-objective="${kind}"] [data-param]`);
  if (fields.length) {
    const asked = Object.fromEntries([...fields].map((el) => [el.dataset.param, el.value.trim()]));
    const info = await api("/api/objective", { rules: rulesName, ...asked });
    return { ...info.objective, params: info.params, info };
  }
  if (kind === "target") {
    const target = Number($("target-input").value);
    if (!Number.isInteger(target) || target < 1) throw new Error("the score to reach is a whole number, 1 or more");
    return { kind, target };
  }
  if (kind === "win") {
    const input = $("win-from-input");
    if ($("win-from-when").value === "first") return { kind, from: Number(input.max) };
    const from = Number(input.value);
    if (!Number.isInteger(from) || from < 1 || from > Number(input.max)) {
      throw new Error(`the number of boxes open when the chance to win is worked out is 1 to ${input.max}`);
    }
    return { kind, from };
  }
  return { kind };
}
const winFrom = () => (state.objective && state.objective.from) || (rules && rules.win_from) || 15;
const openBoxes = (p) => (cardInfo.get(`${state.rules}|${state.cards[p]}`) || { open: [] }).open.length;
const perTurn = () => rules.rolls_per_turn;
const nBoxes = () => rules.boxes.length;
const isOver = () => state.turns.length >= state.players.length * nBoxes();
const player = () => state.players[state.turns.length % state.players.length];
const phase = () => (state.current.rolls.length > state.current.keeps.length ? "choose" : "roll");
const rollsLeft = () => perTurn() - state.current.rolls.length;
const keptFaces = () => {
  const k = state.current.keeps;
  return phase() === "roll" && k.length ? digits(k[k.length - 1]) : [];
};
const digits = (text) => [...text].map(Number);
const sorted = (faces) => [...faces].sort((a, b) => a - b);
const lastRoll = () => state.current.rolls[state.current.rolls.length - 1];
// The keep the roll showing was rolled after (choose phase): those dice cannot change.
const keepBefore = () => {
  const { rolls, keeps } = state.current;
  return rolls.length >= 2 ? digits(keeps[rolls.length - 2]) : [];
};
const total = (p) => (cardInfo.get(`${state.rules}|${state.cards[p]}`) || { total: 0 }).total;

// A full storage: the game goes on without saving, said once (storage.js).
function save() {
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

function load() {
  try {
    const saved = JSON.parse(localStorage.getItem(STORE) || "null");
    if (saved && saved.state && Array.isArray(saved.state.players)) {
      state = saved.state;
      undoStack = Array.isArray(saved.undo) ? saved.undo.filter(isSavedStep) : [];  // checked steps only
    }
  } catch { state = null; }
}

function step(change) {
  undoStack.push(JSON.stringify(state));
  change();
  save();
}

async function undo() {
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
    undoStack = [];
    pageError("The earlier steps of this game kept in the browser were refused by the record checks: undo stops here.");
  } else {
    state = earlier;
    freshTurnView();
  }
  save();
  await show();
}

// ------------------------------------------------------------------ dice drawing
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

function die(face, cls = "") {
  const el = svg("svg", { viewBox: "0 0 40 40", class: `die ${cls}`.trim(), role: "img",
                          "aria-label": face ? `${face}${cls.includes("kept") ? " (kept)" : ""}` : "empty" });
  svg("rect", { x: 2, y: 2, width: 36, height: 36, rx: 7 }, el);
  for (const [x, y] of face ? PIPS[face] : []) svg("circle", { cx: x * 9 + 2, cy: y * 9 + 2, r: 3.6 }, el);
  return el;
}

// ------------------------------------------------------------------ setup
function toolState() {
  $("undo").disabled = !undoStack.length;
  $("download").disabled = $("analyze").disabled = !state;
}

function showSetup() {
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

function addPlayerField(name = "") {
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

function removePlayerField() {
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

async function startGame(event) {
  event.preventDefault();
  const err = $("setup-error");
  err.hidden = true;
  try {
    const names = playerNames();
    rules = await api("/api/rules", { rules: $("rules-select").value });
    if (state) undoStack.push(JSON.stringify(state));
    state = newGame(rules.name, names, await objectiveFromForm(rules.name));
    freshTurnView();
    save();
    await show();
  } catch (e) {
    err.textContent = e.message;
    err.hidden = false;
  }
}

// ------------------------------------------------------------------ playing
function rollError(message) {
  const el = $("roll-error");
  el.textContent = message || "";
  el.hidden = !message;
}

// The advice for `diceText` just rolled, `rollsLeftAfter` rolls still to come; the one
// request behind every roll entered or corrected.
// Under a target or the win objective the advice is by expected score (at once) until
// the turn's background solve is done (see "playing for a target or to win" below).
function fetchAdvice(diceText, rollsLeftAfter, why = false) {
  return api("/api/advise", { rules: state.rules, card: state.cards[player()], dice: diceText,
    rolls_left: rollsLeftAfter, top: 0, ...(chaseReady() ? objectiveParams() : {}),
    ...(why ? { why: "1" } : {}) });
}

// A face tapped (or typed as a key): the next die of the roll being entered, or the new
// face of the die tapped last (a correction: nothing to undo).
async function addFace(face) {
  if (busy || !state || isOver()) return;
  rollError("");
  if (phase() === "choose") {
    if (selected < 0 || !rollFaces) {
      rollError("To change a die, tap it first, then its right face.");
      return;
    }
    const faces = [...rollFaces];
    faces[selected] = face;
    held[selected] = selectedWasHeld;
    selected = -1;
    await reviseRoll(faces.join(""), faces);
    return;
  }
  const room = 5 - keptFaces().length;
  if (selected >= 0 && selected < entering.length) {
    entering[selected] = face;
    selected = -1;
  } else if (entering.length < room) {
    entering.push(face);
  } else {
    return;
  }
  if (entering.length === room) {
    await submitRoll(sorted([...keptFaces(), ...entering]).join(""));
  } else {
    drawEntry();
  }
}

// Backspace: the die tapped last (else the last one) goes; a roll already advised is
// opened again with its other dice, as if the fifth had not been entered.
async function removeFace() {
  if (busy || !state || isOver()) return;
  rollError("");
  if (phase() === "roll") {
    if (!entering.length) return;
    if (selected >= 0 && selected < entering.length) entering.splice(selected, 1);
    else entering.pop();
    selected = -1;
    drawEntry();
    return;
  }
  syncRoll();
  const gone = selected >= 0 ? selected : rollFaces.length - 1;
  const rest = rollFaces.filter((_, i) => i !== gone);
  const kept = keepBefore();
  if (!contains(rest, kept)) {
    rollError(keptMessage(kept));
    return;
  }
  state.current.rolls.pop();
  const reopened = JSON.stringify(state);
  if (undoStack.length && undoStack[undoStack.length - 1] === reopened) undoStack.pop();
  save();
  freshTurnView();
  entering = without(rest, kept);
  await show();
}

function keptMessage(kept) {
  return `the dice must include the kept ${kept.join(" ")}; to change those, undo the keep`;
}

// A die tapped: in a roll being entered it is marked for a new face; in a roll advised it
// is held or let go (its keep's worth shows at once) and marked for a new face too.
function tapDie(i) {
  if (busy || !state || isOver()) return;
  rollError("");
  if (phase() === "roll") {
    selected = selected === i ? -1 : i;
    drawEntry();
    return;
  }
  selectedWasHeld = held[i];
  if (rollsLeft() > 0) held[i] = !held[i];
  selected = i;
  whyFor = null;
  drawEntry();
  drawHold();
  drawOptions();
  if (rollsLeft() > 0 && held.some(Boolean)) loadWhy();
  const dice = $("dice").querySelectorAll("button");
  if (dice[i]) dice[i].focus({ preventScroll: true });
}

async function submitTyped(event) {
  event.preventDefault();
  if (busy || !state || isOver()) return;
  const text = $("typed").value.trim();
  if (!text) return;
  if (phase() === "choose") {            // the roll typed again: a correction
    const faces = text.replace(/[\s,]+/g, "");
    if (await reviseRoll(/^[1-6]{5}$/.test(faces) ? faces : text,
      /^[1-6]{5}$/.test(faces) ? sorted(digits(faces)) : null)) $("typed").value = "";
    return;
  }
  const kept = keptFaces();
  let faces = text.replace(/[\s,]+/g, "");
  if (kept.length && /^[1-6]+$/.test(faces) && faces.length === 5 - kept.length) {
    faces = kept.join("") + faces;        // only the rerolled dice were typed
  } else if (/^[1-6]{5}$/.test(faces) && !contains(digits(faces), kept)) {
    rollError(`the dice ${sorted(digits(faces)).join("")} do not include the kept ` +
              `${kept.join(" ")}; type all five dice showing, or only the ${5 - kept.length} rerolled`);
    return;
  } else if (!/^[1-6]{5}$/.test(faces)) {
    faces = text;                         // the server says what is wrong with it
  }
  if (await submitRoll(faces)) $("typed").value = "";
}

function contains(faces, kept) {
  return without(faces, kept) !== null;
}

// `faces` less the dice of `kept` (a multiset difference), or null when some are missing.
function without(faces, kept) {
  const left = [...faces];
  for (const f of kept) {
    const i = left.indexOf(f);
    if (i < 0) return null;
    left.splice(i, 1);
  }
  return left;
}

async function submitRoll(diceText) {
  busy = true;
  try {
    const answer = await fetchAdvice(diceText, rollsLeft() - 1);
    step(() => state.current.rolls.push(answer.dice.join("")));
    freshTurnView();
    advice = answer;
    showAll = false;
    rollError("");
    busy = false;
    await show();
    return true;
  } catch (e) {
    entering = [];
    selected = -1;
    rollError(e.message);
    drawEntry();
    return false;
  } finally {
    busy = false;
  }
}

// The roll showing replaced by `diceText` (faces in the order drawn, or null: sorted),
// in place: the game does not gain a step, the advice is asked again.
async function reviseRoll(diceText, faces) {
  const kept = keepBefore();
  if (faces && !contains(faces, kept)) {
    rollError(keptMessage(kept));
    drawEntry();
    return false;
  }
  busy = true;
  try {
    const answer = await fetchAdvice(diceText, rollsLeft());
    const shown = faces || answer.dice;
    if (!contains(shown, kept)) throw new ApiError(keptMessage(kept));
    if (!faces) { rollFaces = null; held = []; }
    state.current.rolls[state.current.rolls.length - 1] = answer.dice.join("");
    save();
    advice = answer;
    whyAdvice = null;
    whyFor = null;
    whyPending = null;
    if (faces) rollFaces = faces;
    rollError("");
  } catch (e) {
    rollError(e.message);
    drawEntry();
    return false;
  } finally {
    busy = false;
  }
  await show();
  return true;
}

// "keep 2 2 2 3 costs 2.49 points on average (best: keep 2 2 2)", as the CLI says it; under
// a target or the win objective the cost is in percentage points of that chance.
function costNote(chosen) {
  const best = advice && advice.options[0];
  if (!best || chosen === best) return null;
  const objective = state.objective || { kind: "ev" };
  const key = objective.info ? objective.info.key
    : objective.kind === "target" ? "p_target" : objective.kind === "win" ? "win_share" : null;
  let text = null;
  if (key && best[key] !== undefined && chosen[key] !== undefined) {
    const lost = best[key] - chosen[key];
    if (lost <= 1e-12) return null;
    const what = objectiveWords(objective);
    text = `${phrase(chosen)} costs ${(100 * lost).toFixed(2)} percentage points of ${what} ` +
      `(${percent(best[key])} to ${percent(chosen[key])}; best: ${phrase(best)}; ` +
      `${chosen.loss.toFixed(2)} points on average)`;
  } else {
    if (chosen.loss <= 1e-9) return null;
    text = `${phrase(chosen)} costs ${chosen.loss.toFixed(2)} points on average (best: ${phrase(best)})`;
  }
  return { player: player(), text };
}

async function choose(option) {
  if (busy || phase() !== "choose") return;
  if (option.action === "keep") {
    const note = costNote(option);
    step(() => {
      state.current.keeps.push(option.keep.join(""));
      state.note = note;
    });
    freshTurnView();
    await show();
    showEntry();
    return;
  }
  await scoreBox(option.box);
}

// After a choice the page may be scrolled down to the list of choices: the turn's heading
// and its dice come back into view, below the sticky totals (html's scroll-padding-top).
function showEntry() {
  if ($("game").hidden || isOver() || phase() !== "roll") return;
  const bar = $("scores").getBoundingClientRect();
  const head = $("turn-title").getBoundingClientRect();
  const dice = $("dice").getBoundingClientRect();
  if (head.top < bar.bottom || dice.bottom > window.innerHeight) {
    $("turn-title").closest(".turn-head").scrollIntoView({ block: "start" });
  }
}

async function scoreBox(box) {
  if (busy || phase() !== "choose") return;
  busy = true;
  try {
    const option = advice && advice.options.find((o) => o.action === "score" && o.box === box);
    const note = option ? costNote(option) : null;
    const rolls = state.current.rolls;
    const after = await api("/api/place", { rules: state.rules, card: state.cards[player()],
      dice: rolls[rolls.length - 1], box });
    cardInfo.set(`${state.rules}|${after.text}`, after);
    const name = player();
    step(() => {
      state.turns.push({ player: name, rolls: [...rolls], keeps: [...state.current.keeps], box });
      state.cards[name] = after.text;
      state.current = { rolls: [], keeps: [] };
      state.note = note;
    });
    freshTurnView();
    rollError("");
  } catch (e) {
    rollError(e.message);
  } finally {
    busy = false;
  }
  await show();
  showEntry();
}

// ------------------------------------------------------------------ drawing
async function show() {
  if (!state) { showSetup(); return; }
  if (!rules || rules.name !== state.rules) rules = await api("/api/rules", { rules: state.rules });
  $("setup").hidden = true;
  $("analysis").hidden = true;
  $("game").hidden = false;
  setView("game");
  toolState();
  if (!isOver() && phase() === "choose" && !advice) {
    try {
      await Promise.all(state.players.map(cardOf));
      advice = await fetchAdvice(lastRoll(), rollsLeft());
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

// The totals and who leads, at the top of the game (sticky on a phone).
function drawScores() {
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

function drawNote() {
  const note = state.note;
  const el = $("cost-note");
  el.hidden = !note;
  el.textContent = note ? (state.players.length > 1 ? `${note.player}: ${note.text}`
    : note.text.charAt(0).toUpperCase() + note.text.slice(1)) : "";
}

function drawTurn() {
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
function syncRoll() {
  if (rollFaces && sorted(rollFaces).join("") === lastRoll()) return;
  rollFaces = digits(lastRoll());
  held = rollFaces.map(() => false);
  for (const f of keepBefore()) {
    const i = rollFaces.findIndex((g, j) => g === f && !held[j]);
    if (i >= 0) held[i] = true;
  }
  selected = -1;
}

function dieButton(face, cls, label, onTap) {
  const button = document.createElement("button");
  button.type = "button";
  button.className = "die-button" + (cls.includes("selected") ? " selected" : "");
  button.appendChild(die(face, cls.replace("selected", "").trim()));
  button.setAttribute("aria-label", label);
  button.addEventListener("click", act(onTap));
  return button;
}

function drawEntry() {
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
      `${f}${i === selected ? " (to change: tap its right face)" : ""}`, () => tapDie(i))));
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
      const b = dieButton(f, held[i] ? "held" : "", `${f}${held[i] ? ", held" : ""}`, () => tapDie(i));
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

const heldKeep = () => sorted(rollFaces.filter((_, i) => held[i]));
// How a win objective counts a tie: half a win against one opponent, 1/k among k players.
const tieShare = (objective) => objective.opponents ? "a tie of k players at the top counts 1/k"
  : "a tie counts as half";
// What the objective's figure is, in words: the server's for an objective it described.
const objectiveWords = (objective) => (objective.info ? objective.info.words
  : objective.kind === "win" ? "the chance to win" : `the chance of ${objective.target} or more`);

const ordinal = (n) => `${n}${n % 10 === 1 && n % 100 !== 11 ? "st" : n % 10 === 2 && n % 100 !== 12 ? "nd"
  : n % 10 === 3 && n % 100 !== 13 ? "rd" : "th"}`;

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
  const p = option.p_target ?? option.win_share;
  chance.textContent = p === undefined ? "" : percent(p);
  if (option.win_share !== undefined) chance.title = `chance to win (${tieShare((advice && advice.objective) || {})})`;
  if (p !== undefined && state.objective && state.objective.info) chance.title = `${state.objective.info.words} (a tie shared)`;
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
  loss.textContent = lost > 0 ? `${lost.toFixed(2)}${unit}` : "best";
  const label = `${what.textContent}: ` + (p === undefined ? "" : `chance ${chance.textContent}, `) +
    `expected final ${ev.textContent}, ` + (lost > 0 ? `loses ${lost.toFixed(2)}` +
    (p === undefined ? "" : " percentage points") : "the best choice");
  return { cells: [what, chance, ev, loss], label };
}

// The detail area: what keeping the dice held is worth, exactly as `advise` ranks it, or
// what the option whose "why" was tapped leads to.
function drawHold() {
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
  go.addEventListener("click", act(() => choose(option)));
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

// ------------------------------------------------------------------ the why of a choice
const optionKey = (o) => (o.action === "keep" ? `keep ${o.keep.join("")}` : `score ${o.box}`);

// The advice with every option's outcome, asked once per roll (the first time a server
// computes the figures of every state: about half a minute).
async function loadWhy() {
  if (whyAdvice || whyPending || !advice || local) return;  // (a static site has no why)
  const asked = advice;
  whyPending = fetchAdvice(lastRoll(), rollsLeft(), true);
  try {
    const answer = await whyPending;
    if (advice !== asked) return;     // the roll changed meanwhile
    whyAdvice = answer;
  } catch (e) {
    if (advice === asked) rollError(e.message);
  } finally {
    if (advice === asked) whyPending = null;
  }
  if (advice === asked) drawHold();
}

async function askWhy(option) {
  whyFor = optionKey(option);
  drawHold();
  drawOptions();
  await loadWhy();
  const detail = $("option-detail");
  if (!detail.hidden) detail.scrollIntoView({ block: "nearest" });
}


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
  if (objective && objective.kind !== "ev" && (!strategy || strategy.kind === "ev")) {
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
  if (!option) { whyFor = null; drawHold(); return; }
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
  go.addEventListener("click", act(() => choose(option)));
  const close = document.createElement("button");
  close.type = "button";
  close.className = "link";
  close.textContent = "Close";
  close.addEventListener("click", () => { whyFor = null; drawHold(); drawOptions(); });
  detail.append(row, meta, whyBlock(whyFor), go, close);
}

function describe(option) {
  if (option.action === "keep") return option.keep.length ? `Keep ${option.keep.join(" ")}` : "Reroll all";
  const label = rules.boxes.find((b) => b.name === option.box).label;
  return `${label} ${option.points}${option.bonus ? ` +${option.bonus} bonus` : ""}`;
}

// As the CLI words an option: "keep 2 2 2", "reroll all", "score Twos 6".
function phrase(option) {
  const text = describe(option);
  return option.action === "keep" ? text.charAt(0).toLowerCase() + text.slice(1) : `score ${text}`;
}

function drawOptions() {
  const show = !isOver() && phase() === "choose" && advice;
  $("advice").hidden = !show;
  if (!show) return;
  const list = $("options");
  list.replaceChildren();
  const objective = advice.objective || { kind: "ev" };   // what the list shown is ranked by
  $("advice").classList.toggle("with-chance", objective.kind !== "ev");
  const described = objective.kind !== "ev" && (state.objective || {}).info;
  $("advice").querySelector(".options-head .chance").textContent = described ? described.header : "chance";
  $("advice-title").textContent = described ? `Your choices, best ${described.words.replace(/^the /, "")} first`
    : objective.kind === "target" ? `Your choices, best chance of ${objective.target}+ first`
    : objective.kind === "win" ? `Your choices, best chance to win first (${tieShare(objective)})`
      : (state.objective || { kind: "ev" }).kind === "ev" ? "Your choices, best first"
        : "Your choices, by expected final score";
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
    button.addEventListener("click", act(() => choose(option)));
    const why = document.createElement("button");
    why.type = "button";
    why.className = "why-button";
    why.textContent = "?";
    why.title = "What it leads to";
    why.setAttribute("aria-label", `Why: what ${phrase(option)} leads to`);
    why.addEventListener("click", act(() => askWhy(option)));
    li.append(button, why);
    list.appendChild(li);
  }
  const more = $("more-options");
  const hidden = advice.options.length - SHOWN_OPTIONS;
  more.hidden = hidden <= 0;
  more.textContent = showAll ? "Show fewer choices" : `Show all ${advice.options.length} choices`;
}

async function cardOf(name) {
  const key = `${state.rules}|${state.cards[name]}`;
  if (!cardInfo.has(key)) cardInfo.set(key, await api("/api/card", { rules: state.rules, card: state.cards[name] }));
  return cardInfo.get(key);
}

async function drawCard() {
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
      b.addEventListener("click", act(() => scoreBox(box.name)));
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

// ------------------------------------------------------------------ playing for a target or to win
// A turn under a target or the win objective is solved in the background on the server
// (POST /api/jobs/turn; one solve answers every roll of the turn). Meanwhile the advice is
// by expected score and the player goes on as usual; #chase-status says what is worked
// out and how far it is, with a button to go on without it. When the solve is done the
// advice of the roll showing is asked again, ranked by the objective's chance. A turn
// left (a score, an undo past it) cancels its solve if it is still under way.
let chase = null;            // { key, id, state, done, total, seconds, what, error }
let chaseTimer = null;
let chaseGen = 0;            // each watch starts a generation; older polls stop
const stoppedTurns = new Set();   // turns whose player chose not to wait (expected score)
const POLL_MS = 700;

function chaseKey() {
  const params = objectiveParams();
  if (!state || isOver() || !params) return null;
  return JSON.stringify({ rules: state.rules, card: state.cards[player()], ...params });
}

function chaseReady() {
  const key = chaseKey();
  return key !== null && chase !== null && chase.key === key && chase.state === "done";
}

function setChaseAttr(value) { document.body.dataset.chase = value; }

async function watchChase() {
  const key = chaseKey();
  const gen = ++chaseGen;
  if (chase && chase.key !== key) {
    if (chase.state === "queued" || chase.state === "running") cancelJob(chase.id);
    chase = null;
  }
  clearTimeout(chaseTimer);
  if (chase && chase.state === "starting") return;   // the watch that asked carries on
  if (key === null || stoppedTurns.has(key)) {
    setChaseAttr(key === null ? "off" : "stopped");
    drawChase();
    return;
  }
  if (!chase) {
    chase = { key, id: null, state: "starting", done: 0, total: 0, seconds: 0, what: "" };
    drawChase();
    try {
      const body = await post(`/api/jobs/turn?${new URLSearchParams({ rules: state.rules,
        card: state.cards[player()], ...objectiveParams() })}`, "");
      if (!chase || chase.key !== key) { if (body.job.state !== "done") cancelJob(body.job.id); return; }
      Object.assign(chase, body.job, { chance: body.chance });
    } catch (e) {
      if (chase && chase.key === key) Object.assign(chase, { state: "failed", error: e.message });
    }
  }
  await followChase(key, chaseGen);
}

async function followChase(key, gen) {
  if (!chase || chase.key !== key || gen !== chaseGen) return;
  if (chase.state === "queued" || chase.state === "running") {
    setChaseAttr("waiting");
    drawChase();
    chaseTimer = setTimeout(async () => {
      if (!chase || chase.key !== key || gen !== chaseGen) return;
      try {
        const body = await api(`/api/jobs/${encodeURIComponent(chase.id)}`);
        if (chase && chase.key === key) Object.assign(chase, body.job, { chance: body.chance });
      } catch (e) {
        if (chase && chase.key === key) Object.assign(chase, { state: "failed", error: e.message });
      }
      await followChase(key, gen);
    }, POLL_MS);
    return;
  }
  if (chase.state === "done") {
    await adviseByObjective(key);
    return;
  }
  setChaseAttr(chase.state === "cancelled" ? "stopped" : "failed");
  drawChase();
}

// Where a queued job stands: ", number 2 in the queue" (the server runs long jobs in turn).
const queuePlace = (job) => (job.position ? `, number ${job.position} in the queue` : "");

// The solve is done: the roll showing is advised again by the objective (at once).
async function adviseByObjective(key) {
  if (!busy && phase() === "choose" && advice && (advice.objective || {}).kind === "ev") {
    try {
      const answer = await fetchAdvice(lastRoll(), rollsLeft());
      if (chase && chase.key === key && phase() === "choose" && answer.dice.join("") === lastRoll()) {
        advice = answer;
        drawHold();
        drawOptions();
        await drawCard();
      }
    } catch (e) { rollError(e.message); }
  }
  if (chase && chase.key === key) {
    noteChance(chase.chance);
    setChaseAttr("ready");
    drawChase();
  }
}

// The chance to win of the player to move before the turn's first roll (a finished
// turn solve's), kept in the game for the Chances panel: state.chances[turn index].
function noteChance(chance) {
  if (typeof chance !== "number" || (state.objective || {}).kind !== "win") return;
  state.chances = state.chances || {};
  const at = state.turns.length;
  if (state.chances[at] && state.chances[at].chance === chance) return;
  state.chances[at] = { player: player(), chance };
  save();
  drawCharts();
}

function cancelJob(id) {
  if (id) fetch(`/api/jobs/${encodeURIComponent(id)}`, { method: "DELETE" }).catch(() => {});
}

function stopChase() {
  const key = chaseKey();
  if (key === null) return;
  stoppedTurns.add(key);
  if (chase && chase.key === key && (chase.state === "queued" || chase.state === "running")) cancelJob(chase.id);
  chase = null;
  watchChase();
}

// ", about 40 s left": the work still to do at the rate measured so far (the server counts
// the solve's progress in work, each level of the DP by its size), once a twentieth of it
// is done; "" before.
function timeLeft(job) {
  if (!job.total || job.done * 20 < job.total || job.seconds < 3) return "";
  const left = Math.max(job.seconds * (job.total - job.done) / job.done, 1);
  return left < 90 ? `, about ${Math.round(left)} s left` : `, about ${Math.round(left / 60)} min left`;
}

// What the objective is doing for the turn under way, in words (and the stop button).
function drawChase() {
  const box = $("chase");
  const text = $("chase-status");
  const objective = (state && state.objective) || { kind: "ev" };
  const off = !state || isOver() || objective.kind === "ev";
  box.hidden = off;
  if (off) return;
  const what = objectiveWords(objective);
  const chance = what.replace(/^the /, "");
  // an objective that solves from a new game: once, for every later turn of every game
  const info = objective.info || {};
  const fromWhere = info.solves_from_new_game && openBoxes(player()) >= info.slow_open_boxes
    ? "from a new game (once: every later turn then answers at once)" : "from this card";
  const key = chaseKey();
  const waiting = chase && chase.key === key && ["starting", "queued", "running"].includes(chase.state);
  $("chase-stop").hidden = !waiting;
  $("chase-bar").hidden = !waiting;
  if (key === null) {
    text.textContent = `Ranked by expected score: ${what} is worked out from ${winFrom()} open boxes on ` +
      `(earlier turns take the server too long to solve while you play).`;
  } else if (stoppedTurns.has(key)) {
    text.textContent = `This turn is ranked by expected score (you chose not to wait for ${what}).`;
  } else if (waiting) {
    const how = chase.state === "queued" ? `waiting for the server${queuePlace(chase)}`
      : chase.total ? `${Math.floor(100 * chase.done / chase.total)} % worked out, ` +
        `${Math.round(chase.seconds)} s so far${timeLeft(chase)}` : "starting";
    text.textContent = `Working out ${state.players.length > 1 ? `${player()}'s` : "the"} ${chance} ` +
      `${fromWhere} (${how}). Meanwhile the choices are ranked by expected score; play on as you like.`;
    $("chase-bar").max = chase.total || 1;
    $("chase-bar").value = chase.done || 0;
  } else if (chase && chase.key === key && chase.state === "done") {
    text.textContent = `Ranked by ${what}${chase.seconds ? ` (worked out in ${Math.round(chase.seconds)} s)` : ""}.`;
  } else if (chase && chase.key === key) {
    text.textContent = `${what.charAt(0).toUpperCase()}${what.slice(1)} could not be worked out ` +
      `(${chase.error || chase.state}); the choices are ranked by expected score.`;
  } else {
    text.textContent = "";
  }
}

// ------------------------------------------------------------------ charts
async function drawCharts() {
  const open = $("charts-box").open;
  const status = $("charts-status");
  if (!open || !state) return;
  if (isOver()) {
    status.textContent = "The game is over.";
    $("dist-figure").hidden = $("reach-figure").hidden = true;
    return;
  }
  const name = player();
  const card = state.cards[name];
  drawWinFigure(name);
  const key = `${state.rules}|${card}`;
  let dist = dists.get(key);
  if (!dist) {
    status.textContent = `Computing ${name}'s exact chances from the start of this turn` +
      (card ? "…" : " (a new game takes about 15 seconds, once)…");
    try {
      dist = await api("/api/distribution", { rules: state.rules, card });
    } catch (e) {
      status.textContent = e.message;
      return;
    }
    dists.set(key, dist);
    if (!state || state.cards[player()] !== card || player() !== name) return; // moved on
  }
  status.textContent = `${state.players.length > 1 ? `${name}, p` : "P"}laying the best way from here, ` +
    `the final score averages ${dist.expected_final.toFixed(2)}.`;
  $("dist-caption").textContent = "Probability of each final score";
  $("reach-caption").textContent = dist.p_best
    ? "Best chance of reaching at least each final score, each played for (solid; dashed: playing for the highest average)"
    : "Chance of reaching at least each final score";
  $("dist-figure").hidden = $("reach-figure").hidden = false;
  drawDistribution($("dist-chart"), dist);
  drawReach($("reach-chart"), dist);
}

// A game played to win: each player's chance to win at the start of their turns so far
// (worked out by the turn solves), and the one of the player to move.
function drawWinFigure(name) {
  const figure = $("win-figure");
  const win = (state.objective || {}).kind === "win" && state.players.length > 1;
  const known = Object.entries(state.chances || {}).map(([at, c]) => [Number(at), c])
    .filter(([at]) => at <= state.turns.length).sort((a, b) => a[0] - b[0]);
  figure.hidden = !win || !known.length;
  if (!win) return;
  const now = (state.chances || {})[state.turns.length];
  const tie = tieShare(state.players.length > 2 ? { opponents: true } : {});
  $("win-caption").textContent = now
    ? `${name}'s chance to win (${tie}) from the start of this turn: ${percent(now.chance)}. ` +
      "Each player's, turn by turn:"
    : `${name}'s chance to win (${tie}) is worked out with this turn's advice. Each player's so far, turn by turn:`;
  if (!known.length) return;
  const series = state.players.map((p) => ({ name: p, points: known
    .filter(([, c]) => c.player === p)
    .map(([at, c]) => [Math.floor(at / state.players.length) + 1, c.chance]) }))
    .filter((s) => s.points.length);
  drawWinChances($("win-chart"), series, nBoxes());
}

// ------------------------------------------------------------------ game records
// The game as a record (docs/records.md): finished turns, then the turn under way if any.
function recordTurns(of = state) {
  const turns = of.turns.map((t) => ({ player: t.player, rolls: t.rolls, keeps: t.keeps, box: t.box }));
  if (of.current.rolls.length) {
    const due = of.players[of.turns.length % of.players.length];
    turns.push({ player: due, rolls: of.current.rolls, keeps: of.current.keeps, box: null });
  }
  return turns;
}

function recordJson() {
  return { rules: state.rules, players: state.players,
           turns: recordTurns().map((t) => ({ ...t, keeps: t.keeps.map((k) => k || "-") })) };
}

// A game opened from a record keeps its objective line (`# objective: ...`), so the
// record saved reads back, and `yahtzee analyze` judges it, by what it was played for.
function recordText(of = state) {
  const lines = [...(of.objectiveLine ? [of.objectiveLine] : []),
    `rules ${of.rules}`, `players ${of.players.join(",")}`];
  for (const t of recordTurns(of)) {
    const parts = [t.rolls[0]];
    t.keeps.forEach((k, i) => parts.push(k || "-", ...(t.rolls[i + 1] ? [t.rolls[i + 1]] : [])));
    lines.push(`${t.player}: ${parts.join(" ")}${t.box ? ` ${t.box}` : ""}`);
  }
  return lines.join("\n") + "\n";
}

async function post(path, body) {
  if (local) return local.post(path, body);
  const res = await fetch(path, { method: "POST", body, headers: { "Content-Type": "text/plain" } });
  let answer = null;
  try { answer = await res.json(); } catch { answer = null; }
  if (!res.ok) throw new ApiError(answer && answer.error ? answer.error : `${res.status} ${res.statusText}`);
  return answer;
}

// What a record says its game was played for (POST /api/record's `objective`), as the
// page's game keeps it (see objectiveParams).
function objectiveOfRecord(noted, page) {
  if (noted && noted.kind === "target") return { kind: "target", target: noted.target };
  if (noted && noted.kind === "win" && noted.each_turn) return { kind: "win", from: noted.win_from };
  if (noted && noted.kind === "win" && noted.opponent !== undefined) return { kind: "win", opponent: noted.opponent };
  if (noted && noted.kind === "win" && noted.opponents !== undefined) return { kind: "win", opponents: noted.opponents };
  // another objective the server can ask for (a tournament's): as the server describes it
  if (page && page.params && page.key) return { ...page.objective, params: page.params, info: page };
  return { kind: "ev" };
}

// A checked record (POST /api/record) becomes the page's game, under the record's own
// objective (its first line, as `yahtzee analyze` reads it).
function gameFromRecord(answer) {
  const r = answer.record;
  const keeps = (list) => list.map((k) => (k === "-" ? "" : k));
  const open = r.turns.find((t) => !t.box);
  return {
    rules: r.rules, players: r.players,
    turns: r.turns.filter((t) => t.box).map((t) => ({ player: t.player, rolls: t.rolls, keeps: keeps(t.keeps), box: t.box })),
    cards: Object.fromEntries(Object.entries(answer.cards).map(([name, card]) => [name, card.text])),
    current: open ? { rolls: open.rolls, keeps: keeps(open.keeps) } : { rolls: [], keeps: [] },
    objective: objectiveOfRecord(answer.objective, answer.objective_page), objectiveLine: answer.objective_line || "",
  };
}

function pageError(message) {
  const el = $("page-error");
  el.textContent = message || "";
  el.hidden = !message;
}

async function upload(file) {
  pageError("");
  try {
    const answer = await post("/api/record", await file.text());
    if (state) undoStack.push(JSON.stringify(state));
    state = { ...gameFromRecord(answer), note: null };
    freshTurnView();
    save();
    $("analysis").hidden = true;
    await show();
  } catch (e) {
    pageError(`${file.name}: ${e.message}`);
  }
}

// A saved state (an undo step) through the record checks, or null when they refuse it:
// its cards from its turns, its objective line read again (else the page's objective).
async function checkedState(saved) {
  try {
    const answer = await post("/api/record", recordText(saved));
    const own = saved.objectiveLine ? {} : { objective: saved.objective || { kind: "ev" } };
    return { ...saved, ...gameFromRecord(answer), ...own, note: saved.note || null };
  } catch (e) {
    if (e instanceof ApiError || (local && e instanceof local.LocalError)) return null;
    throw e;  // no answer (the server away): not a refusal
  }
}

// The saved game is checked by the server (the same record checks as the CLI).
async function checkSaved() {
  try {
    const answer = await post("/api/record", recordText());
    // a game opened from a record: its objective line, checked again; else the page's own
    const own = state.objectiveLine ? {} : { objective: state.objective || { kind: "ev" } };
    state = { ...gameFromRecord(answer), ...own, note: state.note || null };
  } catch (e) {
    pageError(`The saved game was refused (${e.message}); start a new one or open a record.`);
    state = null;
  }
}

// ------------------------------------------------------------------ analysis
const percent = (p) => fixed(p, p > 0.999 || p < 0.001 ? 2 : 1);
const signed = (x) => `${x >= 0 ? "+" : "−"}${Math.abs(x).toFixed(2)}`;
// A loss or luck in its unit (analysis): points, or percentage points of a probability.
const lossText = (x, unit) => (unit === "probability" ? `${(100 * x).toFixed(2)} pp` : x.toFixed(2));
const signedIn = (x, unit) => (unit === "probability" ? `${signed(100 * x)} pp` : signed(x));

// The review judges the game by what it is played for (as `yahtzee analyze` judges a
// record by its objective line): a target, or each turn's chance to win from N open boxes
// on; those take one solve per turn, followed as a background job. A game opened from a
// record is sent with its objective line, which the server reads as `analyze` does.
async function analysisOf() {
  const objective = state.objective || { kind: "ev" };
  const noted = Boolean(state.objectiveLine);
  const body = noted ? recordText() : JSON.stringify(recordJson());
  const params = noted ? {} : objective.kind === "target" ? { target: String(objective.target) }
    : objective.kind === "win" && state.players.length > 1 ? { objective: "win", win_from: String(winFrom()) }
      : null;
  if (!params || (noted && objective.kind === "ev")) return post("/api/analyze", body);
  const query = Object.keys(params).length ? `?${new URLSearchParams(params)}` : "";
  let job = (await post(`/api/jobs/analyze${query}`, body)).job;
  try {
    for (;;) {
      const status = job.state === "queued" ? `waiting for the server${queuePlace(job)}`
        : job.total ? `decision ${job.done} of ${job.total}, ${Math.round(job.seconds)} s` : "starting";
      pageStatus(`Reviewing the game by ${objective.kind === "win" ? "each turn's chance to win"
        : objectiveWords(objective)} (${status})…`);
      const answer = await api(`/api/jobs/${encodeURIComponent(job.id)}`);
      job = answer.job;
      if (job.state === "done") return answer.result;
      if (job.state !== "queued" && job.state !== "running") throw new ApiError(job.error || job.state);
      await new Promise((resolve) => { setTimeout(resolve, POLL_MS); });
    }
  } finally {
    pageStatus("");
  }
}

function pageStatus(message) {
  const el = $("page-status");
  el.textContent = message || "";
  el.hidden = !message;
}

async function analyzeGame() {
  if (!state) return;
  pageError("");
  let result;
  try {
    result = await analysisOf();
  } catch (e) {
    pageError(`Analysis: ${e.message}`);
    return;
  }
  const table = $("analysis-players");
  table.replaceChildren();
  const head = table.createTHead().insertRow();
  for (const h of ["Player", "Total", "Decisions", "Errors", "Loss", "Luck"]) {
    const th = document.createElement("th");
    th.scope = "col";
    th.textContent = h;
    head.appendChild(th);
  }
  const body = table.createTBody();
  // a game judged in two units (percentage points of a chance from --win-from on, points
  // before): every loss and luck says its unit, and each part of a player has its own row
  const mixed = result.decisions.some((d) => d.unit !== result.decisions[0].unit);
  const inUnit = (text, unit) => (mixed && unit !== "probability" ? `${text} points` : text);
  for (const p of result.players) {
    const parts = [[p.name, String(p.total), p, p.unit]];
    if (p.by_expected_score) parts.push([`${p.name}, turns by expected score`, "", p.by_expected_score, "points"]);
    for (const [name, total, part, unit] of parts) {
      const tr = body.insertRow();
      for (const v of [name, total, String(part.decisions), String(part.errors),
        inUnit(lossText(part.total_loss, unit), unit), inUnit(signedIn(part.luck, unit), unit)]) {
        tr.insertCell().textContent = v;
      }
    }
  }
  const worst = result.players.flatMap((p) => [...p.worst, ...(p.by_expected_score ? p.by_expected_score.worst : [])])
    .sort((a, b) => (a.unit === b.unit ? b.loss - a.loss : a.unit === "probability" ? -1 : 1));
  const list = $("analysis-worst");
  list.replaceChildren();
  for (const d of worst) {
    const li = document.createElement("li");
    const what = document.createElement("div");
    what.textContent = `${d.player}, turn ${d.turn}: dice ${d.dice.join(" ")}, ${d.rolls_left} ` +
      `${d.rolls_left === 1 ? "roll" : "rolls"} left — chose ${describe(d.chosen)}, best was ${describe(d.best)}`;
    const loss = document.createElement("span");
    loss.className = "loss";
    loss.textContent = `costs ${lossText(d.loss, d.unit)}${d.unit === "probability" ? "" : " points"}`;
    const meta = document.createElement("div");
    meta.className = "meta";
    meta.append(loss, ` (expected final ${d.chosen.expected_final.toFixed(2)} instead of ${d.best.expected_final.toFixed(2)})`);
    li.append(what, meta);
    list.appendChild(li);
  }
  if (!worst.length) {
    const li = document.createElement("li");
    li.textContent = result.decisions.length ? "No decision lost anything: every choice was the best one."
      : "No decision yet.";
    list.appendChild(li);
  }
  const all = $("analysis-decisions");
  all.replaceChildren();
  const top = all.createTHead().insertRow();
  for (const h of ["Player", "Turn", "Dice", "Rolls left", "Chosen", "Best", "Loss", "Luck"]) {
    const th = document.createElement("th");
    th.scope = "col";
    th.textContent = h;
    top.appendChild(th);
  }
  const rows = all.createTBody();
  for (const d of result.decisions) {
    const tr = rows.insertRow();
    if (d.error) tr.className = "error-row";
    for (const v of [d.player, String(d.turn), d.dice.join(""), String(d.rolls_left), describe(d.chosen),
      describe(d.best), d.loss > 0 ? inUnit(lossText(d.loss, d.unit), d.unit) : "0",
      inUnit(signedIn(d.luck, d.unit), d.unit)]) tr.insertCell().textContent = v;
  }
  $("game").hidden = true;
  $("setup").hidden = true;
  $("analysis").hidden = false;
  setView("analysis");
  markScrollers();
  document.body.dataset.phase = "analysis";
  $("close-analysis").focus();
}

// The view switcher: the game, practice and the game's analysis.
function setView(name) {
  $("view-game").setAttribute("aria-pressed", String(name === "game"));
  $("view-practice").setAttribute("aria-pressed", String(name === "practice"));
  $("analyze").setAttribute("aria-pressed", String(name === "analysis"));
  $("practice").hidden = name !== "practice";
}

let ruleSets = [];   // every rule set (/api/rules), for the practice form
let defaultRules = "official";

async function openPractice() {
  $("setup").hidden = true;
  $("analysis").hidden = true;
  $("game").hidden = true;
  pageError("");
  await showPractice(ruleSets, state ? state.rules : defaultRules);
}

// Back from practice: to the game, or to a new game's form when there is none.
async function leavePractice() {
  setView("game");
  if (state) await show(); else showSetup();
}

// A table wider than its box scrolls sideways; say so above it (and the edge shadows show it).
function markScrollers() {
  for (const box of document.querySelectorAll(".card-scroll")) {
    const note = box.previousElementSibling;
    const wide = box.offsetParent !== null && box.scrollWidth > box.clientWidth + 1;
    box.classList.toggle("overflows", wide);
    if (note && note.classList.contains("scroll-note")) note.hidden = !wide;
  }
}

async function closeAnalysis() {
  $("analysis").hidden = true;
  await show();
}

function download() {
  if (!state) return;
  const blob = new Blob([recordText()], { type: "text/plain" });
  const a = document.createElement("a");
  a.href = URL.createObjectURL(blob);
  a.download = `yahtzee-${new Date().toISOString().slice(0, 10)}.txt`;
  document.body.appendChild(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(a.href), 1000);
}

// ------------------------------------------------------------------ wiring
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
  $("more-options").addEventListener("click", () => { showAll = !showAll; drawOptions(); });
  $("add-player").addEventListener("click", () => addPlayerField());
  $("remove-player").addEventListener("click", removePlayerField);
  $("setup-form").addEventListener("submit", act(startGame));
  $("charts-box").addEventListener("toggle", act(drawCharts));
  document.addEventListener("keydown", act(onKey));
  local = await staticSite();
  load();
  const info = await api("/api/rules");
  ruleSets = info.rule_sets;
  defaultRules = info.name;
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
    $("target-field").hidden = $("objective-select").value !== "target";
    $("win-from-field").hidden = $("objective-select").value !== "win";
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
  if (state) { await show(); } else { rules = info; showSetup(); }
}

act(init)().catch((e) => {
  const main = $("main");
  const p = document.createElement("p");
  p.className = "error";
  p.setAttribute("role", "alert");
  p.textContent = `The saved game could not be shown (${e.message}); start a new one.`;
  main.prepend(p);
  state = null;
  showSetup();
});

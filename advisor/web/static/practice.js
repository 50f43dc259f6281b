// The Practice view: positions that optimal play visits, decided as in a game and graded
// exactly by the server (GET /api/train, /api/grade, /api/train/session: the same answers
// as `yahtzee train --json`). A session and the past sessions' figures live in this
// browser (localStorage).

import { keep } from "./storage.js";

const SESSION = "yahtzee-practice-v1";
const HISTORY = "yahtzee-practice-history-v1";
const KEPT_SESSIONS = 50;
const KIND_LABELS = { keep: "Keeps", box: "Boxes", upper: "Upper section", yahtzee: "Chasing a Yahtzee",
  straights: "Straights", end_of_game: "End of game" };

let page = null;        // what app.js lends: $, api, act, die, whyFigures, setView, leave
let session = null;     // { rules, seed, count, positions, answers: [text], grades: [graded JSON] }
let rulesInfo = null;   // /api/rules of the session's rule set
let held = [];
let finished = null;    // /api/train/session answer once every position is answered

const $ = (id) => document.getElementById(id);

function store() { keep(SESSION, JSON.stringify(session)); }

function restore() {
  try {
    const saved = JSON.parse(localStorage.getItem(SESSION) || "null");
    if (saved && Array.isArray(saved.positions) && Array.isArray(saved.grades)) session = saved;
  } catch { session = null; }
}

function history() {
  try {
    const list = JSON.parse(localStorage.getItem(HISTORY) || "[]");
    return Array.isArray(list) ? list : [];
  } catch { return []; }
}

const label = (box) => rulesInfo.boxes.find((b) => b.name === box).label;

export function initPractice(lent) {
  page = lent;
  restore();
  $("practice-form").addEventListener("submit", page.act(start));
  $("practice-keep").addEventListener("click", page.act(keepHeld));
  $("practice-next").addEventListener("click", page.act(next));
  $("practice-again").addEventListener("click", () => { session = null; finished = null; store(); draw(); });
  $("close-practice").addEventListener("click", page.act(page.leave));
}

// The view: the form, a position, its grade, or the session's summary.
export async function showPractice(ruleSets, rulesName) {
  const select = $("practice-rules");
  if (!select.options.length) {
    for (const r of ruleSets) {
      const option = document.createElement("option");
      option.value = r.name;
      option.textContent = r.name;
      option.title = r.summary;
      select.appendChild(option);
    }
  }
  if (!session) select.value = rulesName;
  if (session && (!rulesInfo || rulesInfo.name !== session.rules)) {
    rulesInfo = await page.api("/api/rules", { rules: session.rules });
  }
  page.setView("practice");
  draw();
  document.body.dataset.phase = "practice";
}

async function start(event) {
  event.preventDefault();
  const error = $("practice-error");
  error.hidden = true;
  const count = Number($("practice-count").value);
  const seedText = $("practice-seed").value.trim();
  try {
    const params = { rules: $("practice-rules").value, positions: String(count) };
    if (seedText) params.seed = seedText;
    const drawn = await page.api("/api/train", params);
    rulesInfo = await page.api("/api/rules", { rules: drawn.rules });
    session = { rules: drawn.rules, seed: drawn.seed, count: drawn.positions.length,
                positions: drawn.positions, answers: [], grades: [] };
    finished = null;
    held = [];
    store();
    draw();
  } catch (e) {
    error.textContent = e.message;
    error.hidden = false;
  }
}

function draw() {
  const done = session && session.grades.length;
  $("practice-form").hidden = Boolean(session);
  $("practice-position").hidden = !session || (session.grades.length === session.count && !lastShown());
  $("practice-summary").hidden = true;
  if (!session) return;
  if (session.grades.length === session.count && !lastShown()) { drawSummary(); return; }
  const i = lastShown() ? done - 1 : done;
  const position = session.positions[i];
  const graded = lastShown() ? session.grades[i] : null;
  drawPosition(i, position, graded);
}

// The grade of the last answer stays in view until "Next".
const lastShown = () => session && session.showing === true;

function drawPosition(i, position, graded) {
  const card = position.card;
  const open = rulesInfo.boxes.filter((b) => card.entries[b.name] === undefined);
  const turn = rulesInfo.boxes.length - open.length + 1;
  $("practice-where").textContent = `Position ${i + 1} of ${session.count} · turn ${turn} of ` +
    `${rulesInfo.boxes.length} · total ${card.total} · ${open.length} ${open.length === 1 ? "box" : "boxes"} open`;
  // every figure of the total listed, the bonuses too (they add up to the total above)
  const filled = rulesInfo.boxes.filter((b) => card.entries[b.name] !== undefined)
    .map((b) => `${b.label} ${card.entries[b.name]}`);
  if (card.upper_bonus) filled.push(`Upper bonus ${card.upper_bonus}`);
  if (card.yahtzee_bonus) {
    filled.push(`Yahtzee ${card.yahtzee_bonus === 1 ? "bonus" : "bonuses"} ` +
      `${card.yahtzee_bonus * rulesInfo.yahtzee_bonus}`);
  }
  $("practice-card").textContent = (filled.length ? `Filled: ${filled.join(", ")}.` : "A new game.") +
    ` Open: ${open.map((b) => b.label).join(", ")}.` +
    (card.upper_bonus ? "" : ` Upper ${card.upper_subtotal} of ${rulesInfo.upper_target}.`);
  const left = position.rolls_left;
  $("practice-rolls").textContent = `${left} ${left === 1 ? "roll" : "rolls"} left`;
  if (held.length !== 5) held = [false, false, false, false, false];
  drawDice(position, graded);
  const keep = $("practice-keep");
  keep.hidden = left === 0 || Boolean(graded);
  keep.textContent = keepText();
  keep.disabled = held.every(Boolean);
  const boxes = $("practice-boxes");
  boxes.replaceChildren();
  $("practice-boxes-title").hidden = Boolean(graded);
  if (!graded) {
    for (const choice of position.choices.filter((c) => c.action === "score")) {
      const b = document.createElement("button");
      b.type = "button";
      b.textContent = `${label(choice.box)} ${choice.points}${choice.bonus ? ` +${choice.bonus}` : ""}`;
      b.setAttribute("aria-label", `Score ${b.textContent}`);
      b.addEventListener("click", page.act(() => answer(choice.text)));
      boxes.appendChild(b);
    }
  }
  drawGrade(graded);
  $("practice-hint").hidden = Boolean(graded) || left === 0;
}

function keepText() {
  const kept = heldFaces();
  if (!kept.length) return "Reroll all five";
  if (kept.length === 5) return "Hold fewer dice, or score a box";
  const n = 5 - kept.length;
  return `Keep ${kept.join(" ")}, reroll ${n} ${n === 1 ? "die" : "dice"}`;
}

const heldFaces = () => session.positions[current()].dice.filter((_, i) => held[i]);
const current = () => (lastShown() ? session.grades.length - 1 : session.grades.length);

function drawDice(position, graded) {
  const box = $("practice-dice");
  box.replaceChildren();
  position.dice.forEach((face, i) => {
    const button = document.createElement("button");
    button.type = "button";
    button.className = "die-button";
    button.appendChild(page.die(face, held[i] ? "held" : ""));
    const canHold = position.rolls_left > 0 && !graded;
    button.disabled = !canHold;
    if (canHold) button.setAttribute("aria-pressed", held[i] ? "true" : "false");
    button.setAttribute("aria-label", `${face}${held[i] ? ", held" : ""}`);
    button.addEventListener("click", () => {
      held[i] = !held[i];
      drawPosition(current(), session.positions[current()], null);
    });
    box.appendChild(button);
  });
}

async function keepHeld() {
  const kept = heldFaces();
  await answer(kept.length ? `keep ${kept.join("")}` : "reroll all");
}

// One answer: graded by the server, kept, and shown with the best choice and its why.
async function answer(text) {
  const i = session.grades.length;
  const position = session.positions[i];
  const error = $("practice-error");
  error.hidden = true;
  try {
    const graded = await page.api("/api/grade", { rules: session.rules, card: position.card.text,
      dice: position.dice.join(""), rolls_left: String(position.rolls_left), answer: text });
    session.answers.push(text);
    session.grades.push(graded);
    session.showing = true;
    held = [];
    store();
    draw();
    $("practice-grade").scrollIntoView({ block: "nearest" });
  } catch (e) {
    error.textContent = e.message;
    error.hidden = false;
  }
}

function phrase(option) {
  if (option.action === "keep") return option.keep.length ? `keep ${option.keep.join(" ")}` : "reroll all";
  return `score ${label(option.box)} ${option.points}${option.bonus ? ` +${option.bonus} bonus` : ""}`;
}

function drawGrade(graded) {
  const box = $("practice-grade");
  box.hidden = !graded;
  if (!graded) return;
  const verdict = $("practice-verdict");
  const good = !graded.error;
  verdict.className = good ? "verdict good" : "verdict bad";
  verdict.textContent = graded.tied
    ? `${cap(phrase(graded.answer))}: a best choice, tied with ${phrase(graded.best)}.`
    : good ? `${cap(phrase(graded.answer))}: the best choice.`
      : `${cap(phrase(graded.answer))} costs ${graded.loss.toFixed(2)} points on average. ` +
        `Best: ${phrase(graded.best)}.`;
  const figures = $("practice-why");
  figures.replaceChildren();
  const heading = (text) => { const h = document.createElement("h3"); h.textContent = text; figures.appendChild(h); };
  const why = (option) => figures.appendChild(page.whyFigures(option.outcome, label, null, null,
    option.expected_final));
  // a tied answer first (it is as good as the best), then the choice it ties with
  const shown = graded.tied ? [[`Yours: ${phrase(graded.answer)}`, graded.answer],
    [`Tied with it: ${phrase(graded.best)}`, graded.best]]
    : [[`Best: ${phrase(graded.best)}`, graded.best]].concat(
      graded.error ? [[`Yours: ${phrase(graded.answer)}`, graded.answer]] : []);
  for (const [title, option] of shown) {
    heading(title);
    why(option);
  }
  $("practice-next").textContent = session.grades.length === session.count ? "See the summary" : "Next position";
}

const cap = (text) => text.charAt(0).toUpperCase() + text.slice(1);

async function next() {
  session.showing = false;
  store();
  if (session.grades.length === session.count) await finish();
  draw();
}

// The whole session graded by the server (as `yahtzee train --json`), kept in the history.
async function finish() {
  finished = await page.api("/api/train/session", { rules: session.rules, seed: String(session.seed),
    positions: String(session.count), answers: session.answers.join("|") });
  if (!session.kept) {
    const past = history();
    past.push({ date: new Date().toISOString(), rules: session.rules, seed: session.seed,
                decisions: finished.decisions, mean_loss: finished.mean_loss });
    keep(HISTORY, JSON.stringify(past.slice(-KEPT_SESSIONS)));
    session.kept = true;
    store();
  }
}

async function drawSummary() {
  if (!finished) {
    try { await finish(); } catch (e) {
      $("practice-error").textContent = e.message;
      $("practice-error").hidden = false;
      return;
    }
  }
  $("practice-position").hidden = true;
  $("practice-summary").hidden = false;
  $("practice-mean").textContent = `${finished.decisions} decisions, ${finished.errors} ` +
    `${finished.errors === 1 ? "error" : "errors"}: mean loss ${finished.mean_loss.toFixed(3)} points ` +
    "per decision (aim below 0.2).";
  const table = $("practice-kinds");
  table.replaceChildren();
  const head = table.createTHead().insertRow();
  for (const h of ["Kind", "Decisions", "Errors", "Mean loss"]) {
    const th = document.createElement("th");
    th.scope = "col";
    th.textContent = h;
    head.appendChild(th);
  }
  const body = table.createTBody();
  for (const [kind, f] of Object.entries(finished.kinds)) {
    const tr = body.insertRow();
    for (const v of [KIND_LABELS[kind] || kind, String(f.decisions), String(f.errors), f.mean_loss.toFixed(3)]) {
      tr.insertCell().textContent = v;
    }
  }
  const past = history().filter((h) => h.rules === session.rules).slice(-8);
  $("practice-history").textContent = past.length > 1
    ? `Your last sessions (${session.rules}), oldest first: ${past.map((h) => h.mean_loss.toFixed(3)).join(", ")}.`
    : "Your first session of these rules in this browser.";
}

// The moves of a turn: dice entered (tapped or typed) and corrected, held, a keep or a
// box chosen (with what the choice cost), and the "why" of a choice asked.

import { drawEntry, rollError, syncRoll } from "./board.js";
import { fetchAdvice } from "./chase.js";
import { show } from "./game.js";
import { objectiveOf } from "./objective.js";
import { drawHold, drawOptions, optionKey } from "./options.js";
import {
  $, ApiError, advice, api, busy, cardInfo, digits, entering, freshTurnView, held, isOver,
  keepBefore, keptFaces, lastRoll, local, phase, player, rollFaces, rollsLeft, save, selected,
  selectedWasHeld, setAdvice, setBusy, setEntering, setHeld, setRollFaces, setSelected,
  setSelectedWasHeld, setShowAll, setWhyAdvice, setWhyFor, setWhyPending, sorted, state, step,
  undoStack, whyAdvice, whyPending,
} from "./state.js";
import { chanceText, phrase } from "./words.js";

// A face tapped (or typed as a key): the next die of the roll being entered, or the new
// face of the die tapped last (a correction: nothing to undo).
export async function addFace(face) {
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
    setSelected(-1);
    await reviseRoll(faces.join(""), faces);
    return;
  }
  const room = 5 - keptFaces().length;
  if (selected >= 0 && selected < entering.length) {
    entering[selected] = face;
    setSelected(-1);
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
export async function removeFace() {
  if (busy || !state || isOver()) return;
  rollError("");
  if (phase() === "roll") {
    if (!entering.length) return;
    if (selected >= 0 && selected < entering.length) entering.splice(selected, 1);
    else entering.pop();
    setSelected(-1);
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
  setEntering(without(rest, kept));
  await show();
}

function keptMessage(kept) {
  return `the dice must include the kept ${kept.join(" ")}; to change those, undo the keep`;
}

// A die tapped: in a roll being entered it is marked for a new face; in a roll advised it
// is held or let go (its keep's worth shows at once) and marked for a new face too.
export function tapDie(i) {
  if (busy || !state || isOver()) return;
  rollError("");
  if (phase() === "roll") {
    setSelected(selected === i ? -1 : i);
    drawEntry();
    return;
  }
  setSelectedWasHeld(held[i]);
  if (rollsLeft() > 0) held[i] = !held[i];
  setSelected(i);
  setWhyFor(null);
  drawEntry();
  drawHold();
  drawOptions();
  if (rollsLeft() > 0 && held.some(Boolean)) loadWhy();
  const dice = $("dice").querySelectorAll("button");
  if (dice[i]) dice[i].focus({ preventScroll: true });
}

export async function submitTyped(event) {
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
  setBusy(true);
  try {
    const answer = await fetchAdvice(diceText, rollsLeft() - 1);
    step(() => state.current.rolls.push(answer.dice.join("")));
    freshTurnView();
    setAdvice(answer);
    setShowAll(false);
    rollError("");
    setBusy(false);
    await show();
    return true;
  } catch (e) {
    setEntering([]);
    setSelected(-1);
    rollError(e.message);
    drawEntry();
    return false;
  } finally {
    setBusy(false);
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
  setBusy(true);
  try {
    const answer = await fetchAdvice(diceText, rollsLeft());
    const shown = faces || answer.dice;
    if (!contains(shown, kept)) throw new ApiError(keptMessage(kept));
    if (!faces) { setRollFaces(null); setHeld([]); }
    state.current.rolls[state.current.rolls.length - 1] = answer.dice.join("");
    save();
    setAdvice(answer);
    setWhyAdvice(null);
    setWhyFor(null);
    setWhyPending(null);
    if (faces) setRollFaces(faces);
    rollError("");
  } catch (e) {
    rollError(e.message);
    drawEntry();
    return false;
  } finally {
    setBusy(false);
  }
  await show();
  return true;
}

// "keep 2 2 2 3 costs 2.49 points on average (best: keep 2 2 2)", as the CLI says it; under
// a target or the win objective the cost is in percentage points of that chance.
function costNote(chosen) {
  const best = advice && advice.options[0];
  if (!best || chosen === best) return null;
  const objective = objectiveOf(state.objective);
  const { key } = objective;
  let text = null;
  if (key && best[key] !== undefined && chosen[key] !== undefined) {
    const lost = best[key] - chosen[key];
    if (lost <= 1e-12) return null;
    const what = objective.words;
    const digits = objective.lossDecimals;
    text = `${phrase(chosen)} costs ${(100 * lost).toFixed(digits)} percentage points of ${what} ` +
      `(${chanceText(best[key], digits)} to ${chanceText(chosen[key], digits)}; best: ${phrase(best)}; ` +
      `${chosen.loss.toFixed(2)} points on average)`;
  } else {
    if (chosen.loss <= 1e-9) return null;
    text = `${phrase(chosen)} costs ${chosen.loss.toFixed(2)} points on average (best: ${phrase(best)})`;
  }
  return { player: player(), text };
}

export async function choose(option) {
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

export async function scoreBox(box) {
  if (busy || phase() !== "choose") return;
  setBusy(true);
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
    setBusy(false);
  }
  await show();
  showEntry();
}

// The advice with every option's outcome, asked once per roll (the first time a server
// computes the figures of every state: about half a minute).
async function loadWhy() {
  if (whyAdvice || whyPending || !advice || local) return;  // (a static site has no why)
  const asked = advice;
  setWhyPending(fetchAdvice(lastRoll(), rollsLeft(), true));
  try {
    const answer = await whyPending;
    if (advice !== asked) return;     // the roll changed meanwhile
    setWhyAdvice(answer);
  } catch (e) {
    if (advice === asked) rollError(e.message);
  } finally {
    if (advice === asked) setWhyPending(null);
  }
  if (advice === asked) drawHold();
}

export async function askWhy(option) {
  setWhyFor(optionKey(option));
  drawHold();
  drawOptions();
  await loadWhy();
  const detail = $("option-detail");
  if (!detail.hidden) detail.scrollIntoView({ block: "nearest" });
}

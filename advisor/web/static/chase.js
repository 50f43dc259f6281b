// Playing for a target or to win: a turn under such an objective is solved in the
// background on the server (POST /api/jobs/turn; one solve answers every roll of the
// turn). Meanwhile the advice is by expected score and the player goes on as usual;
// #chase-status says what is worked out and how far it is, with a button to go on
// without it. When the solve is done the advice of the roll showing is asked again,
// ranked by the objective's chance. A turn left (a score, an undo past it) cancels its
// solve if it is still under way.

import { drawCard, rollError } from "./board.js";
import { drawCharts } from "./charts_panel.js";
import { objectiveOf } from "./objective.js";
import { drawHold, drawOptions } from "./options.js";
import {
  $, advice, api, busy, isOver, lastRoll, objectiveParams, openBoxes, phase, player, post,
  rollsLeft, save, setAdvice, state, winFrom,
} from "./state.js";
import { queuePlace, timeLeft } from "./words.js";

// The advice for `diceText` just rolled, `rollsLeftAfter` rolls still to come; the one
// request behind every roll entered or corrected.
// Under a target or the win objective the advice is by expected score (at once) until
// the turn's background solve is done (see "playing for a target or to win" below).
export function fetchAdvice(diceText, rollsLeftAfter, why = false) {
  return api("/api/advise", { rules: state.rules, card: state.cards[player()], dice: diceText,
    rolls_left: rollsLeftAfter, top: 0, ...(chaseReady() ? objectiveParams() : {}),
    ...(why ? { why: "1" } : {}) });
}

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
export const POLL_MS = 700;

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

export async function watchChase() {
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
      Object.assign(chase, { seconds_left: null }, body.job, { chance: body.chance });
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
        if (chase && chase.key === key) {
          Object.assign(chase, { seconds_left: null }, body.job, { chance: body.chance });
        }
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

// The solve is done: the roll showing is advised again by the objective (at once).
async function adviseByObjective(key) {
  if (!busy && phase() === "choose" && advice && !objectiveOf(advice.objective).solvesTurns) {
    try {
      const answer = await fetchAdvice(lastRoll(), rollsLeft());
      if (chase && chase.key === key && phase() === "choose" && answer.dice.join("") === lastRoll()) {
        setAdvice(answer);
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
  if (typeof chance !== "number" || !objectiveOf(state.objective).tracksWinChances) return;
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

export function stopChase() {
  const key = chaseKey();
  if (key === null) return;
  stoppedTurns.add(key);
  if (chase && chase.key === key && (chase.state === "queued" || chase.state === "running")) cancelJob(chase.id);
  chase = null;
  watchChase();
}

// What the objective is doing for the turn under way, in words (and the stop button).
function drawChase() {
  const box = $("chase");
  const text = $("chase-status");
  const objective = objectiveOf(state && state.objective);
  const off = !state || isOver() || !objective.solvesTurns;
  box.hidden = off;
  if (off) return;
  const what = objective.words;
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

// The game's review (judged by what it is played for, as `yahtzee analyze` judges a
// record), the practice view, and the game saved as a file.

import { markScrollers, pageError, pageStatus, setView } from "./board.js";
import { POLL_MS } from "./chase.js";
import { show, showSetup } from "./game.js";
import { objectiveOf } from "./objective.js";
import { showPractice } from "./practice.js";
import { recordJson, recordText } from "./records.js";
import { $, ApiError, api, defaultRules, post, ruleSets, state, winFrom } from "./state.js";
import { describe, lossText, queuePlace, signedIn, timeLeft } from "./words.js";

// The review judges the game by what it is played for (as `yahtzee analyze` judges a
// record by its objective line): a target, or each turn's chance to win from N open boxes
// on; those take one solve per turn, followed as a background job. A game opened from a
// record is sent with its objective line, which the server reads as `analyze` does.
async function analysisOf() {
  const objective = objectiveOf(state.objective);
  const noted = Boolean(state.objectiveLine);
  const body = noted ? recordText() : JSON.stringify(recordJson());
  const params = noted ? {} : objective.reviewParams(state.players.length, winFrom());
  if (!params || (noted && !objective.solvesTurns)) return post("/api/analyze", body);
  const query = Object.keys(params).length ? `?${new URLSearchParams(params)}` : "";
  let job = (await post(`/api/jobs/analyze${query}`, body)).job;
  try {
    for (;;) {
      const status = job.state === "queued" ? `waiting for the server${queuePlace(job)}`
        : job.total ? `${Math.floor(100 * job.done / job.total)} % worked out, ${Math.round(job.seconds)} s so far${timeLeft(job)}`
          : "starting";
      pageStatus(`Reviewing the game by ${objective.reviewWords} (${status})…`);
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

export async function analyzeGame() {
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
  const digits = result.loss_decimals || 2;
  const inUnit = (text, unit) => (mixed && unit !== "probability" ? `${text} points` : text);
  for (const p of result.players) {
    const parts = [[p.name, String(p.total), p, p.unit]];
    if (p.by_expected_score) parts.push([`${p.name}, turns by expected score`, "", p.by_expected_score, "points"]);
    for (const [name, total, part, unit] of parts) {
      const tr = body.insertRow();
      for (const v of [name, total, String(part.decisions), String(part.errors),
        inUnit(lossText(part.total_loss, unit, digits), unit), inUnit(signedIn(part.luck, unit, digits), unit)]) {
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
    loss.textContent = `costs ${lossText(d.loss, d.unit, digits)}${d.unit === "probability" ? "" : " points"}`;
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
      describe(d.best), d.loss > 0 ? inUnit(lossText(d.loss, d.unit, digits), d.unit) : "0",
      inUnit(signedIn(d.luck, d.unit, digits), d.unit)]) tr.insertCell().textContent = v;
  }
  $("game").hidden = true;
  $("setup").hidden = true;
  $("analysis").hidden = false;
  setView("analysis");
  markScrollers();
  document.body.dataset.phase = "analysis";
  $("close-analysis").focus();
}

export async function openPractice() {
  $("setup").hidden = true;
  $("analysis").hidden = true;
  $("game").hidden = true;
  pageError("");
  await showPractice(ruleSets, state ? state.rules : defaultRules);
}

// Back from practice: to the game, or to a new game's form when there is none.
export async function leavePractice() {
  setView("game");
  if (state) await show(); else showSetup();
}

export async function closeAnalysis() {
  $("analysis").hidden = true;
  await show();
}

export function download() {
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

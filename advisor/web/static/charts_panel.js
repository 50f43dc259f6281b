// The Chances panel: the distribution of the final score and the chance of reaching each
// score from the start of the turn, and, in a game played to win, each player's chance
// to win turn by turn.

import { drawDistribution, drawReach, drawWinChances } from "./charts.js";
import { $, api, dists, isOver, nBoxes, player, state } from "./state.js";
import { objectiveOf, tieShare } from "./objective.js";
import { percent } from "./words.js";

export async function drawCharts() {
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
  const win = objectiveOf(state.objective).tracksWinChances && state.players.length > 1;
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

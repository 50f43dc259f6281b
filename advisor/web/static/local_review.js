// Reviews without a server (a static site): every decision of a game record against the
// best one by expected score, with its loss and the luck of each roll, as `yahtzee
// analyze` (advisor/analyze.py) answers POST /api/analyze under the expected score.
//
// Luck: before a roll the value is known (total + E(state) at the start of a turn, the
// chosen keep's value before a reroll); after it, the best option's. The luck of a roll is
// best after - value before; a decision's loss is best - chosen.

import * as engine from "./engine.js";
import { LocalError, NEEDS_SERVE, adviseCard, describeCard, parseCard, place, tableOf } from "./local_core.js";
import { readRecord } from "./local_record.js";
import { objectiveOf } from "./objective.js";

const ERROR_LOSS = 1e-9;
const WORST = 3;

function part(decisions) {
  const total = decisions.reduce((t, d) => t + d.loss, 0);
  const of = (kind) => decisions.filter((d) => (kind === "keep") === (d.chosen.action === "keep"));
  const lost = (list) => list.reduce((t, d) => t + d.loss, 0);
  return { decisions: decisions.length, errors: decisions.filter((d) => d.error).length,
    total_loss: total, mean_loss: decisions.length ? total / decisions.length : 0,
    luck: decisions.reduce((t, d) => t + d.luck, 0),
    keep_decisions: of("keep").length, keep_loss: lost(of("keep")),
    box_decisions: of("box").length, box_loss: lost(of("box")),
    worst: decisions.filter((d) => d.error).sort((a, b) => b.loss - a.loss).slice(0, WORST) };
}

/** POST /api/analyze (the expected score only). */
export async function analyze(body, query = {}) {
  if (["objective", "target", "beat", "opponent", "win_from"].some((p) => query[p] !== undefined)) {
    throw new LocalError(`a review by the chance of a target or of winning ${NEEDS_SERVE}`);
  }
  const record = readRecord(body);
  const noted = objectiveOf(record.objective);
  if (noted.solvesTurns) {  // the record's own objective, as `yahtzee analyze`
    throw new LocalError(`this game was played ${noted.playedFor}: `
      + `a review by its chance ${NEEDS_SERVE}`);
  }
  const table = await tableOf(record.rules);
  const rules = table.rules;
  const cards = Object.fromEntries(record.players.map((p) => [p, parseCard("", record.rules)]));
  const decisions = [];
  for (const t of record.turns) {
    const card = cards[t.player];
    const s = engine.cardState(rules, card);
    let before = s.total + table.value(s.m, s.u, s.y);
    const moves = [...t.keeps.map((keep) => ({ keep })), ...(t.box === null ? [] : [{ box: t.box }])];
    for (let i = 0; i < moves.length; i += 1) {
      const faces = [...t.rolls[i]].map(Number);
      const left = rules.rollsPerTurn - 1 - i;
      const options = await adviseCard(card, faces, left);
      const move = moves[i];
      const chosen = options.find((o) => (move.box === undefined
        ? o.action === "keep" && o.keep.join("") === move.keep : o.action === "score" && o.box === move.box));
      if (!chosen) throw new LocalError(`${t.where}: ${move.box || move.keep || "-"} is not a choice for ${t.rolls[i]}`);
      const best = options[0];
      const loss = best.expected_final - chosen.expected_final;
      decisions.push({ turn: rules.nBoxes - card.entries.filter((e) => e === null).length + 1,
        player: t.player, card: describeCard(card), dice: [...faces].sort(), rolls_left: left,
        chosen, best, loss, error: loss > ERROR_LOSS, luck: best.expected_final - before, unit: "points" });
      before = chosen.expected_final;
    }
    if (t.box !== null) {
      cards[t.player] = place(card, [...t.rolls[t.rolls.length - 1]].map(Number), rules.boxes.indexOf(t.box));
    }
  }
  const players = record.players.map((name) => {
    const c = describeCard(record.cards[name]);
    return { name, total: c.total, finished: c.full, unit: "points",
      ...part(decisions.filter((d) => d.player === name)) };
  });
  return { rules: record.rules, objective: { kind: "ev" }, unit: "points",
    new_game: table.value(0, 0, 0), new_game_unit: "points", decisions, players };
}

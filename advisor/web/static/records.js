// The game as a record (docs/records.md) and a record as the game: written, read back
// through the server's record checks (POST /api/record), under the record's objective.

import { pageError } from "./board.js";
import { objectiveOf } from "./objective.js";
import { ApiError, local, post, setState, state } from "./state.js";

// The game as a record (docs/records.md): finished turns, then the turn under way if any.
function recordTurns(of = state) {
  const turns = of.turns.map((t) => ({ player: t.player, rolls: t.rolls, keeps: t.keeps, box: t.box }));
  if (of.current.rolls.length) {
    const due = of.players[of.turns.length % of.players.length];
    turns.push({ player: due, rolls: of.current.rolls, keeps: of.current.keeps, box: null });
  }
  return turns;
}

export function recordJson() {
  return { rules: state.rules, players: state.players,
           turns: recordTurns().map((t) => ({ ...t, keeps: t.keeps.map((k) => k || "-") })) };
}

// A game opened from a record keeps its objective line (`# objective: ...`), so the
// record saved reads back, and `yahtzee analyze` judges it, by what it was played for.
export function recordText(of = state) {
  const lines = [...(of.objectiveLine ? [of.objectiveLine] : []),
    `rules ${of.rules}`, `players ${of.players.join(",")}`];
  for (const t of recordTurns(of)) {
    const parts = [t.rolls[0]];
    t.keeps.forEach((k, i) => parts.push(k || "-", ...(t.rolls[i + 1] ? [t.rolls[i + 1]] : [])));
    lines.push(`${t.player}: ${parts.join(" ")}${t.box ? ` ${t.box}` : ""}`);
  }
  return lines.join("\n") + "\n";
}

// What a record says its game was played for (POST /api/record's `objective`), as the
// page's game keeps it (see objectiveParams): a target, the win, or an objective the
// server describes (a tournament's: `objective_page`), else the expected score.
const objectiveOfRecord = (noted, page) => objectiveOf(noted).fromRecord(page);

// A checked record (POST /api/record) becomes the page's game, under the record's own
// objective (its first line, as `yahtzee analyze` reads it).
export function gameFromRecord(answer) {
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

// A saved state (an undo step) through the record checks, or null when they refuse it:
// its cards from its turns, its objective line read again (else the page's objective).
export async function checkedState(saved) {
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
export async function checkSaved() {
  try {
    const answer = await post("/api/record", recordText());
    // a game opened from a record: its objective line, checked again; else the page's own
    const own = state.objectiveLine ? {} : { objective: state.objective || { kind: "ev" } };
    setState({ ...gameFromRecord(answer), ...own, note: state.note || null });
  } catch (e) {
    pageError(`The saved game was refused (${e.message}); start a new one or open a record.`);
    setState(null);
  }
}

// Game records without a server (a static site): the text and JSON forms of docs/records.md
// read and checked here as `POST /api/record` does (a bad record is refused whole, its
// line or turn and token named), and replayed into every player's card.

import * as engine from "./engine.js";
import { LocalError, boxIndex, describeCard, parseCard, place } from "./local_core.js";
import { objectiveOf, objectiveOfNote } from "./objective.js";

const MAX_PLAYERS = 8;
const DICE_RE = /^[1-6]{5}$/;

function checkNames(names, where) {
  if (!names.length || names.length > MAX_PLAYERS) throw new LocalError(`${where}1 to ${MAX_PLAYERS} players, not ${names.length}`);
  for (const n of names) {
    // eslint-disable-next-line no-control-regex
    if (!n || n.length > 40 || /[:,#\u0000-\u001f\u007f-\u009f\u2028\u2029]/.test(n) || n !== n.trim()) {
      throw new LocalError(`${where}bad player name '${n}': 1 to 40 characters, without ':', ',' or '#' or spaces at either end`);
    }
  }
  if (new Set(names).size !== names.length) throw new LocalError(`${where}the players' names must differ`);
  return names;
}

// What a game was played for: a text record's first line `# objective: ...`, as
// advisor/play_win.py writes and reads it (judging_of_record).
const OBJECTIVE_PREFIX = "# objective:";
const WIN_FROM = 15;
const winNote = (n) => `win (each player against the best of the others, ${n >= WIN_FROM ? "from the first turn" : `from ${n} open boxes on`})`;

// A string quoted as Python's repr() quotes it (the server's messages name the line so).
function pythonRepr(text) {
  const escaped = text.replace(/\\/g, "\\\\");
  if (escaped.includes("'") && !escaped.includes('"')) return `"${escaped}"`;
  return `'${escaped.replace(/'/g, "\\'")}'`;
}

function notedObjective(text, rules) {
  const first = text.split("\n", 1)[0].trim();
  if (!first.startsWith(OBJECTIVE_PREFIX)) return { objective: { kind: "ev" }, line: "" };
  const note = first.slice(OBJECTIVE_PREFIX.length).trim();
  const shownLine = pythonRepr(first.slice(0, 80));
  if (note.startsWith("win (")) {
    for (let n = 1; n <= WIN_FROM; n += 1) {
      if (note === winNote(n)) return { objective: { kind: "win", each_turn: true, win_from: n }, line: first };
    }
  } else {
    let data = null;
    try { data = JSON.parse(note); } catch { data = null; }
    if (data && typeof data === "object" && !Array.isArray(data)) {
      const objective = objectiveOfNote(data);   // an opponent's card checked as the server does
      if (objective) {
        const noted = objectiveOf(objective);
        try { noted.against.forEach((c) => parseCard(c, rules)); } catch (e) {
          throw new LocalError(`the record's first line ${shownLine}: ${e.message}`);
        }
        return { objective, line: noted.solvesTurns ? first : "" };
      }
      throw new LocalError(`the record's first line ${shownLine}: give {"kind": "ev"}, {"kind": "target", "target": X}, {"kind": "win", "opponent": CARD} or {"kind": "tournament", "players": N, "field": "optimal"}`);
    }
  }
  throw new LocalError(`the record's first line ${shownLine} names no objective this version reads; give --objective, --target, --beat or --opponent`);
}

const sortedText = (faces) => [...faces].sort().join("");

function keepOf(token, where) {
  if (token === "-") return "";
  if (!/^[1-6]{0,4}$/.test(token)) {
    throw new LocalError(`${where}: a keep holds 0 to 4 dice (faces 1 to 6, '-' for none)`);
  }
  return sortedText(token);
}

function boxName(rulesName, token, where) {
  try {
    return engine.getRules(rulesName).boxes[boxIndex(rulesName, token)];
  } catch (e) { throw new LocalError(`${where}: ${e.message}`); }
}

function turnFromTokens(where, player, tokens, rulesName) {
  const per = engine.getRules(rulesName).rollsPerTurn;
  const rolls = [];
  const keeps = [];
  let box = null;
  tokens.forEach((token, i) => {
    const at = `${where}, token '${token.slice(0, 40)}'`;
    if (box !== null) throw new LocalError(`${at}: nothing may follow the box ${box}`);
    if (rolls.length === keeps.length) {
      if (!/^[0-9]+$/.test(token)) {
        throw new LocalError(`${at}: expected ${i === 0 ? "the first roll" : "the dice rolled after a keep"}, five faces such as 22256`);
      }
      if (rolls.length === per) throw new LocalError(`${at}: too many rolls; a turn has at most ${per} under rules '${rulesName}'`);
      if (!DICE_RE.test(token)) throw new LocalError(`${at}: need exactly 5 faces 1 to 6 (e.g. 22256)`);
      rolls.push(sortedText(token));
    } else if (token === "-" || /^[0-9]+$/.test(token)) {
      keeps.push(keepOf(token, at));
    } else {
      box = boxName(rulesName, token, at);
    }
  });
  return { player, rolls, keeps, box, where };
}

function readText(text) {
  let rules = "official";
  let players = null;
  const raw = [];
  text.split(/\r\n|\r|\n/).forEach((full, i) => {
    const number = i + 1;
    const line = full.split("#", 1)[0].trim();
    if (!line) return;
    const word = line.split(" ", 1)[0].toLowerCase();
    if ((word === "rules" || word === "players") && !line.includes(":")) {
      if (raw.length) throw new LocalError(`line ${number}: '${word}' must come before the turns`);
      const rest = line.slice(word.length).trim();
      if (word === "rules") rules = parseCard("", rest).key;
      else players = checkNames(rest.split(",").map((n) => n.trim()), `line ${number}: `);
      return;
    }
    const colon = line.indexOf(":");
    raw.push(colon >= 0 ? [number, line.slice(0, colon).trim(), line.slice(colon + 1).trim().split(/\s+/).filter(Boolean)]
      : [number, null, line.split(/\s+/)]);
  });
  if (players === null) {
    const named = raw.filter(([, name]) => name !== null);
    players = checkNames([named.length ? named[0][1] : "Player 1"], "");
  }
  const turns = raw.map(([number, name, tokens]) => {
    if (name === null && players.length > 1) throw new LocalError(`line ${number}: whose turn? write 'NAME: dice ...' when there are several players`);
    if (!tokens.length) throw new LocalError(`line ${number}: a turn needs the dice of the first roll`);
    return turnFromTokens(`line ${number}`, name === null ? players[0] : name, tokens, rules);
  });
  return { rules, players, turns };
}

function readJson(text) {
  let data;
  try { data = JSON.parse(text); } catch (e) { throw new LocalError(`the JSON record does not parse: ${e.message.slice(0, 120)}`); }
  if (!data || typeof data !== "object" || Array.isArray(data) || !Array.isArray(data.turns || [])) {
    throw new LocalError('a JSON record is an object {"rules": ..., "players": [...], "turns": [...]}');
  }
  const rules = parseCard("", data.rules === undefined ? "official" : String(data.rules)).key;
  const rawPlayers = data.players === undefined ? ["Player 1"] : data.players;
  if (!Array.isArray(rawPlayers) || !rawPlayers.every((p) => typeof p === "string")) {
    throw new LocalError('"players" is a list of names, e.g. ["Ann", "Bob"]');
  }
  const players = checkNames(rawPlayers, "");
  const turns = (data.turns || []).map((entry, i) => {
    const where = `turn ${i + 1} (turns[${i}])`;
    if (!entry || typeof entry !== "object") throw new LocalError(`${where}: a turn is an object with player, rolls, keeps, box`);
    const player = entry.player === undefined && players.length === 1 ? players[0] : entry.player;
    if (typeof player !== "string") throw new LocalError(`${where}: give the player's name`);
    const { rolls, keeps = [], box = null } = entry;
    if (!Array.isArray(rolls) || !Array.isArray(keeps) || !rolls.concat(keeps).every((t) => typeof t === "string")
        || !(box === null || typeof box === "string")) {
      throw new LocalError(`${where}: rolls and keeps are lists of dice such as "22256", box a name or null`);
    }
    const tokens = [];
    rolls.forEach((r, j) => { tokens.push(r); if (j < keeps.length) tokens.push(keeps[j]); });
    keeps.slice(rolls.length).forEach((k) => tokens.push(k));
    if (box !== null) tokens.push(box);
    if (!tokens.length) throw new LocalError(`${where}: a turn needs the dice of the first roll`);
    return turnFromTokens(where, player, tokens, rules);
  });
  return { rules, players, turns };
}

const contains = (roll, keep) => {
  const left = [...roll];
  for (const f of keep) {
    const i = left.indexOf(f);
    if (i < 0) return false;
    left.splice(i, 1);
  }
  return true;
};

/** A record (text or JSON form) read and checked: { rules, players, turns, cards,
 * objective, line } (objective: what its first line says the game was played for). */
export function readRecord(body) {
  const text = String(body).replace(/^\ufeff/, "");
  const record = text.trimStart().startsWith("{") ? readJson(text) : readText(text);
  const { rules, players, turns } = record;
  const names = engine.getRules(rules).boxes;
  const cards = Object.fromEntries(players.map((p) => [p, parseCard("", rules)]));
  turns.forEach((t, i) => {
    if (!players.includes(t.player)) throw new LocalError(`${t.where}: unknown player '${t.player}'; players: ${players.join(", ")}`);
    const due = players[i % players.length];
    if (t.player !== due) throw new LocalError(`${t.where}: it is ${due}'s turn, not ${t.player}'s`);
    const card = cards[t.player];
    if (card.entries.every((e) => e !== null)) throw new LocalError(`${t.where}: a turn after ${t.player}'s card is full`);
    if (i < turns.length - 1 && t.box === null) throw new LocalError(`${t.where}: only the last turn may be unfinished (no box)`);
    t.keeps.forEach((k, j) => {
      if (!contains(t.rolls[j], k)) throw new LocalError(`${t.where}, token '${k || "-"}': the keep is not in the roll ${t.rolls[j]}`);
      if (j + 1 < t.rolls.length && !contains(t.rolls[j + 1], k)) {
        throw new LocalError(`${t.where}, token '${t.rolls[j + 1]}': the roll does not contain the kept dice ${k || "-"}`);
      }
    });
    if (t.box !== null) {
      if (t.keeps.length >= t.rolls.length) throw new LocalError(`${t.where}, token '${t.box}': a box after a keep needs the roll after it`);
      try {
        cards[t.player] = place(card, [...t.rolls[t.rolls.length - 1]].map(Number), names.indexOf(t.box));
      } catch (e) { throw new LocalError(`${t.where}, token '${t.box}': ${e.message}`); }
    }
  });
  return { ...record, cards, ...notedObjective(text, rules) };
}

/** `POST /api/record`'s answer: record (JSON form), text, cards, finished, objective
 * (the record's note, {"kind": "ev"} when none) and objective_line. */
export function recordAnswer(record) {
  const { rules, players, turns, cards, objective, line } = record;
  const json = { rules, players, turns: turns.map((t) => ({ player: t.player, rolls: t.rolls,
    keeps: t.keeps.map((k) => k || "-"), box: t.box })) };
  const lines = [`rules ${rules}`, `players ${players.join(",")}`];
  for (const t of json.turns) {
    const parts = [t.rolls[0]];
    t.keeps.forEach((k, i) => parts.push(k, ...(t.rolls[i + 1] ? [t.rolls[i + 1]] : [])));
    lines.push(`${t.player}: ${parts.join(" ")}${t.box ? ` ${t.box}` : ""}`);
  }
  const full = (c) => c.entries.every((e) => e !== null);
  return { record: json, text: `${lines.join("\n")}\n`, objective, objective_line: line,
    cards: Object.fromEntries(players.map((p) => [p, describeCard(cards[p])])),
    finished: players.every((p) => full(cards[p])) };
}

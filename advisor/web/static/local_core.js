// What every answer of a static site (local.js) stands on: the site's rule sets and their
// tables (fetched once, checked), cards read and described as the server reads and
// describes them, a placement, and a roll's options by expected score. local.js and its
// answering modules (local_record.js, local_review.js, local_train.js) import this one,
// never each other's callers: no import goes round in a circle.

import * as engine from "./engine.js";
import { sha256 } from "./sha256.js";

export const NEEDS_SERVE = "needs the Python program on a computer (yahtzee serve): "
  + "this copy of the page works without a server and ranks by expected score only";

export class LocalError extends Error {}

let site = null;               // site.json
const tables = new Map();      // rule set -> Promise of its engine.Table
const turns = new Map();       // rules|card text -> the turn's values (turnValues)

/** site.json of a static site, or null when the page comes from `yahtzee serve`. */
export async function detectSite() {
  try {
    const res = await fetch("site.json", { cache: "no-cache" });
    if (!res.ok) return null;
    const found = await res.json();
    if (found && found.kind === "yahtzee-site") { site = found; return site; }
  } catch { /* no site: the server's page */ }
  return null;
}

export function ruleSet(name) {
  const key = String(name || site.default).trim().toLowerCase().replace(/_/g, "-");
  if (!Object.hasOwn(site.rules, key)) {  // a name, never one of Object's own (constructor...)
    throw new LocalError(`unknown rule set '${String(name).slice(0, 40)}'; this site has: ${Object.keys(site.rules).join(", ")}`);
  }
  return key;
}

// The table files are stored gzipped: most hosts leave binary files uncompressed.
async function gunzip(bytes) {
  if (typeof DecompressionStream === "undefined") {
    throw new LocalError("this browser cannot unpack the tables (it needs DecompressionStream: "
      + "Chrome 80, Safari 16.4, Firefox 113 or later)");
  }
  const stream = new Blob([bytes]).stream().pipeThrough(new DecompressionStream("gzip"));
  return new Uint8Array(await new Response(stream).arrayBuffer());
}

/** The engine.Table of a rule set (its file fetched once; the service worker keeps it),
 * checked before any value is read: it unpacks, has the size of the rule set's states,
 * the SHA-256 site.json gives it (sha256.js) and the new game's expected score. */
export function tableOf(name) {
  const key = ruleSet(name);
  if (!tables.has(key)) {
    const made = (async () => {
      const want = site.rules[key];
      const damaged = (why) => new LocalError(`the ${key} table file (${want.table}) is damaged: ${why}; `
        + "build the site again with yahtzee site");
      let res;
      try {
        res = await fetch(want.table);
      } catch {
        throw new LocalError(`the ${key} table could not be loaded (${want.table}): no answer from the site`);
      }
      if (!res.ok) throw new LocalError(`the ${key} table could not be loaded (${res.status})`);
      let bytes;
      try {
        bytes = new Uint8Array(await res.arrayBuffer());
        if (bytes.length !== want.bytes && bytes[0] === 0x1f && bytes[1] === 0x8b) {
          bytes = await gunzip(bytes);  // (unless the host sent it with Content-Encoding gzip)
        }
      } catch (e) {
        if (e instanceof LocalError) throw e;
        throw damaged("it does not unpack (cut short or altered)");
      }
      if (typeof want.sha256 !== "string") throw damaged("site.json gives no SHA-256 of it (an older site)");
      if (bytes.length !== want.bytes) throw damaged(`it holds ${bytes.length} bytes, not ${want.bytes}`);
      if (await sha256(bytes) !== want.sha256) throw damaged("its SHA-256 is not the one site.json gives");
      const table = new engine.Table(engine.getRules(key), bytes);
      if (table.value(0, 0, 0) !== want.expected_score) {
        throw new LocalError(`the ${key} table does not give the new game's expected score: build the site again`);
      }
      return table;
    })();
    made.catch(() => tables.delete(key));
    tables.set(key, made);
  }
  return tables.get(key);
}

// ------------------------------------------------------------------ cards
/** The rule set's description, as /api/rules gives it. */
export const info = (key) => site.rules[key].info;

export function boxIndex(key, name) {
  const want = String(name).trim().toLowerCase().replace(/[- ]/g, "_");
  const i = info(key).boxes.findIndex((b) => b.name === want || b.aliases.includes(want));
  if (i < 0) {
    throw new LocalError(`unknown box '${name}' for rules '${key}'; boxes are: ${info(key).boxes.map((b) => b.name).join(", ")}`);
  }
  return i;
}

function possiblePoints(rules, b) {
  const found = new Set(rules.scores[b]);
  if (rules.hasJoker) for (const g of rules.jokerPoints) for (const row of g) found.add(row[b]);
  return found;
}

/** A card from its text (`twos=6,yahtzee=50,yahtzee_bonus=1`): { key, entries, bonuses },
 * checked as solver/game/card.py's Scorecard.parse checks it. */
export function parseCard(text, name) {
  const key = ruleSet(name);
  const rules = engine.getRules(key);
  const entries = rules.boxes.map(() => null);
  let bonuses = null;
  const hint = "write box=points pairs separated by commas, e.g. twos=6,fours=12,yahtzee=50";
  const strip = (t) => t.replace(/^[ \t]+|[ \t]+$/g, "");
  const pairs = strip(String(text || "")) ? String(text).split(",").map(strip) : [];
  for (const pair of pairs) {
    if (!pair) throw new LocalError(`scorecard '${String(text).slice(0, 40)}': an empty entry (a comma too many); ${hint}`);
    const at = pair.indexOf("=");
    const box = at < 0 ? "" : strip(pair.slice(0, at));
    const value = at < 0 ? "" : strip(pair.slice(at + 1));
    if (!box || !/^-?[0-9]{1,4}$/.test(value)) {
      throw new LocalError(`bad scorecard entry '${pair.slice(0, 40)}': ${hint} (points are whole numbers 0 to 9999)`);
    }
    if (box.toLowerCase().replace(/-/g, "_") === "yahtzee_bonus") {
      if (bonuses !== null) throw new LocalError("yahtzee_bonus is given twice");
      bonuses = Number(value);
      continue;
    }
    const b = boxIndex(key, box);
    if (entries[b] !== null) throw new LocalError(`box ${rules.boxes[b]} is given twice`);
    entries[b] = Number(value);
  }
  entries.forEach((e, b) => {
    if (e !== null && !possiblePoints(rules, b).has(e)) {
      throw new LocalError(`${rules.boxes[b]}=${e} cannot occur; ${rules.boxes[b]} holds one of: ${[...possiblePoints(rules, b)].sort((x, y) => x - y).join(", ")}`);
    }
  });
  checkBonuses(rules, entries, bonuses || 0);
  return { key, entries, bonuses: bonuses || 0 };
}

/** A card's Yahtzee bonus count checked as Scorecard._check_bonuses does: none without
 * a bonus in the rules or 50 in the Yahtzee box, one per other filled box at most, and a
 * count some game reaches with these boxes (engine.bonusCounts). */
function checkBonuses(rules, entries, n) {
  if (n < 0) throw new LocalError(`yahtzee_bonus=${n}: give a count 0 or more`);
  if (n === 0) return;
  if (rules.nFlags === 1) throw new LocalError(`rules '${rules.name}' have no Yahtzee bonus; remove yahtzee_bonus=${n}`);
  if (entries[rules.yahtzeeBox] !== 50) {
    throw new LocalError(`yahtzee_bonus=${n} needs 50 in the ${rules.boxes[rules.yahtzeeBox]} box`);
  }
  const others = entries.filter((e) => e !== null).length - 1;
  if (n > others) {
    throw new LocalError(`yahtzee_bonus=${n}: each bonus fills another box, but only ${others} other boxes are filled`);
  }
  const counts = engine.bonusCounts(rules, entries);
  if (!(n < 31 && (counts >> n & 1))) {
    const most = Math.max(31 - Math.clz32(counts), 0);
    throw new LocalError(`yahtzee_bonus=${n} cannot occur with these boxes; at most ${most} bonuses fit this card`);
  }
}

export function cardText(card) {
  const rules = engine.getRules(card.key);
  const pairs = card.entries.flatMap((e, b) => (e === null ? [] : [`${rules.boxes[b]}=${e}`]));
  if (card.bonuses) pairs.push(`yahtzee_bonus=${card.bonuses}`);
  return pairs.join(",");
}

/** The card as `GET /api/card` answers it. */
export function describeCard(card) {
  const rules = engine.getRules(card.key);
  const s = engine.cardState(rules, card);
  const entries = {};
  card.entries.forEach((e, b) => { if (e !== null) entries[rules.boxes[b]] = e; });
  const open = rules.boxes.filter((_, b) => card.entries[b] === null);
  return { rules: card.key, text: cardText(card), entries, yahtzee_bonus: card.bonuses,
    upper_subtotal: s.upper, upper_bonus: s.upper >= engine.UPPER_TARGET ? rules.upperBonus : 0,
    total: s.total, open, turn: rules.nBoxes - open.length + 1, full: open.length === 0,
    upper_needed: Math.max(engine.UPPER_TARGET - s.upper, 0) };
}

export function parseDice(text) {
  const t = String(text || "").trim();
  if (!/^[1-6]{5}$/.test(t)) throw new LocalError(`dice '${t}': need exactly 5 faces 1 to 6 (e.g. 22256)`);
  return [...t].map(Number);
}

/** The card after scoring `faces` in box `b` (the Joker applied), or an error. */
export function place(card, faces, b) {
  const rules = engine.getRules(card.key);
  if (card.entries.every((e) => e !== null)) throw new LocalError("the scorecard is full: no box is left to fill");
  if (card.entries[b] !== null) throw new LocalError(`box ${rules.boxes[b]} is already filled (${card.entries[b]})`);
  const s = engine.cardState(rules, card);
  const allowed = engine.placements(rules, engine.rollIndex(faces), s.m, card.entries[rules.yahtzeeBox] === 50);
  const p = allowed.find((x) => x.box === b);
  if (!p) {
    throw new LocalError(`the Joker rule forbids ${rules.boxes[b]} for ${faces.join(" ")}; allowed now: ${allowed.map((x) => rules.boxes[x.box]).join(", ")}`);
  }
  const entries = [...card.entries];
  entries[b] = p.points;
  return { key: card.key, entries, bonuses: card.bonuses + (p.bonus ? 1 : 0) };
}

// ------------------------------------------------------------------ advice
export function checkRollsLeft(value, rules) {
  const n = Number(value);
  if (!/^[0-9]+$/.test(String(value)) || n >= rules.rollsPerTurn) {
    throw new LocalError(`rolls left ${value} is outside 0..${rules.rollsPerTurn - 1}`);
  }
  return n;
}

/** Every option of `faces` on `card` with `rollsLeft`, as /api/advise lists them. */
export async function adviseCard(card, faces, rollsLeft) {
  const table = await tableOf(card.key);
  const rules = table.rules;
  const key = `${card.key}|${cardText(card)}`;
  if (rollsLeft > 0 && !turns.has(key)) {
    const s = engine.cardState(rules, card);
    if (turns.size > 64) turns.clear();
    turns.set(key, engine.turnValues(table, s.m, s.u, s.y));
  }
  return engine.advise(table, card, faces, rollsLeft, turns.get(key) || null).map((o) => (o.action === "keep"
    ? { action: "keep", keep: o.keep, expected_final: o.expected_final, loss: o.loss }
    : { action: "score", box: rules.boxes[o.box], points: o.points, expected_final: o.expected_final,
      bonus: o.bonus, loss: o.loss }));
}

// Practice without a server (a static site): positions that optimal play visits, drawn
// from games this page plays itself with a seeded generator (a seed gives the same
// positions every time here, but not the server's: the dice streams differ), each answer
// graded by expected score exactly as `yahtzee train` grades it (advisor/train.py): the
// answers of GET /api/train, /api/grade and /api/train/session.

import * as engine from "./engine.js";
import { LocalError, adviseCard, describeCard, parseCard, place, tableOf } from "./local_core.js";

const MAX_POSITIONS = 100;
const END_OF_GAME = 3;
const ERROR_LOSS = 1e-9;
const KINDS = ["keep", "box", "upper", "yahtzee", "straights", "end_of_game"];
const SMALL_WORDS = new Set(["of", "a"]);

export const boxLabel = (name) => name.split("_")
  .map((w) => (SMALL_WORDS.has(w) ? w : w.charAt(0).toUpperCase() + w.slice(1))).join(" ");

/** The dice stream of a seed (mulberry32): a die is 1 + floor(6 u). */
function dice(seed) {
  let a = seed >>> 0;
  const next = () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  return { die: () => 1 + Math.floor(6 * next()), below: (n) => Math.floor(n * next()) };
}

function checkCount(text) {
  const n = Number(text === undefined ? 10 : text);
  if (!/^[0-9]+$/.test(String(text === undefined ? 10 : text)) || n < 1 || n > MAX_POSITIONS) {
    throw new LocalError(`positions ${text}: give a whole number 1 to ${MAX_POSITIONS}`);
  }
  return n;
}

function checkSeed(text) {
  if (text === undefined || text === "") return Math.floor(Math.random() * 1000000);
  const n = Number(text);
  if (!/^[0-9]+$/.test(String(text)) || n > 0xffffffff) {
    throw new LocalError(`seed ${text}: give a whole number 0 to ${0xffffffff}`);
  }
  return n;
}

const hasChoice = (card, faces, rollsLeft) => rollsLeft > 0
  || engine.placements(engine.getRules(card.key), engine.rollIndex(faces),
    engine.cardState(engine.getRules(card.key), card).m, card.entries[engine.getRules(card.key).yahtzeeBox] === 50).length > 1;

/** `n` positions of optimal play: one decision of each of `n` games, uniformly among
 * those with a choice. */
async function positionsOfPlay(key, n, seed) {
  const rules = engine.getRules(key);
  const stream = dice(seed);
  const found = [];
  for (let game = 1; game <= n; game += 1) {
    let card = parseCard("", key);
    const decisions = [];
    for (let turn = 0; turn < rules.nBoxes; turn += 1) {
      let faces = Array.from({ length: 5 }, stream.die);
      for (let left = rules.rollsPerTurn - 1; ; left -= 1) {
        if (hasChoice(card, faces, left)) decisions.push({ card, dice: [...faces].sort(), rolls_left: left });
        const best = (await adviseCard(card, faces, left))[0];
        if (best.action === "score") {
          card = place(card, faces, rules.boxes.indexOf(best.box));
          break;
        }
        faces = [...best.keep, ...Array.from({ length: 5 - best.keep.length }, stream.die)];
      }
    }
    const pick = decisions[stream.below(decisions.length)];
    found.push({ ...pick, source: { game } });
  }
  return found;
}

export function describe(option) {
  if (option.action === "keep") return option.keep.length ? `keep ${option.keep.join(" ")}` : "reroll all";
  return `score ${boxLabel(option.box)} ${option.points}${option.bonus ? ` +${option.bonus} bonus` : ""}`;
}

/** The choices in a neutral order: keeps by most dice, then faces; boxes in card order. */
function choices(options, rules) {
  const keeps = options.filter((o) => o.action === "keep")
    .sort((a, b) => b.keep.length - a.keep.length || a.keep.join("").localeCompare(b.keep.join("")));
  const boxes = options.filter((o) => o.action === "score")
    .sort((a, b) => rules.boxes.indexOf(a.box) - rules.boxes.indexOf(b.box));
  return [...keeps, ...boxes];
}

const positionJson = (p) => ({ card: describeCard(p.card), dice: p.dice, rolls_left: p.rolls_left, source: p.source });

/** GET /api/train. */
export async function train(q) {
  const key = parseCard("", q.rules).key;
  const n = checkCount(q.positions);
  const seed = checkSeed(q.seed);
  await tableOf(key);
  const rules = engine.getRules(key);
  const positions = [];
  for (const p of await positionsOfPlay(key, n, seed)) {
    const listed = choices(await adviseCard(p.card, p.dice, p.rolls_left), rules);
    positions.push({ ...positionJson(p), choices: listed.map((o) => (o.action === "keep"
      ? { action: "keep", keep: o.keep, text: describe(o) }
      : { action: "score", box: o.box, points: o.points, bonus: o.bonus, text: describe(o) })) });
  }
  return { rules: key, objective: { kind: "ev" }, seed, positions };
}

/** The option an answer names: `keep 2 2 2`, `reroll all`, `score Twos 6`, a box's name
 * or short name, or the number of a choice in the neutral order. */
function chosenOption(text, options, rules) {
  const line = String(text || "").trim().toLowerCase().split(/\s+/).join(" ");
  if (!line) throw new LocalError("give your choice: keep 2 2 2, reroll all, score twos, or the number of a choice");
  if (/^[0-9]+$/.test(line)) {
    const listed = choices(options, rules);
    const n = Number(line);
    if (n < 1 || n > listed.length) throw new LocalError(`choice ${line} does not exist; give 1..${listed.length}`);
    return listed[n - 1];
  }
  if (line === "reroll all" || line.startsWith("keep ")) {
    const faces = line === "reroll all" ? "" : [...line.slice(5).replace(/ /g, "")].sort().join("");
    const found = options.find((o) => o.action === "keep" && o.keep.join("") === faces);
    if (!found) throw new LocalError(`'${text}' is not a keep of these dice with rolls left`);
    return found;
  }
  const words = line.replace(/^score /, "").replace(/ \+[0-9]+ bonus$/, "").replace(/ -?[0-9]+$/, "");
  const found = options.find((o) => o.action === "score" && (boxLabel(o.box).toLowerCase() === words
    || o.box === words.replace(/ /g, "_")));
  if (!found) throw new LocalError(`'${text}' is not a box these dice may go in now`);
  return found;
}

const longestRun = (faces) => {
  let best = 0;
  let run = 0;
  for (let f = 1; f <= 6; f += 1) { run = faces.includes(f) ? run + 1 : 0; best = Math.max(best, run); }
  return best;
};

/** The kinds of a decision (advisor/train.py's kinds_of): keep or box by the answer, the
 * themes by the best choice. */
function kindsOf(card, best, answer, rules) {
  const open = new Set(card.entries.flatMap((e, b) => (e === null ? [b] : [])));
  const found = new Set([answer.action === "keep" ? "keep" : "box"]);
  const straights = rules.boxes.flatMap((name, b) => (name.endsWith("straight") ? [b] : []));
  const entry = card.entries[rules.yahtzeeBox];
  const pays = entry === null || (entry === 50 && rules.nFlags === 2);
  if (best.action === "keep") {
    const faces = best.keep;
    const counts = [1, 2, 3, 4, 5, 6].map((f) => faces.filter((x) => x === f).length);
    const most = faces.length ? Math.max(...counts) : 0;
    const face = faces.length ? counts.indexOf(most) + 1 : 0;
    if (new Set(faces).size === 1 && faces.length >= 2 && open.has(face - 1)) found.add("upper");
    if (most >= 3 && pays) found.add("yahtzee");
    if (longestRun(faces) >= 3 && straights.some((b) => open.has(b))) found.add("straights");
  } else {
    const b = rules.boxes.indexOf(best.box);
    if (b < engine.N_UPPER) found.add("upper");
    if (b === rules.yahtzeeBox && best.points === 50) found.add("yahtzee");
    if (straights.includes(b)) found.add("straights");
  }
  if (open.size <= END_OF_GAME) found.add("end_of_game");
  return KINDS.filter((k) => found.has(k));
}

async function gradeOne(position, answer) {
  const rules = engine.getRules(position.card.key);
  const options = await adviseCard(position.card, position.dice, position.rolls_left);
  const chosen = chosenOption(answer, options, rules);
  const best = options[0];
  const loss = Math.max(chosen.loss - best.loss, 0);
  return { ...positionJson(position), answer: chosen, best, loss, error: loss > ERROR_LOSS,
    tied: loss <= ERROR_LOSS && chosen !== best, kinds: kindsOf(position.card, best, chosen, rules) };
}

const DICE_RE = /^[1-6]{5}$/;

/** GET /api/grade. */
export async function grade(q) {
  const card = parseCard(q.card, q.rules);
  const rules = engine.getRules(card.key);
  if (!DICE_RE.test(String(q.dice || ""))) throw new LocalError(`dice '${q.dice}': need exactly 5 faces 1 to 6 (e.g. 22256)`);
  const left = Number(q.rolls_left);
  if (!/^[0-9]+$/.test(String(q.rolls_left)) || left >= rules.rollsPerTurn) {
    throw new LocalError(`rolls left ${q.rolls_left} is outside 0..${rules.rollsPerTurn - 1}`);
  }
  if (card.entries.every((e) => e !== null)) throw new LocalError("the scorecard is full: there is nothing left to practise");
  await tableOf(card.key);
  return gradeOne({ card, dice: [...q.dice].map(Number).sort(), rolls_left: left, source: {} }, q.answer);
}

/** GET /api/train/session: the session of a seed with these answers, summed up. */
export async function session(q) {
  const key = parseCard("", q.rules).key;
  const n = checkCount(q.positions);
  if (q.seed === undefined) throw new LocalError("give the seed of the session");
  const seed = checkSeed(q.seed);
  await tableOf(key);
  const answers = String(q.answers || "").trim() ? String(q.answers).split("|").map((a) => a.trim()) : [];
  if (answers.length > n) throw new LocalError(`${answers.length} answers for ${n} positions`);
  const positions = await positionsOfPlay(key, n, seed);
  const graded = [];
  for (let i = 0; i < answers.length; i += 1) {
    try { graded.push(await gradeOne(positions[i], answers[i])); } catch (e) {
      throw new LocalError(`position ${i + 1}: ${e.message}`);
    }
  }
  const total = graded.reduce((t, g) => t + g.loss, 0);
  const kinds = {};
  for (const kind of KINDS) {
    const mine = graded.filter((g) => g.kinds.includes(kind));
    if (!mine.length) continue;
    const sum = mine.reduce((t, g) => t + g.loss, 0);
    kinds[kind] = { decisions: mine.length, errors: mine.filter((g) => g.error).length,
      total_loss: sum, mean_loss: sum / mine.length };
  }
  return { rules: key, objective: { kind: "ev" }, source: "play", seed, decisions: graded.length,
    planned: n, errors: graded.filter((g) => g.error).length, total_loss: total,
    mean_loss: graded.length ? total / graded.length : 0, kinds, complete: graded.length === n,
    positions: graded };
}

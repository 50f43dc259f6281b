// The expected-score advisor in the browser: the rules, the table file of a static site
// (`yahtzee site`) and the turn, written a second time from the rule book (docs/rules.md)
// and held against the Python advisor on thousands of positions (tests/web/test_engine.py).
//
// A turn of state s = (m, u, y) (filled mask, upper subtotal capped at 63, the Yahtzee box
// holds 50 under rules that pay a bonus) over the 462 keeps k (a roll is a keep of five):
//
//   V_0(r) = max over the boxes b the rules allow for r of
//            points + upper bonus + E(next state)   (+ the Yahtzee bonus of r when y = 1)
//   K_j(k) = (1/6) sum_f K_j(k + f)   for |k| < 5,     K_j(r) = V_{j-1}(r)
//   V_j(r) = max over the sub-keeps k of r of K_j(k)
//
// The value of keeping k with j rolls left is total + K_j(k); of box b, total + points +
// upper bonus + Yahtzee bonus + E(next). Options are ranked as solver/game/ties.py does:
// by expected final score (within EV_TIE equal), then keeps before boxes, keeps by index
// (fewest dice first, then faces, lowest first), boxes in card order.
// Plain ES module, no dependencies: the page, node and the tests import it as it is.

export const FACES = 6;
export const DICE = 5;
export const UPPER_TARGET = 63;
export const N_UPPER = 6;
export const EV_TIE = 1e-9;
const SIXTH = 1.0 / FACES;

// ------------------------------------------------------------------ dice
// Keeps of 0 to 5 dice by size, then lexicographically by their sorted faces.
const KEEP_FACES = [];
function addKeeps(size, from, prefix) {
  if (prefix.length === size) { KEEP_FACES.push(prefix); return; }
  for (let f = from; f <= FACES; f += 1) addKeeps(size, f, [...prefix, f]);
}
for (let size = 0; size <= DICE; size += 1) addKeeps(size, 1, []);
export const N_KEEPS = KEEP_FACES.length;  // 462
const countsOf = (faces) => { const c = [0, 0, 0, 0, 0, 0]; for (const f of faces) c[f - 1] += 1; return c; };
const KEEP_COUNTS = KEEP_FACES.map(countsOf);
const KEEP_INDEX = new Map(KEEP_COUNTS.map((c, k) => [c.join(""), k]));
export const FIRST_ROLL_KEEP = KEEP_FACES.findIndex((f) => f.length === DICE);  // 210
export const N_ROLLS = N_KEEPS - FIRST_ROLL_KEEP;  // 252
const KEEP_CHILD = KEEP_COUNTS.map((c, k) => KEEP_FACES[k].length === DICE ? null
  : c.map((_, f) => KEEP_INDEX.get(c.map((n, i) => n + (i === f ? 1 : 0)).join(""))));
const KEEP_SUBS = KEEP_COUNTS.map((c) => c.flatMap((n, f) => n > 0
  ? [KEEP_INDEX.get(c.map((x, i) => x - (i === f ? 1 : 0)).join(""))] : []));
const ROLL_COUNTS = KEEP_COUNTS.slice(FIRST_ROLL_KEEP);
const ROLL_FIVE_FACE = ROLL_COUNTS.map((c) => c.indexOf(DICE));
const FACTORIAL = [1, 1, 2, 6, 24, 120];
const ROLL_PROBABILITY = ROLL_COUNTS.map((c) => c.reduce((w, n) => w / FACTORIAL[n], 120) / 6 ** DICE);
// The keeps of 0 to 4 dice of each roll, by keep index.
const ROLL_REROLLS = ROLL_COUNTS.map((rc) => KEEP_COUNTS.flatMap((kc, k) =>
  k < FIRST_ROLL_KEEP && kc.every((n, f) => n <= rc[f]) ? [k] : []));

/** The roll index of five faces 1..6 (any order). */
export function rollIndex(faces) {
  return KEEP_INDEX.get(countsOf(faces).join("")) - FIRST_ROLL_KEEP;
}
/** The sorted faces of keep k. */
export const keepFaces = (k) => KEEP_FACES[k];

// ------------------------------------------------------------------ rules
const total = (c) => c.reduce((s, n, f) => s + n * (f + 1), 0);
const hasRun = (c, length) => {
  let run = 0;
  for (const n of c) { run = n ? run + 1 : 0; if (run >= length) return true; }
  return false;
};
const isFullHouse = (c) => c.filter((n) => n).sort().join("") === "23";
const same = (c, want) => c.join("") === want;
const ofAKind = (c, n) => { let best = 0; c.forEach((x, f) => { if (x >= n) best = n * (f + 1); }); return best; };
const pairs = (c) => c.flatMap((n, f) => n >= 2 ? [f + 1] : []);
const UPPER = (face) => (c) => face * c[face - 1];
const YAHTZEE_LOWER = {
  three_of_a_kind: (c) => Math.max(...c) >= 3 ? total(c) : 0,
  four_of_a_kind: (c) => Math.max(...c) >= 4 ? total(c) : 0,
  full_house: (c) => isFullHouse(c) ? 25 : 0,
  small_straight: (c) => hasRun(c, 4) ? 30 : 0,
  large_straight: (c) => hasRun(c, 5) ? 40 : 0,
  yahtzee: (c) => Math.max(...c) === 5 ? 50 : 0,
  chance: total,
};
const YATZY_LOWER = {
  one_pair: (c) => pairs(c).length ? 2 * Math.max(...pairs(c)) : 0,
  two_pairs: (c) => pairs(c).length === 2 ? 2 * (pairs(c)[0] + pairs(c)[1]) : 0,
  three_of_a_kind: (c) => ofAKind(c, 3),
  four_of_a_kind: (c) => ofAKind(c, 4),
  small_straight: (c) => same(c, "111110") ? 15 : 0,
  large_straight: (c) => same(c, "011111") ? 20 : 0,
  full_house: (c) => isFullHouse(c) ? total(c) : 0,
  chance: total,
  yatzy: (c) => Math.max(...c) === 5 ? 50 : 0,
};
const UPPER_NAMES = ["twos", "threes", "fours", "fives", "sixes"];
const YAHTZEE = { first: "aces", lower: YAHTZEE_LOWER, yahtzee: "yahtzee" };
const YATZY = { first: "ones", lower: YATZY_LOWER, yahtzee: "yatzy" };
const JOKER_FIXED = { full_house: 25, small_straight: 30, large_straight: 40 };

/** The rule sets of docs/rules.md: boxes, rolls per turn, bonuses, the Joker. */
export const RULE_BOOK = {
  official: { card: YAHTZEE, rolls: 3, upperBonus: 35, yahtzeeBonus: 100, joker: "forced" },
  "free-joker": { card: YAHTZEE, rolls: 3, upperBonus: 35, yahtzeeBonus: 100, joker: "free" },
  "no-bonus": { card: YAHTZEE, rolls: 3, upperBonus: 35, yahtzeeBonus: 0, joker: "none" },
  "two-rolls": { card: YAHTZEE, rolls: 2, upperBonus: 35, yahtzeeBonus: 100, joker: "forced" },
  yatzy: { card: YATZY, rolls: 3, upperBonus: 50, yahtzeeBonus: 0, joker: "none" },
};

const rulesCache = new Map();

/** The rule set called `name`, with its score and Joker tables (built once). */
export function getRules(name) {
  if (rulesCache.has(name)) return rulesCache.get(name);
  const book = Object.hasOwn(RULE_BOOK, name) ? RULE_BOOK[name] : null;  // never Object's own
  if (!book) throw new Error(`unknown rule set '${name}'; valid rule sets: ${Object.keys(RULE_BOOK).join(", ")}`);
  const boxes = [book.card.first, ...UPPER_NAMES, ...Object.keys(book.card.lower)];
  const scorers = [1, 2, 3, 4, 5, 6].map(UPPER).concat(Object.values(book.card.lower));
  const n = boxes.length;
  const scores = scorers.map((score) => ROLL_COUNTS.map(score));  // [box][roll]
  const hasJoker = book.joker !== "none";
  const tier = [];
  const points = [[], []];  // [upper box of the face filled][face][box]
  for (let f = 0; f < FACES; f += 1) {
    const five = [0, 0, 0, 0, 0, 0];
    five[f] = DICE;
    const ordinary = scorers.map((score) => score(five));
    const joker = ordinary.map((p, b) => hasJoker && boxes[b] in JOKER_FIXED ? JOKER_FIXED[boxes[b]] : p);
    tier.push(boxes.map(() => 0));
    if (book.joker === "forced") {
      for (let b = 0; b < n; b += 1) {
        tier[f][b] = b === f ? 0 : (b < N_UPPER ? 2 : 1);
        if (b < N_UPPER && b !== f) joker[b] = 0;
      }
      points[0].push(joker); points[1].push(joker);
    } else if (book.joker === "free") {
      points[0].push(ordinary); points[1].push(joker);
    } else {
      points[0].push(ordinary); points[1].push(ordinary);
    }
  }
  const rules = { name, boxes, nBoxes: n, rollsPerTurn: book.rolls, upperBonus: book.upperBonus,
    yahtzeeBonus: book.yahtzeeBonus, joker: book.joker, hasJoker, yahtzeeBox: boxes.indexOf(book.card.yahtzee),
    nFlags: book.yahtzeeBonus ? 2 : 1, scores, jokerTier: tier, jokerPoints: points };
  rulesCache.set(name, rules);
  return rules;
}

/** The boxes final dice (roll index r) may go in on a card of filled mask m whose
 * Yahtzee box holds 50 when `holds50`: [{ box, points, bonus }] in card order. */
export function placements(rules, r, m, holds50) {
  const f = ROLL_FIVE_FACE[r];
  const joker = rules.hasJoker && f >= 0 && (m >> rules.yahtzeeBox & 1);
  let low = Infinity;
  if (joker) for (let b = 0; b < rules.nBoxes; b += 1) if (!(m >> b & 1)) low = Math.min(low, rules.jokerTier[f][b]);
  const bonus = f >= 0 && holds50 && rules.nFlags === 2 ? rules.yahtzeeBonus : 0;
  const found = [];
  for (let b = 0; b < rules.nBoxes; b += 1) {
    if (m >> b & 1) continue;
    if (joker && rules.jokerTier[f][b] !== low) continue;
    const points = joker ? rules.jokerPoints[m >> f & 1][f][b] : rules.scores[b][r];
    found.push({ box: b, points, bonus });
  }
  return found;
}

/** The Yahtzee-bonus counts some game reaches with these entries (one per box, null
 * while open), as a bit set (bit n set: n bonuses possible; 0 when no game fills the boxes
 * so): solver/game/states.py's bonus_counts, a search over the orders of filling the
 * boxes. A box takes its entry from a roll that is not five alike, or from five alike of
 * some face; once the Yahtzee box is filled, five alike follow the Joker of the rules
 * and, if the box holds 50, earn a bonus. */
export function bonusCounts(rules, entries) {
  const n = rules.nBoxes;
  let full = 0;
  for (let b = 0; b < n; b += 1) if (entries[b] !== null && entries[b] !== undefined) full |= 1 << b;
  const yz = rules.yahtzeeBox;
  const pays = rules.nFlags === 2 && entries[yz] === 50;
  const fits = (points) => {  // the filled boxes b whose entry is points[b]
    let found = 0;
    for (let b = 0; b < n; b += 1) if ((full >> b & 1) && points[b] === entries[b]) found |= 1 << b;
    return found;
  };
  let plain = 0;
  for (let b = 0; b < n; b += 1) {
    if ((full >> b & 1) && rules.scores[b].some((p, r) => ROLL_FIVE_FACE[r] < 0 && p === entries[b])) plain |= 1 << b;
  }
  const fiveRoll = [0, 1, 2, 3, 4, 5].map((f) => ROLL_FIVE_FACE.indexOf(f));
  const five = fiveRoll.map((r) => fits(rules.scores.map((row) => row[r])));
  const topTier = Math.max(...rules.jokerTier.flat());
  const tiers = rules.jokerTier.map((row) => Array.from({ length: topTier + 1 },
    (_, t) => row.reduce((bits, tier, b) => (tier === t ? bits | 1 << b : bits), 0)));
  const jokerFit = [0, 1].map((g) => rules.jokerPoints[g].map(fits));
  const subsets = [];
  for (let sub = full; ; sub = (sub - 1) & full) { subsets.push(sub); if (sub === 0) break; }
  subsets.sort((a, b) => a - b);
  const reach = new Map([[0, 1]]);
  for (const mask of subsets) {
    const counts = reach.get(mask) || 0;
    if (!counts || mask === full) continue;
    const todo = full & ~mask;
    let same = plain;
    let bumped = 0;
    if (rules.hasJoker && (mask >> yz & 1)) {
      const open = ~mask & ((1 << n) - 1);
      for (let f = 0; f < FACES; f += 1) {
        const tier = tiers[f].find((t) => t & open);
        const fit = (tier === undefined ? 0 : tier & open) & jokerFit[mask >> f & 1][f];
        if (pays) bumped |= fit; else same |= fit;
      }
    } else {
      for (let f = 0; f < FACES; f += 1) same |= five[f];
    }
    for (const [targets, added] of [[same & todo, counts], [bumped & todo, counts << 1]]) {
      for (let left = targets; left; left &= left - 1) {
        const bit = left & -left;
        reach.set(mask | bit, (reach.get(mask | bit) || 0) | added);
      }
    }
  }
  return reach.get(full) || 0;
}

/** The state after `points` in open box b of state (m, u, y): [m, u, y, upper bonus now]. */
export function nextState(rules, m, u, y, b, points) {
  if (b < N_UPPER) {
    const bonus = u < UPPER_TARGET && u + points >= UPPER_TARGET ? rules.upperBonus : 0;
    return [m | 1 << b, Math.min(UPPER_TARGET, u + points), y, bonus];
  }
  const flag = b === rules.yahtzeeBox && points > 0 && rules.nFlags === 2 ? 1 : y;
  return [m | 1 << b, u, flag, 0];
}

// ------------------------------------------------------------------ the table file
// Subtotals the filled upper boxes (upper mask) can add up to, capped at 63, and the one
// each shares its values with: every subtotal from which 63 is out of reach shares the
// smallest such one's; once the upper section is full all share the smallest's.
function upperClasses() {
  const reach = [new Set([0])];
  for (let um = 1; um < 64; um += 1) {
    const low = Math.clz32(1) - Math.clz32(um & -um);
    const out = new Set();
    for (const u of reach[um & ~(1 << low)]) for (let k = 0; k <= DICE; k += 1) out.add(Math.min(UPPER_TARGET, u + k * (low + 1)));
    reach.push(out);
  }
  return reach.map((set, um) => {
    let remaining = 0;
    for (let f = 0; f < N_UPPER; f += 1) if (!(um >> f & 1)) remaining += DICE * (f + 1);
    const totals = [...set].sort((a, b) => a - b);
    const hopeless = totals.filter((u) => u + remaining < UPPER_TARGET);
    const cls = new Int32Array(UPPER_TARGET + 1).fill(-1);
    for (const u of totals) cls[u] = remaining === 0 ? totals[0] : (u + remaining < UPPER_TARGET ? hopeless[0] : u);
    const reps = totals.filter((u) => cls[u] === u);
    const rank = new Int32Array(UPPER_TARGET + 1).fill(-1);
    for (const u of totals) rank[u] = reps.indexOf(cls[u]);
    return { rank, reps: reps.length };
  });
}

class TableError extends Error {}

/** E of every turn-start state of one rule set, from a table file of `yahtzee site`:
 * the values (float64) of the states that can occur, one per class of equal subtotals,
 * by mask, then subtotal, then flag, stored as eight byte planes (byte i of every
 * value, least significant first: a static host's gzip packs them better). */
export class Table {
  constructor(rules, bytes) {
    this.rules = rules;
    const classes = upperClasses();
    this.rank = classes.map((c) => c.rank);
    this.offset = new Float64Array(rules.nBoxes ? 1 << rules.nBoxes : 0);
    let n = 0;
    for (let m = 0; m < 1 << rules.nBoxes; m += 1) {
      this.offset[m] = n;
      n += classes[m & 63].reps * this.flags(m);
    }
    const raw = new Uint8Array(bytes.buffer || bytes, bytes.byteOffset || 0, bytes.byteLength);
    if (raw.length !== 8 * n) {
      throw new TableError(`the ${rules.name} table file holds ${raw.length} bytes, not ${8 * n} (${n} states): `
        + "build the site again with yahtzee site");
    }
    const values = new Float64Array(n);
    const out = new Uint8Array(values.buffer);
    const little = new Uint8Array(new Float64Array([1]).buffer)[7] === 0x3f;
    for (let i = 0; i < 8; i += 1) {
      const plane = raw.subarray(i * n, (i + 1) * n);
      const at = little ? i : 7 - i;
      for (let s = 0; s < n; s += 1) out[8 * s + at] = plane[s];
    }
    const bad = values.findIndex((v) => !Number.isFinite(v));  // every stored state occurs
    if (bad >= 0) {
      throw new TableError(`the ${rules.name} table file holds ${values[bad]} at value ${bad}, not an expected score: `
        + "build the site again with yahtzee site");
    }
    this.values = values;
  }

  flags(m) { return this.rules.nFlags === 2 && (m >> this.rules.yahtzeeBox & 1) ? 2 : 1; }

  /** E of state (m, u, y), u capped at 63; an error for a state that cannot occur. */
  value(m, u, y) {
    const r = this.rank[m & 63][Math.min(u, UPPER_TARGET)];
    if (r < 0 || y >= this.flags(m)) throw new TableError(`state (${m}, ${u}, ${y}) cannot occur`);
    return this.values[this.offset[m] + r * this.flags(m) + y];
  }
}

// ------------------------------------------------------------------ the turn
/** The whole turn of state (m, u, y): stages[0] holds V_0 at the roll rows
 * (FIRST_ROLL_KEEP + r), stages[j] (j >= 1) K_j of every keep: points still to come. */
export function turnValues(table, m, u, y) {
  const rules = table.rules;
  u = Math.min(u, UPPER_TARGET);
  const after = new Map();  // successor value by box and entry
  const gain = (b, e) => {
    const key = b * 64 + e;
    if (!after.has(key)) {
      const [nm, nu, ny, bonus] = nextState(rules, m, u, y, b, e);
      after.set(key, b < N_UPPER ? (e + bonus) + table.value(nm, nu, ny) : table.value(nm, nu, ny) + e);
    }
    return after.get(key);
  };
  const work = new Float64Array(N_KEEPS);
  for (let r = 0; r < N_ROLLS; r += 1) {
    let best = -Infinity;
    let bonus = 0;
    for (const p of placements(rules, r, m, y === 1)) {
      best = Math.max(best, gain(p.box, p.points));
      bonus = p.bonus;
    }
    work[FIRST_ROLL_KEEP + r] = best + bonus;
  }
  const stages = [];
  for (let j = 0; j < rules.rollsPerTurn; j += 1) {
    if (j > 0) {
      for (let k = FIRST_ROLL_KEEP - 1; k >= 0; k -= 1) {
        const c = KEEP_CHILD[k];
        work[k] = (work[c[0]] + work[c[1]] + work[c[2]] + work[c[3]] + work[c[4]] + work[c[5]]) * SIXTH;
      }
    }
    stages.push(Float64Array.from(work));
    if (j > 0) for (let k = 1; k < N_KEEPS; k += 1) for (const s of KEEP_SUBS[k]) work[k] = Math.max(work[k], work[s]);
  }
  return stages;
}

/** E of the turn-start state (m, u, y) computed from its turn (equals table.value). */
export function turnExpectation(stages, rolls) {
  const v = stages[rolls - 1].slice();
  if (rolls > 1) for (let k = 1; k < N_KEEPS; k += 1) for (const s of KEEP_SUBS[k]) v[k] = Math.max(v[k], v[s]);
  let out = 0;
  for (let r = 0; r < N_ROLLS; r += 4) {
    const k = FIRST_ROLL_KEEP + r;
    out = (((out + ROLL_PROBABILITY[r] * v[k]) + ROLL_PROBABILITY[r + 1] * v[k + 1])
      + ROLL_PROBABILITY[r + 2] * v[k + 2]) + ROLL_PROBABILITY[r + 3] * v[k + 3];
  }
  return out;
}

/** Every index of `evs`, best first, as solver/game/ties.py's ranked() under the
 * expected score: runs of values within EV_TIE of their first, inside a run by rank. */
export function ranked(evs, ranks) {
  const order = evs.map((_, i) => i).sort((a, b) => evs[b] - evs[a]);
  const runs = [];
  for (const i of order) {
    const run = runs[runs.length - 1];
    if (run && evs[run[0]] - evs[i] <= EV_TIE) run.push(i); else runs.push([i]);
  }
  return runs.flatMap((run) => run.sort((a, b) => ranks[a] - ranks[b]));
}

/** A card as the engine reads it: { entries (one per box, null while open), bonuses }. */
export function cardState(rules, card) {
  let m = 0;
  let upper = 0;
  let sum = 0;
  card.entries.forEach((e, b) => {
    if (e === null || e === undefined) return;
    m |= 1 << b;
    sum += e;
    if (b < N_UPPER) upper += e;
  });
  const flag = rules.nFlags === 2 && card.entries[rules.yahtzeeBox] === 50 ? 1 : 0;
  const total = sum + (upper >= UPPER_TARGET ? rules.upperBonus : 0) + rules.yahtzeeBonus * (card.bonuses || 0);
  return { m, u: Math.min(upper, UPPER_TARGET), upper, y: flag, total };
}

/** Every keep (while rolls are left) and every allowed box of `faces` on `card` with
 * `rollsLeft`, best first: { action, keep (faces) or box (index), points, bonus,
 * expected_final, loss }, as the Python advisor's `advise` (its JSON but for box names).
 * `stages` (turnValues of the card's state) may be passed to answer many rolls of a turn. */
export function advise(table, card, faces, rollsLeft, stages = null) {
  const rules = table.rules;
  if (!(Number.isInteger(rollsLeft) && rollsLeft >= 0 && rollsLeft < rules.rollsPerTurn)) {
    throw new Error(`rolls left ${rollsLeft} is outside 0..${rules.rollsPerTurn - 1}`);
  }
  const s = cardState(rules, card);
  if (s.m === (1 << rules.nBoxes) - 1) throw new Error("the scorecard is full: there is nothing left to advise");
  const r = rollIndex(faces);
  const found = [];
  for (const p of placements(rules, r, s.m, s.y === 1)) {
    const [nm, nu, ny, upperBonus] = nextState(rules, s.m, s.u, s.y, p.box, p.points);
    const toCome = ((p.points + upperBonus) + p.bonus) + table.value(nm, nu, ny);
    found.push({ action: "score", box: p.box, points: p.points, bonus: p.bonus,
      expected_final: s.total + toCome, rank: N_KEEPS + p.box });
  }
  if (rollsLeft > 0) {
    const turn = stages || turnValues(table, s.m, s.u, s.y);
    for (const k of ROLL_REROLLS[r]) {
      found.push({ action: "keep", keep: KEEP_FACES[k], expected_final: s.total + turn[rollsLeft][k], rank: k });
    }
  }
  const evs = found.map((o) => o.expected_final);
  const best = Math.max(...evs);
  return ranked(evs, found.map((o) => o.rank)).map((i) => {
    const { rank, ...option } = found[i];
    option.loss = best - option.expected_final;
    return option;
  });
}

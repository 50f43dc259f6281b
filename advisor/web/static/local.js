// The page without a server: a static site (`yahtzee site`) answers the page's API
// requests here, in the browser, from the expected-score tables of engine.js, with the
// same JSON as `yahtzee serve` (docs/web.md). What needs the server's other tables and
// solves (play to win, targets, "why" figures, chances) is refused with a message saying so.
// The tables, cards and options every answer stands on are in local_core.js.

import * as engine from "./engine.js";
import {
  LocalError, NEEDS_SERVE, adviseCard, boxIndex, checkRollsLeft, describeCard, info, parseCard,
  parseDice, place, ruleSet,
} from "./local_core.js";
import { readRecord, recordAnswer } from "./local_record.js";
import { analyze } from "./local_review.js";
import { grade, session, train } from "./local_train.js";

export {
  LocalError, NEEDS_SERVE, adviseCard, boxIndex, cardText, describeCard, detectSite, parseCard,
  place, tableOf,
} from "./local_core.js";

async function advise(q) {
  for (const p of ["target", "beat", "opponent", "opponents"]) {
    if (q[p] !== undefined) throw new LocalError(`playing for a target or to win ${NEEDS_SERVE}`);
  }
  if (q.why !== undefined) throw new LocalError(`what a choice leads to ("why") ${NEEDS_SERVE}`);
  const card = parseCard(q.card, q.rules);
  const rules = engine.getRules(card.key);
  if (card.entries.every((e) => e !== null)) throw new LocalError("the scorecard is full: there is nothing left to advise");
  const faces = parseDice(q.dice);
  const rollsLeft = checkRollsLeft(q.rolls_left === undefined ? rules.rollsPerTurn - 1 : q.rolls_left, rules);
  if (q.top !== undefined && !/^[0-9]+$/.test(String(q.top))) {  // as the server's --top (0 or more)
    throw new LocalError(`--top '${String(q.top).slice(0, 20)}': give a whole number, 0 or more (0: all)`);
  }
  const options = await adviseCard(card, faces, rollsLeft);
  const top = Number(q.top || 0);
  return { rules: card.key, objective: { kind: "ev" }, dice: [...faces].sort(), rolls_left: rollsLeft,
    card: describeCard(card), options: top > 0 ? options.slice(0, top) : options };
}

// ------------------------------------------------------------------ the API
const GETS = {
  "/api/rules": (q) => info(ruleSet(q.rules)),
  "/api/card": (q) => describeCard(parseCard(q.card, q.rules)),
  "/api/place": (q) => {
    const card = parseCard(q.card, q.rules);
    return describeCard(place(card, parseDice(q.dice), boxIndex(card.key, q.box)));
  },
  "/api/advise": advise,
  "/api/train": train,
  "/api/grade": grade,
  "/api/train/session": session,
};
const POSTS = {
  "/api/record": (body) => recordAnswer(readRecord(body)),
  "/api/analyze": analyze,
  "/api/jobs/analyze": analyze,  // a record played to win or for a target: refused, saying so
};

const NEEDS = {
  "/api/distribution": "the chances of each final score",
  "/api/stats": "the statistics of a card",
  "/api/jobs": "playing for a target or to win",
};

function refused(path) {
  const what = Object.entries(NEEDS).find(([p]) => path.startsWith(p));
  return new LocalError(`${what ? what[1] : path} ${NEEDS_SERVE}`);
}

/** The answer to GET `path` with `params` (an object of strings). */
export async function get(path, params = {}) {
  const answer = GETS[path];
  if (!answer) throw refused(path);
  return answer(params);
}

/** The answer to POST `path` (a query string may follow) with a text body. */
export async function post(path, body) {
  const [where, query] = path.split("?");
  const answer = POSTS[where];
  if (!answer) throw refused(where);
  return answer(body, Object.fromEntries(new URLSearchParams(query || "")));
}

// What the page asks of an objective instead of testing its kind: one type per objective
// the page plays for by itself (the expected score, a target, the chance to win) and one
// for an objective the server describes (GET /api/objective's answer, kept as `info`: a
// tournament's), each built from the objective as the game keeps it (its JSON, docs/json.md,
// plus `from` for the win from N open boxes on, `params` and `info` for one described).
// The types are looked up by kind in one table (TYPES); no other module compares kinds.
// Imports nothing: the page's modules and a static site's answers (local_*.js) ask it.

const EV_JSON = Object.freeze({ kind: "ev" });
const MOST_PLAYERS = 100000;  // of a tournament, as the server takes them

// How a win objective counts a tie: half a win against one opponent, 1/k among k players.
export const tieShare = (objective) => (objective.opponents ? "a tie of k players at the top counts 1/k"
  : "a tie counts as half");

// data has exactly these keys (a record's noted objective, as the server's from_json reads it)
const sameKeys = (data, keys) => Object.keys(data).sort().join(",") === [...keys].sort().join(",");

class Objective {
  constructor(json) {
    this.json = json || EV_JSON;
  }

  /** What the server said of the objective (GET /api/objective), or null. */
  get info() { return this.json.info || null; }

  /** True when a turn under the objective is solved (in the background) to be ranked by it. */
  get solvesTurns() { return true; }

  /** The key of an option's figure under the objective (p_target, win_share; null: none). */
  get key() { return this.info ? this.info.key : this.ownKey; }

  get ownKey() { return null; }

  /** What the objective's figure is, in words: "the chance of 250 or more". */
  get words() { return this.info ? this.info.words : this.ownWords; }

  get ownWords() { return "the expected final score"; }

  /** The heading of the options' chance column. */
  get header() { return this.info ? this.info.header : "chance"; }

  /** The title of the options when they are ranked by the objective. */
  get adviceTitle() {
    return this.info ? `Your choices, best ${this.words.replace(/^the /, "")} first` : this.ownTitle;
  }

  get ownTitle() { return `Your choices, best ${this.ownWords.replace(/^the /, "")} first`; }

  /** Decimals of a loss in percentage points of the figure (more where the figure is
   * tiny: a big tournament's share of first place). */
  get lossDecimals() { return this.info && this.info.loss_decimals ? this.info.loss_decimals : 2; }

  /** The tooltip of an option's chance ("" for none). */
  get chanceTitle() { return this.info ? `${this.info.words} (a tie shared)` : ""; }

  /** An option's figure under the objective (a probability), or undefined. */
  chanceOf(option) { return this.key === null ? undefined : option[this.key]; }

  /** The query that asks /api/advise and /api/jobs/turn for the objective on the turn of
   * `turn` ({ others: the other players' cards, open: the player's open boxes, winFrom }),
   * or null for the expected score. */
  params(turn) { return this.json.params || this.ownParams(turn); }

  ownParams() { return null; }

  /** The query of a review (POST /api/jobs/analyze) by the objective among `players`
   * players, or null for a review by expected score. */
  reviewParams() { return null; }

  /** What a review under the objective is judged by, in words. */
  get reviewWords() { return this.words; }

  /** How a game played for the objective is said ("for a target", "to win"). */
  get playedFor() { return "to win"; }

  /** True when the Chances panel draws each player's chance to win, turn by turn. */
  get tracksWinChances() { return false; }

  /** The cards of the opponents the objective is played against (a record's note). */
  get against() { return []; }

  /** The game's objective of a record noted so (POST /api/record's `objective` is this
   * one's JSON; `page` its `objective_page`): described by the server, or the expected score. */
  fromRecord(page) {
    if (page && page.params && page.key) return { ...page.objective, params: page.params, info: page };
    return { kind: "ev" };
  }
}

class ExpectedScore extends Objective {
  get solvesTurns() { return false; }

  get ownTitle() { return "Your choices, best first"; }

  get playedFor() { return "for the expected score"; }

  static fromForm(kind) { return { kind }; }

  static fromNote(data) { return sameKeys(data, ["kind"]) ? { kind: "ev" } : null; }
}

class Target extends Objective {
  get ownKey() { return "p_target"; }

  get ownWords() { return `the chance of ${this.json.target} or more`; }

  get ownTitle() { return `Your choices, best chance of ${this.json.target}+ first`; }

  ownParams() { return { target: String(this.json.target) }; }

  reviewParams() { return { target: String(this.json.target) }; }

  get playedFor() { return "for a target"; }

  fromRecord() { return { kind: "target", target: this.json.target }; }

  static fromForm(kind, $) {
    const target = Number($("target-input").value);
    if (!Number.isInteger(target) || target < 1) throw new Error("the score to reach is a whole number, 1 or more");
    return { kind, target };
  }

  static fromNote(data) {
    return sameKeys(data, ["kind", "target"]) && Number.isInteger(data.target) && data.target >= 1 ? data : null;
  }
}

// The chance to win: against the opponents of a record's note, or against the other
// players of the page's game (their cards as they stand) from `from` open boxes on.
class Win extends Objective {
  get ownKey() { return "win_share"; }

  get ownWords() { return "the chance to win"; }

  get ownTitle() { return `Your choices, best chance to win first (${tieShare(this.json)})`; }

  get chanceTitle() { return this.info ? super.chanceTitle : `chance to win (${tieShare(this.json)})`; }

  ownParams(turn) {
    const { opponent, opponents } = this.json;
    if (opponent !== undefined) return { opponent };
    if (opponents !== undefined) return { opponents: opponents.join(";") };
    if (!turn.others.length || turn.open > turn.winFrom) return null;
    return turn.others.length === 1 ? { opponent: turn.others[0] } : { opponents: turn.others.join(";") };
  }

  reviewParams(players, winFrom) {
    return players > 1 ? { objective: "win", win_from: String(winFrom) } : null;
  }

  get reviewWords() { return "each turn's chance to win"; }

  get tracksWinChances() { return true; }

  get against() {
    const { opponent, opponents } = this.json;
    return opponent !== undefined ? [opponent] : opponents || [];
  }

  fromRecord(page) {
    const { each_turn: eachTurn, win_from: from, opponent, opponents } = this.json;
    if (eachTurn) return { kind: "win", from };
    if (opponent !== undefined) return { kind: "win", opponent };
    if (opponents !== undefined) return { kind: "win", opponents };
    return super.fromRecord(page);
  }

  static fromForm(kind, $) {
    const input = $("win-from-input");
    if ($("win-from-when").value === "first") return { kind, from: Number(input.max) };
    const from = Number(input.value);
    if (!Number.isInteger(from) || from < 1 || from > Number(input.max)) {
      throw new Error(`the number of boxes open when the chance to win is worked out is 1 to ${input.max}`);
    }
    return { kind, from };
  }

  static fromNote(data) {
    const cards = sameKeys(data, ["kind", "opponent"]) ? [data.opponent]
      : sameKeys(data, ["kind", "opponents"]) && Array.isArray(data.opponents) ? data.opponents : null;
    return cards && cards.length && cards.every((c) => typeof c === "string") ? data : null;
  }
}

// An objective whose words, key and query the server gives (a tournament's, and any the page
// has no type of its own for): what the server said of it (`info`, `params`) answers for it.
class Described extends Objective {
  get ownKey() { return "win_share"; }

  get ownWords() { return "the chance to win"; }

  static fromForm(kind) { return { kind }; }

  get playedFor() {
    return this.json.players ? `to top a tournament of ${this.json.players}` : "to win";
  }

  // A tournament against the default field (expected-score play), as the server's from_json
  // reads it; a field of observed scores is the server's to read.
  static fromNote(data) {
    const players = data.players;
    const field = typeof data.field === "string" ? data.field.trim().toLowerCase() : null;
    return data.kind === "tournament" && sameKeys(data, ["kind", "players", "field"])
      && Number.isInteger(players) && players >= 2 && players <= MOST_PLAYERS
      && field === "optimal" ? { ...data, field } : null;
  }
}

const TYPES = { ev: ExpectedScore, target: Target, win: Win, tournament: Described };
const typeOf = (kind) => (Object.hasOwn(TYPES, kind) ? TYPES[kind] : Described);

/** The objective of its JSON as the game or the server keeps it (null: the expected score). */
export const objectiveOf = (json) => new (typeOf((json || EV_JSON).kind))(json);

/** The game's objective of the setup form's choice `kind` (its fields read through `$`);
 * a described one's fields are asked of the server by the caller. */
export const objectiveOfForm = (kind, $) => typeOf(kind).fromForm(kind, $);

/** The objective of a record's noted JSON as the server's from_json reads it, or null when
 * the note is none that a static site reads (the expected score, a target, a win, a
 * tournament against expected-score play). */
export const objectiveOfNote = (data) => typeOf(data.kind).fromNote(data);

// The page's words and numbers for a choice, a loss or a job's progress (an objective's:
// objective.js).

import { fixed } from "./percent.js";
import { rules } from "./state.js";

export const ordinal = (n) => `${n}${n % 10 === 1 && n % 100 !== 11 ? "st" : n % 10 === 2 && n % 100 !== 12 ? "nd"
  : n % 10 === 3 && n % 100 !== 13 ? "rd" : "th"}`;

export function describe(option) {
  if (option.action === "keep") return option.keep.length ? `Keep ${option.keep.join(" ")}` : "Reroll all";
  const label = rules.boxes.find((b) => b.name === option.box).label;
  return `${label} ${option.points}${option.bonus ? ` +${option.bonus} bonus` : ""}`;
}

// As the CLI words an option: "keep 2 2 2", "reroll all", "score Twos 6".
export function phrase(option) {
  const text = describe(option);
  return option.action === "keep" ? text.charAt(0).toLowerCase() + text.slice(1) : `score ${text}`;
}

// Where a queued job stands: ", number 2 in the queue" (the server runs long jobs in turn).
export const queuePlace = (job) => (job.position ? `, number ${job.position} in the queue` : "");

// ", about 40 s left": the work still to do at the rate measured so far (the server counts
// the solve's progress in work, each level of the DP by its size), once a twentieth of it
// is done; "" before.
// The server's estimate (the work left at the rate of the recent work: it follows a
// change of the machine's speed), shown from a twentieth of the work and 3 s on.
export function timeLeft(job) {
  if (job.seconds_left === undefined || job.seconds_left === null) return "";
  const left = Math.max(job.seconds_left, 1);
  return left < 90 ? `, about ${Math.round(left)} s left` : `, about ${Math.round(left / 60)} min left`;
}

export const percent = (p) => fixed(p, p > 0.999 || p < 0.001 ? 2 : 1);
// An option's chance beside losses of `digits` decimals: as percent() for losses of 2, with
// as many decimals as the losses have beyond that (0.0073% and 0.0051%, not 0.01% twice).
export const chanceText = (p, digits) => (digits > 2 ? fixed(p, digits) : percent(p));
const signed = (x, digits = 2) => `${x >= 0 ? "+" : "−"}${Math.abs(x).toFixed(digits)}`;
// A loss or luck in its unit (analysis): points, or percentage points of a probability
// with `digits` decimals (the analysis's loss_decimals: more for a big tournament).
export const lossText = (x, unit, digits = 2) => (unit === "probability" ? `${(100 * x).toFixed(digits)} pp` : x.toFixed(2));
export const signedIn = (x, unit, digits = 2) => (unit === "probability" ? `${signed(100 * x, digits)} pp` : signed(x));

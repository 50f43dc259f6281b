// A probability written as a percentage that rounds to "100%" or "0%" only when it is
// exactly that (a certainty up to float rounding, EXACT; no chance at all): past the
// digits shown it says ">99.9%" or "<0.1%". The CLI's why lines follow the same rule.

export const EXACT = 1e-12;

// p as a percentage with `digits` decimals, never rounded to 100 % or 0 %.
export function fixed(p, digits) {
  if (p >= 1 - EXACT) return "100%";
  if (p <= 0) return "0%";
  const text = (100 * p).toFixed(digits);
  const least = 10 ** -digits;
  if (Number(text) >= 100) return `>${(100 - least).toFixed(digits)}%`;
  if (Number(text) <= 0) return `<${least.toFixed(digits)}%`;
  return `${text}%`;
}

// The why's figures: whole percents from 9.5 % to 99.5 %, tenths outside them.
export const pct = (p) => fixed(p, p >= 0.095 && p < 0.995 ? 0 : 1);

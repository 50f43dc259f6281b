// The JavaScript engine (advisor/web/static/engine.js) against the Python advisor's answers
// (tests/web/test_engine.py writes them): the same in node and in Chromium. check() returns
// { positions, options, states, mismatches (the first 20, described) }.
export function check(engine, cases, tableBytes) {
  const mismatches = [];
  const bad = (text) => { if (mismatches.length < 20) mismatches.push(text); };
  let positions = 0;
  let options = 0;
  let states = 0;
  for (const [name, set] of Object.entries(cases)) {
    const rules = engine.getRules(name);
    // The rule book: every box's points for every roll, and the Joker's tables.
    if (JSON.stringify(rules.scores) !== JSON.stringify(set.scores)) bad(`${name}: box scores differ`);
    if (JSON.stringify(rules.jokerTier) !== JSON.stringify(set.joker_tier)) bad(`${name}: Joker tiers differ`);
    if (JSON.stringify(rules.jokerPoints) !== JSON.stringify(set.joker_points)) bad(`${name}: Joker points differ`);
    if (JSON.stringify(rules.boxes) !== JSON.stringify(set.boxes)) bad(`${name}: boxes differ`);
    const table = new engine.Table(rules, tableBytes[name]);
    for (const [m, u, y, e] of set.states) {
      states += 1;
      const got = table.value(m, u, y);
      if (got !== e) bad(`${name}: E(${m}, ${u}, ${y}) is ${got}, not ${e}`);
      if (m !== (1 << rules.nBoxes) - 1) {
        const again = engine.turnExpectation(engine.turnValues(table, m, u, y), rules.rollsPerTurn);
        if (Math.abs(again - e) > 1e-12) bad(`${name}: the turn of (${m}, ${u}, ${y}) averages ${again}, not ${e}`);
      }
    }
    for (const c of set.positions) {
      positions += 1;
      const got = engine.advise(table, { entries: c.entries, bonuses: c.bonuses }, c.dice, c.rolls_left);
      const where = `${name} card ${JSON.stringify(c.card)} dice ${c.dice.join("")} rolls left ${c.rolls_left}`;
      if (got.length !== c.options.length) { bad(`${where}: ${got.length} options, not ${c.options.length}`); continue; }
      c.options.forEach((want, i) => {
        options += 1;
        const o = got[i];
        const same = want.action === o.action && (want.action === "keep"
          ? JSON.stringify(want.keep) === JSON.stringify(o.keep)
          : want.box === rules.boxes[o.box] && want.points === o.points && want.bonus === o.bonus);
        if (!same) bad(`${where}: option ${i} is ${JSON.stringify(o)}, not ${JSON.stringify(want)}`);
        else if (Math.abs(o.expected_final - want.expected_final) > 1e-12 || Math.abs(o.loss - want.loss) > 1e-12) {
          bad(`${where}: option ${i} is worth ${o.expected_final} (loss ${o.loss}), not ${want.expected_final} (loss ${want.loss})`);
        }
      });
    }
  }
  return { positions, options, states, mismatches };
}

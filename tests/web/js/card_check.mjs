// verdicts(local, cases): the page's answer (static/local.js) to each case, as the test
// compares it with the Python parser's: { kind: "card", text, rules } -> the card's total,
// { kind: "rules", name } -> the rule set's name, { kind: "advise", params } -> the
// number of options (GET /api/advise), { kind: "record", text } -> each
// player's total; or { refused: message, type: the error's class }.
export async function verdicts(local, cases) {
  const out = [];
  for (const c of cases) {
    try {
      if (c.kind === "card") {
        out.push({ total: local.describeCard(local.parseCard(c.text, c.rules)).total });
      } else if (c.kind === "advise") {
        out.push({ options: (await local.get("/api/advise", c.params)).options.length });
      } else if (c.kind === "rules") {
        out.push({ name: (await local.get("/api/rules", { rules: c.name })).name });
      } else {
        const answer = await local.post("/api/record", c.text);
        out.push({ totals: Object.entries(answer.cards).map(([p, card]) => [p, card.total]) });  // pairs: "__proto__" survives
      }
    } catch (e) {
      out.push({ refused: e.message, type: e.constructor.name });
    }
  }
  return out;
}

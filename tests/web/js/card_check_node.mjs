// node card_check_node.mjs STATIC SITE_JSON CASES: verdicts() of card_check.mjs as JSON,
// with static/local.js reading SITE_JSON as its site.json.
import { readFileSync } from "node:fs";
import { pathToFileURL } from "node:url";
import { verdicts } from "./card_check.mjs";

const [staticDir, sitePath, casesPath] = process.argv.slice(2);
const site = JSON.parse(readFileSync(sitePath, "utf8"));
globalThis.fetch = async (url) => {  // site.json only: no table is fetched here
  if (!String(url).endsWith("site.json")) throw new TypeError(`no ${url} in this test`);
  return { ok: true, json: async () => site };
};
const local = await import(pathToFileURL(`${staticDir}/local.js`).href);
await local.detectSite();
const cases = JSON.parse(readFileSync(casesPath, "utf8"));
process.stdout.write(JSON.stringify(await verdicts(local, cases)));

// node engine_check_node.mjs ENGINE CASES DIR: check() of engine_check.mjs, its result as JSON.
import { readFileSync } from "node:fs";
import { pathToFileURL } from "node:url";
import { check } from "./engine_check.mjs";

const [enginePath, casesPath, dir] = process.argv.slice(2);
const engine = await import(pathToFileURL(enginePath).href);
const cases = JSON.parse(readFileSync(casesPath, "utf8"));
const tables = Object.fromEntries(Object.keys(cases).map((name) => [name, readFileSync(`${dir}/${name}.f64planes`)]));
const started = performance.now();
const result = check(engine, cases, tables);
result.seconds = (performance.now() - started) / 1000;
process.stdout.write(JSON.stringify(result));

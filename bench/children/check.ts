/**
 * Child process: `photon-conformance check FILE` as the CLI runs it (`checkFile`, default
 * bounds), or with `--raw` the floor: the same file read in the same 64 KiB chunks, split into
 * lines and `JSON.parse`d, nothing judged. Prints one JSON line: ms, bytes, lines, peak RSS.
 *   node --import tsx/esm --conditions=photon-indexer-kit-source bench/children/check.ts FILE [--raw]
 */
import { createReadStream, statSync } from "node:fs";
import { checkFile } from "../../conformance/offline.js";

const file = process.argv[2]!;
const raw = process.argv.includes("--raw");
const t0 = performance.now();
let lines = 0;
if (raw) {
  let rest = "";
  for await (const chunk of createReadStream(file, { highWaterMark: 65536, encoding: "utf8" })) {
    const parts = (rest + (chunk as string)).split("\n");
    rest = parts.pop()!;
    for (const p of parts) if (p.length > 0) JSON.parse(p), lines++;
  }
  if (rest.length > 0) JSON.parse(rest), lines++;
} else {
  const summary = await checkFile({ file });
  lines = summary.results.length;
}
const ms = performance.now() - t0;
process.stdout.write(`${JSON.stringify({ ms, bytes: statSync(file).size, lines, maxRssBytes: process.resourceUsage().maxRSS * 1024 })}\n`);

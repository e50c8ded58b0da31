/**
 * Summarises a V8 CPU profile (`node --cpu-prof`): the functions with the most self time,
 * and the most total (inclusive) time, with their file and line.
 *   node --import tsx/esm bench/tools/cpuprofile-top.ts FILE.cpuprofile [--top 25] [--match TEXT]
 *   node --import tsx/esm bench/tools/cpuprofile-top.ts FILE.cpuprofile --callers FUNCTION   (time by immediate caller)
 */
import { readFileSync } from "node:fs";
import { relative } from "node:path";
import { fileURLToPath } from "node:url";

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number; columnNumber: number };
  hitCount?: number;
  children?: number[];
}

interface CpuProfile {
  nodes: ProfileNode[];
  startTime: number;
  endTime: number;
  samples: number[];
  timeDeltas: number[];
}

const ROOT = fileURLToPath(new URL("../..", import.meta.url));

function where(frame: ProfileNode["callFrame"]): string {
  let url = frame.url.replace(/^file:\/\//, "");
  if (url.startsWith("/")) url = relative(ROOT, url);
  return url ? `${url}:${frame.lineNumber + 1}` : "(native)";
}

/** Where the time of functions named `name` comes from: inclusive time by immediate caller. */
export function callers(profile: CpuProfile, name: string, top = 15): string {
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const parent = new Map<number, number>();
  for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
  const selfUs = new Map<number, number>();
  profile.samples.forEach((id, i) => selfUs.set(id, (selfUs.get(id) ?? 0) + (profile.timeDeltas[i] ?? 0)));
  const byCaller = new Map<string, number>();
  for (const [id, us] of selfUs) {
    // The outermost frame named `name` on this stack, and its caller.
    let hit: number | undefined;
    for (let cur: number | undefined = id; cur !== undefined; cur = parent.get(cur)) if (byId.get(cur)!.callFrame.functionName === name) hit = cur;
    if (hit === undefined) continue;
    const p = parent.get(hit);
    const frame = p === undefined ? null : byId.get(p)!.callFrame;
    const k = frame ? `${frame.functionName || "(anonymous)"}  ${where(frame)}` : "(root)";
    byCaller.set(k, (byCaller.get(k) ?? 0) + us);
  }
  return [...byCaller]
    .sort((a, b) => b[1] - a[1])
    .slice(0, top)
    .map(([k, us]) => `${(us / 1000).toFixed(1).padStart(8)} ms  ${k}`)
    .join("\n");
}

export function summarise(profile: CpuProfile, top = 25, match: string | null = null): string {
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const parent = new Map<number, number>();
  for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
  // Sample time per node from the time deltas.
  const selfUs = new Map<number, number>();
  profile.samples.forEach((id, i) => selfUs.set(id, (selfUs.get(id) ?? 0) + (profile.timeDeltas[i] ?? 0)));
  const total = [...selfUs.values()].reduce((a, b) => a + b, 0);
  const key = (n: ProfileNode) => `${n.callFrame.functionName || "(anonymous)"}  ${where(n.callFrame)}`;
  const self = new Map<string, number>();
  const inclusive = new Map<string, number>();
  for (const [id, us] of selfUs) {
    const node = byId.get(id)!;
    self.set(key(node), (self.get(key(node)) ?? 0) + us);
    const seen = new Set<string>();
    for (let cur: number | undefined = id; cur !== undefined; cur = parent.get(cur)) {
      const k = key(byId.get(cur)!);
      if (seen.has(k)) continue; // recursion counts once
      seen.add(k);
      inclusive.set(k, (inclusive.get(k) ?? 0) + us);
    }
  }
  const pct = (us: number) => `${((100 * us) / total).toFixed(1).padStart(5)}%`;
  const list = (m: Map<string, number>) =>
    [...m]
      .filter(([k]) => match === null || k.includes(match))
      .sort((a, b) => b[1] - a[1])
      .slice(0, top)
      .map(([k, us]) => `${pct(us)}  ${(us / 1000).toFixed(1).padStart(8)} ms  ${k}`)
      .join("\n");
  return `total ${(total / 1000).toFixed(0)} ms sampled\n\nself time:\n${list(self)}\n\ninclusive time:\n${list(inclusive)}\n`;
}

const [file, ...rest] = process.argv.slice(2);
if (file === undefined) {
  process.stderr.write("usage: cpuprofile-top.ts FILE.cpuprofile [--top N] [--match TEXT]\n");
  process.exit(2);
}
const at = (flag: string) => {
  const i = rest.indexOf(flag);
  return i >= 0 ? rest[i + 1] : undefined;
};
const profile = JSON.parse(readFileSync(file, "utf8")) as CpuProfile;
const callersOf = at("--callers");
if (callersOf !== undefined) process.stdout.write(`callers of ${callersOf} (inclusive):\n${callers(profile, callersOf, Number(at("--top") ?? 15))}\n`);
else process.stdout.write(summarise(profile, Number(at("--top") ?? 25), at("--match") ?? null));

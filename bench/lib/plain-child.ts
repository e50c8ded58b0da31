/**
 * Long-running plain-Node children (no tsx loader: the process an operator runs), ready once a
 * line of their stdout matches; every one left running is killed when this process exits. And
 * the CPU time a process has used, read from /proc without disturbing it.
 */
import { type ChildProcess, spawn } from "node:child_process";
import { readdirSync, readFileSync } from "node:fs";
import { ROOT } from "./figure.js";

const running = new Set<ChildProcess>();
process.once("exit", () => {
  for (const child of running) child.kill("SIGKILL");
});

export interface PlainChild {
  readonly pid: number;
  /** The match of the ready pattern against the line that made it ready. */
  readonly ready: RegExpExecArray;
  /** SIGTERM (SIGKILL after 10 s); resolves with the exit code. */
  stop(): Promise<number | null>;
}

/** The environment without PHOTON_* settings, which would change what the CLI does. */
const cleanEnv = (): NodeJS.ProcessEnv => Object.fromEntries(Object.entries(process.env).filter(([k]) => !k.startsWith("PHOTON_")));

/** Spawns `node ARGS` and resolves once a stdout line matches `ready`; rejects with its output if it exits or stalls first. */
export function startPlain(args: readonly string[], ready: RegExp, timeoutMs = 60_000): Promise<PlainChild> {
  const child = spawn(process.execPath, args, { cwd: ROOT, env: cleanEnv(), stdio: ["ignore", "pipe", "pipe"] });
  running.add(child);
  const exited = new Promise<number | null>((done) => child.once("exit", (code) => (running.delete(child), done(code))));
  let out = "";
  let err = "";
  child.stderr.setEncoding("utf8").on("data", (c: string) => (err += c.slice(0, 4000)));
  const stop = async () => {
    if (running.has(child)) child.kill("SIGTERM");
    const timer = setTimeout(() => child.kill("SIGKILL"), 10_000);
    const code = await exited;
    clearTimeout(timer);
    return code;
  };
  return new Promise((resolve, reject) => {
    let settled = false;
    const fail = (why: string) => {
      if (settled) return;
      settled = true;
      void stop();
      reject(new Error(`node ${args.join(" ").slice(0, 200)} ${why}:\n${out}${err}`));
    };
    const timer = setTimeout(() => fail(`printed nothing matching ${ready} within ${timeoutMs} ms`), timeoutMs);
    void exited.then((code) => (clearTimeout(timer), fail(`exited (${code}) before it was ready`)));
    const onData = (chunk: string) => {
      out += chunk;
      const match = ready.exec(out);
      if (match === null) return;
      clearTimeout(timer);
      settled = true;
      child.stdout.off("data", onData).resume(); // what it prints later is dropped
      resolve({ pid: child.pid as number, ready: match, stop });
    };
    child.stdout.setEncoding("utf8").on("data", onData);
  });
}

/** CPU ms the process has used: its threads' `se.sum_exec_runtime` (/proc/PID/task/TID/sched, µs precision), and which threads they were. */
function threadCpu(pid: number): { ms: number; threads: string; wakeups: number } | null {
  try {
    const tids = readdirSync(`/proc/${pid}/task`).sort();
    let ms = 0;
    let wakeups = 0;
    for (const tid of tids) {
      const sched = readFileSync(`/proc/${pid}/task/${tid}/sched`, "utf8");
      const line = /^se\.sum_exec_runtime\s*:\s*([\d.]+)$/m.exec(sched);
      if (line === null) return null;
      ms += Number(line[1]);
      if (tid === String(pid)) wakeups = Number(/^nr_voluntary_switches\s*:\s*(\d+)$/m.exec(sched)?.[1] ?? Number.NaN);
    }
    return { ms, threads: tids.join(","), wakeups };
  } catch {
    return null; // no /proc/…/sched on this kernel, or a thread ended while it was read
  }
}

/** utime + stime from /proc/PID/stat, in ms (clock ticks of 10 ms: coarse, but it keeps ended threads' time). */
function statCpuMs(pid: number): number {
  const fields = readFileSync(`/proc/${pid}/stat`, "utf8")
    .replace(/^.*\) /s, "")
    .split(" ");
  return (Number(fields[11]) + Number(fields[12])) * 10; // the 14th and 15th fields
}

export interface CpuUsed {
  readonly ms: number;
  /** From the threads' clocks (µs); false: from ticks of 10 ms, because a thread started or ended meanwhile. */
  readonly precise: boolean;
  /** Times the main thread went to sleep and woke (its voluntary context switches); NaN without /proc/…/sched. */
  readonly wakeups: number;
}

/** Reads a process's CPU time now; `since()` is what it used since. */
export function cpuMeter(pid: number): { since(): CpuUsed } {
  const threads0 = threadCpu(pid);
  const stat0 = statCpuMs(pid);
  return {
    since() {
      const threads1 = threadCpu(pid);
      if (threads0 === null || threads1 === null) return { ms: statCpuMs(pid) - stat0, precise: false, wakeups: Number.NaN };
      const wakeups = threads1.wakeups - threads0.wakeups;
      if (threads0.threads === threads1.threads) return { ms: threads1.ms - threads0.ms, precise: true, wakeups };
      return { ms: statCpuMs(pid) - stat0, precise: false, wakeups };
    },
  };
}

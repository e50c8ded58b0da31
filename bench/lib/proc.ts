/**
 * Child processes of the benchmarks: servers that run on the other core while the bench
 * process measures, and one-shot commands timed from spawn to exit. Every child started
 * here is tracked and stopped by `stopAll` (figure files call it in `finally`, and on exit
 * or a signal), so a run leaves nothing behind.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { fileURLToPath } from "node:url";

const ROOT = fileURLToPath(new URL("../..", import.meta.url));

/** Node flags that run TypeScript sources the way `npm run bench` does. */
export const TS_FLAGS = ["--import", "tsx/esm", "--conditions=photon-indexer-kit-source"] as const;

const live = new Set<ChildProcess>();

function killTree(child: ChildProcess, signal: NodeJS.Signals): void {
  if (child.exitCode !== null || child.signalCode !== null) return;
  try {
    child.kill(signal);
  } catch {
    // already gone
  }
}

process.once("exit", () => {
  for (const child of live) killTree(child, "SIGKILL");
});
for (const signal of ["SIGINT", "SIGTERM"] as const) {
  process.once(signal, () => {
    for (const child of live) killTree(child, "SIGKILL");
    process.exit(130);
  });
}

function exited(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => child.once("exit", () => resolve()));
}

/** Stops one child: SIGTERM, then SIGKILL after `graceMs`. */
export async function stop(child: ChildProcess, graceMs = 3000): Promise<void> {
  killTree(child, "SIGTERM");
  const timer = setTimeout(() => killTree(child, "SIGKILL"), graceMs);
  await exited(child);
  clearTimeout(timer);
  live.delete(child);
}

export async function stopAll(): Promise<void> {
  await Promise.all([...live].map((c) => stop(c)));
}

export interface Server<T> {
  readonly info: T;
  readonly pid: number;
  stop(): Promise<void>;
}

/**
 * Starts a TypeScript child (`bench/children/*.ts`) that prints one JSON line when it is ready
 * (its url and facts), and keeps running until stopped.
 */
export function startChild<T>(script: string, args: readonly string[] = [], timeoutMs = 120_000): Promise<Server<T>> {
  const child = spawn(process.execPath, [...TS_FLAGS, script, ...args], { cwd: ROOT, stdio: ["ignore", "pipe", "inherit"] });
  live.add(child);
  return new Promise((resolve, reject) => {
    let buffer = "";
    const timer = setTimeout(() => {
      void stop(child);
      reject(new Error(`${script} did not report ready within ${timeoutMs} ms`));
    }, timeoutMs);
    const onData = (chunk: Buffer) => {
      buffer += chunk.toString("utf8");
      const nl = buffer.indexOf("\n");
      if (nl < 0) return;
      clearTimeout(timer);
      child.stdout!.off("data", onData);
      child.stdout!.resume(); // anything else it prints is dropped
      try {
        const info = JSON.parse(buffer.slice(0, nl)) as T;
        resolve({ info, pid: child.pid!, stop: () => stop(child) });
      } catch (err) {
        void stop(child);
        reject(new Error(`${script} printed a bad ready line: ${buffer.slice(0, 200)} (${(err as Error).message})`));
      }
    };
    child.stdout!.on("data", onData);
    child.once("exit", (code, signal) => {
      live.delete(child);
      clearTimeout(timer);
      reject(new Error(`${script} exited (${code ?? signal}) before it was ready`));
    });
  });
}

export interface PlainChild {
  readonly pid: number;
  /** The match of the ready pattern against the output that made it ready. */
  readonly ready: RegExpExecArray;
  /** SIGTERM (SIGKILL after 10 s); resolves with the exit code. */
  stop(): Promise<number | null>;
}

/** The environment without PHOTON_* settings, which would change what the CLI does. */
const withoutPhotonSettings = (): NodeJS.ProcessEnv => Object.fromEntries(Object.entries(process.env).filter(([k]) => !k.startsWith("PHOTON_")));

/**
 * Starts `node ARGS` without tsx's loader (the process an operator runs: the compiled CLI) and
 * resolves once its stdout matches `ready`; rejects with its output if it exits or stalls first.
 */
export function startPlain(args: readonly string[], ready: RegExp, timeoutMs = 60_000): Promise<PlainChild> {
  const child = spawn(process.execPath, args, { cwd: ROOT, env: withoutPhotonSettings(), stdio: ["ignore", "pipe", "pipe"] });
  live.add(child);
  const exitCode = new Promise<number | null>((done) => child.once("exit", (code) => done(code)));
  let out = "";
  let err = "";
  child.stderr!.setEncoding("utf8").on("data", (c: string) => (err = (err + c).slice(-4000)));
  const stopIt = async () => {
    await stop(child, 10_000);
    return exitCode;
  };
  return new Promise((resolve, reject) => {
    let settled = false;
    const fail = (why: string) => {
      if (settled) return;
      settled = true;
      void stopIt();
      reject(new Error(`node ${args.join(" ").slice(0, 200)} ${why}:\n${out.slice(-4000)}${err}`));
    };
    const timer = setTimeout(() => fail(`printed nothing matching ${ready} within ${timeoutMs} ms`), timeoutMs);
    void exitCode.then((code) => (clearTimeout(timer), fail(`exited (${code}) before it was ready`)));
    const onData = (chunk: string) => {
      out += chunk;
      const match = ready.exec(out);
      if (match === null) return;
      clearTimeout(timer);
      settled = true;
      child.stdout!.off("data", onData).resume(); // what it prints later is dropped
      resolve({ pid: child.pid!, ready: match, stop: stopIt });
    };
    child.stdout!.setEncoding("utf8").on("data", onData);
  });
}

export interface Completed {
  readonly code: number | null;
  readonly stdout: string;
  readonly stderr: string;
  /** Spawn to exit, wall clock. */
  readonly ms: number;
}

/** Runs a command to completion and times it (spawn to exit); `env`: variables set on top of this process's. */
export function runCommand(command: string, args: readonly string[], timeoutMs = 120_000, env?: Readonly<Record<string, string>>): Promise<Completed> {
  const started = performance.now();
  const child = spawn(command, args, { cwd: ROOT, stdio: ["ignore", "pipe", "pipe"], ...(env ? { env: { ...process.env, ...env } } : {}) });
  live.add(child);
  let stdout = "";
  let stderr = "";
  child.stdout!.on("data", (c: Buffer) => (stdout += c.toString("utf8")));
  child.stderr!.on("data", (c: Buffer) => (stderr += c.toString("utf8")));
  const timer = setTimeout(() => killTree(child, "SIGKILL"), timeoutMs);
  return new Promise((resolve, reject) => {
    child.once("error", (err) => {
      clearTimeout(timer);
      live.delete(child);
      reject(err);
    });
    child.once("exit", (code) => {
      const ms = performance.now() - started;
      clearTimeout(timer);
      live.delete(child);
      resolve({ code, stdout, stderr, ms });
    });
  });
}

/** Runs a TypeScript file under tsx to completion. */
export function runTs(script: string, args: readonly string[] = [], timeoutMs = 300_000): Promise<Completed> {
  return runCommand(process.execPath, [...TS_FLAGS, script, ...args], timeoutMs);
}

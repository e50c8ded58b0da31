/** `photon-conformance serve`: the reference indexer, until SIGINT or SIGTERM. */
import type { Command } from "commander";
import { MIN_ACCOUNTS } from "../../reference/dataset.js";
import { MAX_INTERVAL_MS, MAX_LAG, startReferenceIndexer } from "../../reference/serve.js";
import { UsageError } from "../errors.js";
import { checkUrl, int } from "./options.js";

/** `serve`'s options as commander parses them. */
interface ServeFlags {
  host: string;
  port: number;
  dataset?: string;
  seed: number;
  accounts?: number;
  rateLimit?: number;
  latency?: number;
  proverUrl?: string;
  live?: number;
  lag?: number;
}

/** Why a server could not listen, as a usage error (a taken port, an address not ours); null for other errors (thrown as they are). */
export function listenError(err: NodeJS.ErrnoException, host: string, port: number, flag = "--port"): UsageError | null {
  const where = `${host.includes(":") ? `[${host}]` : host}:${port}`;
  if (err.code === "EADDRINUSE") return new UsageError(`cannot listen on ${where}: the port is already in use (${flag} 0 picks a free one)`);
  if (err.code === "EACCES") return new UsageError(`cannot listen on ${where}: permission denied (ports below 1024 need privileges)`);
  if (err.code === "EADDRNOTAVAIL" || err.code === "ENOTFOUND") return new UsageError(`cannot listen on ${where}: no such local address (--host)`);
  if (err.code === "ENOENT" || err.code === "EISDIR") return new UsageError(`cannot read --dataset: ${err.message}`);
  return null;
}

export function serveCommand(program: Command): void {
  program
    .command("serve")
    .description("serve the reference indexer until SIGINT/SIGTERM")
    .option("--host <host>", "address to bind", "127.0.0.1")
    .option("--port <port>", "port (0 picks a free one)", int("--port", 0, 65535), 8784)
    .option("--dataset <file>", "dataset file (JSON lines) to load")
    .option("--seed <n>", "seed of the generated dataset", int("--seed"), 1)
    .option(
      "--accounts <n>",
      `accounts in the generated dataset (at least ${MIN_ACCOUNTS}, the fewest that hold every edge the suite checks; default 20000)`,
      int("--accounts", MIN_ACCOUNTS),
    )
    .option("--rate-limit <n>", "requests per second; over it, HTTP 429 with Retry-After", int("--rate-limit", 1))
    .option("--latency <ms>", "delay before every answer", int("--latency"))
    .option("--prover-url <url>", "a gnark prover (POST URL/prove) for real validity proofs; without it they carry a placeholder proof", (value: string) =>
      checkUrl("--prover-url", value),
    )
    .option("--live <ms>", "one transaction every MS ms (same --seed, same history)", int("--live", 1, MAX_INTERVAL_MS))
    .option("--lag <n>", "with --live: answer N slots behind (catching up)", int("--lag", 0, MAX_LAG))
    .action(async (flags: ServeFlags) => {
      if (flags.lag !== undefined && flags.live === undefined) throw new UsageError("--lag needs --live");
      const server = await startReferenceIndexer({
        live: flags.live === undefined ? undefined : { intervalMs: flags.live, lag: flags.lag },
        host: flags.host,
        port: flags.port,
        dataset: flags.dataset,
        seed: flags.seed,
        accounts: flags.accounts,
        rateLimit: flags.rateLimit,
        latencyMs: flags.latency,
        proverUrl: flags.proverUrl,
      }).catch((err: NodeJS.ErrnoException) => {
        const usage = listenError(err, flags.host, flags.port);
        if (usage) throw usage;
        throw err;
      });
      process.stdout.write(`listening on ${server.url}\n`);
      if (server.live !== null) process.stdout.write(`${server.live.describe()}\n`);
      await new Promise<void>((resolve) => {
        const stop = () => resolve();
        process.once("SIGINT", stop);
        process.once("SIGTERM", stop);
      });
      await server.close();
    });
}

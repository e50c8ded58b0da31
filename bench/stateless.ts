/**
 * One call returning a 1000-signature getCompressionSignaturesForTokenOwner page from the
 * reference indexer (a child process on the other core), parsed, validated and typed: the
 * generated client against @lightprotocol/stateless.js (`createRpc(url, url)`) making the same
 * call to the same server. Sequential calls; the figure is how many times faster ours is.
 */
import { bn, createRpc } from "@lightprotocol/stateless.js";
import { PublicKey } from "@solana/web3.js";
import { createClient } from "../generated/index.js";
import { figure, main, type BenchOptions, type FigureResult } from "./lib/figure.js";
import { startReference } from "./lib/reference.js";
import { pairedRatio, summary } from "./lib/stats.js";
import { compare } from "./lib/tiny.js";

export async function run(options: BenchOptions): Promise<{ results: FigureResult[] }> {
  const reference = await startReference();
  try {
    const { url, profile } = reference.info;
    const owner = profile.tokenOwnerWith1000TokenAccounts.owner;
    const ours = createClient({ url });
    const rpc = createRpc(url, url);
    const oursCall = async () => {
      const page = await ours.getCompressionSignaturesForTokenOwner({ owner, limit: 1000 });
      if (page.value.items.length !== 1000) throw new Error(`ours: ${page.value.items.length} items`);
    };
    const theirsCall = async () => {
      const page = await rpc.getCompressionSignaturesForTokenOwner(new PublicKey(owner), { limit: bn(1000) });
      if (page.items.length !== 1000) throw new Error(`stateless.js: ${page.items.length} items`);
    };
    await oursCall();
    await theirsCall();
    const times = await compare(
      [
        { name: "ours", fn: oursCall },
        { name: "stateless", fn: theirsCall },
      ],
      options.quick ? { rounds: 2, time: 300, warmupTime: 100 } : { rounds: 5, time: 1000, warmupTime: 300 },
    );
    const t = (name: string) => times.get(name)!;
    return {
      results: [
        figure({
          id: "stateless",
          what: "one 1000-signature getCompressionSignaturesForTokenOwner page from the reference indexer, parsed, validated, typed",
          ours: { label: "generated client", unit: "ms/call", ...summary(t("ours").rounds) },
          baseline: { label: "@lightprotocol/stateless.js, same call, same server", unit: "ms/call", ...summary(t("stateless").rounds) },
          ratio: pairedRatio(t("stateless").rounds, t("ours").rounds),
          ratioOf: "baseline time ÷ ours (× faster)",
          aim: { op: ">=", value: 20, text: "≥ 20× faster" },
        }),
      ],
    };
  } finally {
    await reference.stop();
  }
}

await main(import.meta.url, "stateless", run);

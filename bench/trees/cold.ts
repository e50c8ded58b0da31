import { readFileSync } from "node:fs";
import type { TreeRecord } from "../../reference/index.js";
import type { Serving, Stats } from "../children/trees.js";
import { figure, fmtNumber, type BenchOptions, type FigureResult } from "../lib/figure.js";
import { scratch } from "../lib/http.js";
import { startChild } from "../lib/proc.js";
import { median, round, summary } from "../lib/stats.js";
import { type AccountProofValue, bodyOf, CHILD, call, checkAccountProof, checkAddressProof, type NewAddressProofValue, resultOf } from "./http.js";
import { Feed, freshAddresses, type Pools } from "./inputs.js";

/** 3. The first proof on an unbuilt tree, as a client sees it: a fresh server per tree and run. */
export async function coldFigures(p: Pools, options: BenchOptions): Promise<FigureResult[]> {
  const runs = options.quick ? 1 : 3;
  const after = 10;
  const tmp = scratch();
  const v1 = new Feed(p.v1Hashes, `${p.v1.tree} accounts`);
  const fresh = new Feed(freshAddresses(p.dataset, runs * (after + 1)), "fresh addresses");
  interface Cold {
    first: number;
    later: number;
    hashes: number;
    built: readonly string[];
  }
  const measure = async (kind: "state" | "address", run: number): Promise<Cold> => {
    const stats = tmp.file(`stats-${kind}-${run}.json`, "");
    const server = await startChild<Serving>(CHILD, ["serve", "--no-warm", "--stats", stats]);
    let first: number;
    const later: number[] = [];
    try {
      if (kind === "state") {
        const bodies = v1.take(after + 1).map((hash) => bodyOf("getCompressedAccountProof", { hash }));
        const answer = await call(server.info.url, bodies[0]!);
        checkAccountProof(resultOf<{ value: AccountProofValue }>(answer.text).value, p.v1.height, "first getCompressedAccountProof");
        first = answer.ms;
        for (const body of bodies.slice(1)) later.push((await call(server.info.url, body)).ms);
      } else {
        const bodies = fresh.take(after + 1).map((address) => bodyOf("getMultipleNewAddressProofs", [address]));
        const answer = await call(server.info.url, bodies[0]!);
        checkAddressProof(resultOf<{ value: NewAddressProofValue[] }>(answer.text).value[0]!, "AddressV1", p.amt1.height);
        first = answer.ms;
        for (const body of bodies.slice(1)) later.push((await call(server.info.url, body)).ms);
      }
    } finally {
      await server.stop();
    }
    const s = JSON.parse(readFileSync(stats, "utf8")) as Stats;
    return { first, later: median(later), hashes: s.hashes, built: s.built };
  };
  try {
    const state: Cold[] = [];
    const address: Cold[] = [];
    for (let r = 0; r < runs; r++) {
      state.push(await measure("state", r));
      address.push(await measure("address", r));
    }
    const result = (id: string, list: Cold[], what: string, tree: TreeRecord, method: string) => {
      const built = [...new Set(list.flatMap((c) => c.built))];
      return figure({
        id,
        what: `${what} (${runs} runs, a fresh server with warmTrees: false each)`,
        ours: {
          label: `first ${method} (builds ${tree.tree.slice(0, 4)})`,
          unit: "ms",
          ...summary(
            list.map((c) => c.first),
            1,
          ),
        },
        baseline: null,
        ratio: null,
        ratioOf: "absolute",
        aim: { op: "<", value: 3000, text: "< 3 s" },
        notes: [
          `the server made ${fmtNumber(median(list.map((c) => c.hashes)))} Poseidon calls for it (all of the tree's build; trees started: ${built.map((t) => t.slice(0, 4)).join(", ")})`,
          `the next ${after} calls, on the built tree: ${round(median(list.map((c) => c.later)), 3)} ms median`,
        ],
      });
    };
    return [
      result(
        "trees.cold-state",
        state,
        `first account proof on an unbuilt V1 state tree (${p.v1.tree.slice(0, 4)}, ${p.v1.height} levels)`,
        p.v1,
        "getCompressedAccountProof",
      ),
      result(
        "trees.cold-address",
        address,
        `first new-address proof on an unbuilt V1 address tree (${p.amt1.tree.slice(0, 4)}, ${p.amt1.height} levels)`,
        p.amt1,
        "getMultipleNewAddressProofs",
      ),
    ];
  } finally {
    tmp.cleanup();
  }
}

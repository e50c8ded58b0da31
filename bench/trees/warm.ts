import { Forest } from "../../reference/index.js";
import { hashCount } from "../../reference/trees/poseidon.js";
import type { Serving } from "../children/trees.js";
import { figure, fmtNumber, type BenchOptions, type FigureResult } from "../lib/figure.js";
import { startChild, type Server } from "../lib/proc.js";
import { inTurns, median, pairedRatio, summary } from "../lib/stats.js";
import { type AccountProofValue, bodyOf, CHILD, call, checkAccountProof, kib, resultOf } from "./http.js";
import { Feed, freshAddresses, type Pools } from "./inputs.js";

/** A measured pair: each call's body for ours and for the baseline, on the same fresh inputs. */
interface Pair {
  readonly id: string;
  readonly what: string;
  readonly take: () => { ours: string; base: string };
  /** Calls per side per round. */
  readonly calls: number;
  readonly aim: number;
  readonly baseline: string;
  readonly notes?: string[];
}

/** 2. Warm proofs over loopback against lookups of the same hashes, on a server whose trees are built. */
export async function warmFigures(p: Pools, options: BenchOptions): Promise<FigureResult[]> {
  const rounds = options.quick ? 2 : 5;
  const scale = options.quick ? 0.2 : 1;
  const singles = Math.round(100 * scale);
  const multis = Math.max(2, Math.round(10 * scale));
  const validities = Math.max(2, Math.round(20 * scale));
  const warmCalls = { single: 40, multi: 2, validity: 4 };

  const v1 = new Feed(p.v1Hashes, `${p.v1.tree} accounts`);
  const v2 = new Feed(p.v2Hashes, "batched-tree accounts");
  const windows = new Feed(
    Array.from({ length: Math.floor(p.v1Hashes.length / 100) }, (_, i) => p.v1Hashes.slice(i * 100, i * 100 + 100)),
    "windows of 100 accounts",
  );
  const eights = new Feed(
    Array.from({ length: Math.floor(p.v2Hashes.length / 8) }, (_, i) => p.v2Hashes.slice(i * 8, i * 8 + 8)),
    "groups of 8 batched-tree accounts",
  );
  const addresses = new Feed(freshAddresses(p.dataset, 2 * (warmCalls.validity + rounds * validities)), "fresh addresses");

  const pairs: Pair[] = [
    {
      id: "trees.proof-v1",
      what: `getCompressedAccountProof, built V1 tree (${p.v1.tree.slice(0, 4)}, ${p.v1.height} levels), one call at a time over loopback`,
      take: () => {
        const [hash] = v1.take(1);
        return { ours: bodyOf("getCompressedAccountProof", { hash }), base: bodyOf("getCompressedAccount", { hash }) };
      },
      calls: singles,
      baseline: "getCompressedAccount, same hash",
      aim: 3,
    },
    {
      id: "trees.proof-v2",
      what: `getCompressedAccountProofV2, built batched trees (bmt1–bmt5, ${p.v2Height} levels, appended accounts), one call at a time`,
      take: () => {
        const [hash] = v2.take(1);
        return { ours: bodyOf("getCompressedAccountProofV2", { hash }), base: bodyOf("getCompressedAccount", { hash }) };
      },
      calls: singles,
      baseline: "getCompressedAccount, same hash",
      aim: 3,
    },
    {
      id: "trees.proofs-100",
      what: `getMultipleCompressedAccountProofs of 100 hashes (${p.v1.tree.slice(0, 4)}, built)`,
      take: () => {
        const [hashes] = windows.take(1);
        return { ours: bodyOf("getMultipleCompressedAccountProofs", hashes), base: bodyOf("getMultipleCompressedAccounts", { hashes }) };
      },
      calls: multis,
      baseline: "getMultipleCompressedAccounts, same 100 hashes",
      aim: 3,
    },
    {
      id: "trees.validity-v2",
      what: `getValidityProofV2 of 8 batched-tree accounts + 2 new addresses (${p.amt2.tree.slice(0, 4)}), built trees, placeholder Groth16 proof`,
      take: () => {
        const [hashes] = eights.take(1);
        const news = addresses.take(2).map((address) => ({ address, tree: p.amt2.tree }));
        return {
          ours: bodyOf("getValidityProofV2", { hashes, newAddressesWithTrees: news }),
          base: bodyOf("getMultipleCompressedAccounts", { hashes }),
        };
      },
      calls: validities,
      baseline: "getMultipleCompressedAccounts, same 8 hashes",
      aim: 3,
      notes: [
        "baseline: the 8 accounts looked up (the 2 new addresses have no account to look up)",
        (() => {
          const h = validityHashes(p);
          return `each answer makes ${h.answer} Poseidon calls on built trees: the public input hash of the prover's request (as Photon computes it: twoInputsHashChain of roots and leaves, ${h.request} calls, counted in process) is computed only when a prover is configured and the request is sent; the placeholder proof answered here does not depend on it`;
        })(),
      ],
    },
  ];

  const server: Server<Serving> = await startChild<Serving>(CHILD, ["serve", "--prebuild"]);
  try {
    const url = server.info.url;
    // Warm-up (JIT, connections), and a check that each kind answers what it should: proofs that fold.
    const [single, singleV2, multi, validity] = pairs as [Pair, Pair, Pair, Pair];
    const sizes = new Map<string, { ours: number; base: number }>();
    const warm = async (pair: Pair, times: number, check: (text: string) => void) => {
      for (let i = 0; i < times; i++) {
        const { ours, base } = pair.take();
        const answer = (await call(url, ours)).text;
        check(answer);
        sizes.set(pair.id, { ours: Buffer.byteLength(answer), base: Buffer.byteLength((await call(url, base)).text) });
      }
    };
    await warm(single, warmCalls.single, (text) => checkAccountProof(resultOf<{ value: AccountProofValue }>(text).value, p.v1.height, single.id));
    await warm(singleV2, warmCalls.single, (text) => checkAccountProof(resultOf<{ value: AccountProofValue }>(text).value, p.v2Height, singleV2.id));
    await warm(multi, warmCalls.multi, (text) => {
      const proofs = resultOf<{ value: AccountProofValue[] }>(text).value;
      if (proofs.length !== 100) throw new Error(`${multi.id}: ${proofs.length} proofs`);
      for (const proof of proofs) checkAccountProof(proof, p.v1.height, multi.id);
    });
    await warm(validity, warmCalls.validity, (text) => {
      const v = resultOf<{ value: { compressedProof: unknown; accounts: unknown[]; addresses: unknown[] } }>(text).value;
      if (v.compressedProof === null || v.accounts.length !== 8 || v.addresses.length !== 2)
        throw new Error(
          `${validity.id}: ${v.accounts.length} accounts, ${v.addresses.length} addresses, proof ${v.compressedProof === null ? "null" : "present"}`,
        );
    });

    const perRound = new Map(pairs.map((pair) => [pair.id, { ours: [] as number[], base: [] as number[] }]));
    for (let r = 0; r < rounds; r++) {
      for (const pair of pairs) {
        const sides = inTurns(r, ["ours", "base"] as const);
        const bodies = { ours: [] as string[], base: [] as string[] };
        for (let i = 0; i < pair.calls; i++) {
          const { ours, base } = pair.take();
          bodies.ours.push(ours);
          bodies.base.push(base);
        }
        for (const side of sides) {
          const times: number[] = [];
          for (const body of bodies[side]) times.push((await call(url, body)).ms);
          perRound.get(pair.id)![side].push(median(times));
        }
      }
    }
    return pairs.map((pair) => {
      const m = perRound.get(pair.id)!;
      return figure({
        id: pair.id,
        what: `${pair.what} (${pair.calls} calls × ${rounds} rounds, fresh inputs each call)`,
        ours: { label: pair.id === "trees.validity-v2" ? "getValidityProofV2" : "proof method", unit: "ms", ...summary(m.ours, 3) },
        baseline: { label: pair.baseline, unit: "ms", ...summary(m.base, 3) },
        ratio: pairedRatio(m.ours, m.base),
        ratioOf: "ours ÷ baseline median latency",
        aim: { op: "<=", value: pair.aim, text: `≤ ${pair.aim}× the lookup` },
        notes: [
          ...(pair.notes ?? []),
          `answers: ours ${kib(sizes.get(pair.id)!.ours)}, baseline ${kib(sizes.get(pair.id)!.base)}`,
          ...(pair.id === "trees.proof-v1"
            ? [
                `server: the reference in a child process, every tree built before measuring (${fmtNumber(server.info.prebuildMs)} ms, ${fmtNumber(server.info.prebuildHashes)} Poseidon calls)`,
              ]
            : []),
        ],
      });
    });
  } finally {
    await server.stop();
  }
}

/**
 * The Poseidon calls of one getValidityProofV2 of 8 accounts and 2 new addresses on built trees
 * (in process, on a Forest of its own): for the answer, and for the prover's request once written.
 */
function validityHashes(p: Pools): { answer: number; request: number } {
  const forest = new Forest(p.dataset);
  const [a, b] = freshAddresses(p.dataset, 2) as [string, string];
  const request = (hashes: string[]) => ({
    hashes,
    newAddressesWithTrees: [
      { address: a, tree: p.amt2.tree },
      { address: b, tree: p.amt2.tree },
    ],
  });
  const [first, second] = [p.v2Hashes.slice(0, 8), p.v2Hashes.slice(8, 16)];
  // The trees both calls need, built first (as on the server measured), then the first call (warm-up).
  const treeOf = new Map(p.dataset.accounts.map((a) => [a.hash, a.tree]));
  for (const tree of new Set([...first, ...second].map((h) => treeOf.get(h)!).concat(p.amt2.tree))) forest.root(tree);
  forest.validityProofV2(request(first));
  const h0 = hashCount();
  const answered = forest.validityProofV2(request(second));
  const h1 = hashCount();
  JSON.stringify(answered?.prover);
  return { answer: h1 - h0, request: hashCount() - h1 };
}

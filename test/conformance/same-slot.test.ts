/**
 * The suite against moving targets (scripted fakes, moving-fakes.ts): every check that combines
 * answers (walks, agrees, sum, balances-sum, follow, proof agreement, the run-wide slot check)
 * compares only answers of one slot. A target that keeps moving makes the relation inconclusive
 * (a warning naming the slots, coded `moved`), never a failure; one that settles is judged at one
 * slot; a target wrong at one slot still fails, and so does a page wrong whatever the slot.
 */
import { afterEach, describe, expect, it } from "vitest";
import { paginationCheck } from "../../conformance/checks/pagination.js";
import { agreementFindings } from "../../conformance/checks/proof-agreement.js";
import { collectProofs } from "../../conformance/checks/proof-shapes.js";
import { semanticsCheck } from "../../conformance/checks/semantics.js";
import type { CheckContext } from "../../conformance/checks/check.js";
import { FindingReason, type CaseResult, type Finding } from "../../conformance/results.js";
import { slotOrder } from "../../conformance/run.js";
import { movedFinding, movedNote, SLOT_TRIES } from "../../conformance/same-slot.js";
import { specMethods } from "../../conformance/spec-facts.js";
import {
  at,
  everyCall,
  Fault,
  judgeAt,
  key,
  movesFor,
  shown,
  startMovingFake,
  still,
  type Clock,
  type MovingFake,
  type World,
} from "./support/moving-fakes.js";

let fake: MovingFake | null = null;
afterEach(async () => {
  await fake?.close();
  fake = null;
});

async function judged(world: World, clock: Clock, doc: Record<string, unknown>, run: (ctx: CheckContext) => Promise<Finding[]>): Promise<Finding[]> {
  fake = await startMovingFake(world, clock);
  return run(await judgeAt(fake, doc));
}

const pagination = (ctx: CheckContext) => Promise.resolve(paginationCheck.run(ctx));
const semantics = (ctx: CheckContext) => Promise.resolve(semanticsCheck.run(ctx));

/** The findings as statuses: none failed, at least one warned that the target moved. */
function expectInconclusive(findings: readonly Finding[]): Finding {
  expect(
    findings.filter((f) => f.status === "fail"),
    shown(findings),
  ).toEqual([]);
  const moved = findings.find((f) => f.reason === FindingReason.MOVED);
  expect(moved, shown(findings)).toBeDefined();
  expect(moved!.status).toBe("warn");
  expect(moved!.message).toMatch(/inconclusive: the target moved/);
  return moved!;
}

const failing = (findings: readonly Finding[]) => findings.filter((f) => f.status === "fail").map((f) => `${f.check}: ${f.message}`);

const OWNER = key(9, 1);
const MINT = key(8, 1);

/** An owner's accounts: 5 at slot 100, one more opened every slot (leafIndex i, hash key(1, i), 10 lamports each). */
const accounts = (slot: number) =>
  Array.from({ length: 5 + Math.max(0, slot - 100) }, (_, i) => ({ hash: key(1, i), leafIndex: i, lamports: 10, owner: OWNER }));

/** A cursor page of `items` after the item whose `id` is `cursor`; the cursor is the last item's id when the page is full. */
function page<T>(items: readonly T[], id: (t: T) => string, params: any): { items: T[]; cursor: string | null } {
  const limit = params?.limit ?? 1000;
  const start = params?.cursor ? items.findIndex((t) => id(t) === params.cursor) + 1 : 0;
  const out = items.slice(start, start + limit);
  return { items: out, cursor: out.length === limit && out.length > 0 ? id(out[out.length - 1]!) : null };
}

/** Accounts by owner, paged; the owner's balance is their lamports' sum. */
const accountWorld =
  (overLimitAt?: number): World =>
  (method, params, slot) => {
    if (method === "getCompressedAccountsByOwner") {
      const p = page(accounts(slot), (a) => a.hash, params);
      if (slot === overLimitAt) p.items.push(accounts(slot + 50)[accounts(slot).length]!); // one item over the limit
      return at(slot, p);
    }
    if (method === "getCompressedBalanceByOwner") return at(slot, accounts(slot).length * 10);
    return undefined;
  };

const WALK = { method: "getCompressedAccountsByOwner", params: { owner: OWNER }, expect: { paginate: [2] } };

describe("walks of one list at several page sizes", () => {
  it("a list that grows while it is walked is inconclusive, never a failure; page bounds are fixed, not the first walk's length", async () => {
    const findings = await judged(accountWorld(), everyCall(), WALK, pagination);
    const moved = expectInconclusive(findings);
    expect(moved.check).toBe("pagination");
    expect(moved.message).toMatch(/slots 10\d/);
    expect(fake!.calls.filter((c) => c.method === "getCompressedAccountsByOwner").length).toBeGreaterThan(SLOT_TRIES);
  });

  it("a list that stops growing is judged at one slot: the walks agree", async () => {
    const findings = await judged(accountWorld(), movesFor(4), WALK, pagination);
    expect(failing(findings)).toEqual([]);
    expect(
      findings.some((f) => f.status === "pass" && /limit 2: \d+ pages, same \d+ items/.test(f.message)),
      shown(findings),
    ).toBe(true);
    expect(findings.some((f) => f.reason === FindingReason.MOVED)).toBe(false);
  });

  it("a page over its limit fails although the pages state different slots", async () => {
    const findings = await judged(accountWorld(102), everyCall(), WALK, pagination);
    expect(failing(findings).join("\n")).toMatch(/over limit 2/);
  });
});

const AGREES = {
  method: "getCompressedTokenBalancesByOwnerV2",
  params: { owner: OWNER, limit: 5 },
  expect: { agrees: [{ method: "getCompressedTokenBalancesByOwner", rename: { token_balances: "items" } }] },
};

/** One balance that moves every slot, V1 and V2 alike; V2 is one off at `wrongAt`. */
const balanceWorld =
  (wrongAt?: number): World =>
  (method, _params, slot) => {
    const balance = 1000 + slot;
    if (method === "getCompressedTokenBalancesByOwner") return at(slot, { token_balances: [{ mint: MINT, balance }], cursor: null });
    if (method === "getCompressedTokenBalancesByOwnerV2")
      return at(slot, { items: [{ mint: MINT, balance: slot === wrongAt ? balance + 1 : balance }], cursor: null });
    return undefined;
  };

describe("agrees", () => {
  it("V1 and V2 answers straddling a transfer are inconclusive, never a failure", async () => {
    expectInconclusive(await judged(balanceWorld(), everyCall(), AGREES, semantics));
  });

  it("a target wrong at a single slot still fails, once the relation is read at that slot", async () => {
    // Slots 100, 101, then 102 for good: the first try straddles, the second reads both at 102, where V2 is wrong.
    const findings = await judged(balanceWorld(102), movesFor(2), AGREES, semantics);
    expect(failing(findings).join("\n")).toMatch(/differs from getCompressedTokenBalancesByOwner at .*balance/);
  });

  it("a frozen target wrong at its slot fails at the first try", async () => {
    const findings = await judged(balanceWorld(100), still(), AGREES, semantics);
    expect(failing(findings).join("\n")).toMatch(/differs from getCompressedTokenBalancesByOwner/);
    expect(fake!.calls.length).toBe(2);
  });
});

describe("sum", () => {
  const SUM = {
    method: "getCompressedBalanceByOwner",
    params: { owner: OWNER },
    expect: { sum: { method: "getCompressedAccountsByOwner", field: "lamports", equals: { result: "value" } } },
  };

  it("a balance read before the accounts it sums is inconclusive, never a failure", async () => {
    expectInconclusive(await judged(accountWorld(), everyCall(), SUM, semantics));
  });

  it("a target that settles is judged at one slot and passes", async () => {
    const findings = await judged(accountWorld(), movesFor(3), SUM, semantics);
    expect(failing(findings)).toEqual([]);
    expect(
      findings.some((f) => f.status === "pass" && /the sum of lamports over \d+ getCompressedAccountsByOwner items/.test(f.message)),
      shown(findings),
    ).toBe(true);
  });
});

describe("balances-sum", () => {
  /** An owner's token accounts of one mint: 3 at slot 100, one more every slot (7 tokens each); its balance is their sum. */
  const tokenAccounts = (slot: number) =>
    Array.from({ length: 3 + Math.max(0, slot - 100) }, (_, i) => ({
      account: { hash: key(3, i), leafIndex: i },
      tokenData: { mint: MINT, owner: OWNER, amount: 7 },
    }));
  const world: World = (method, params, slot) => {
    if (method === "getCompressedTokenAccountsByOwner")
      return at(
        slot,
        page(tokenAccounts(slot), (t) => t.account.hash, params),
      );
    if (method === "getCompressedTokenBalancesByOwner")
      return at(slot, { token_balances: [{ mint: MINT, balance: tokenAccounts(slot).length * 7 }], cursor: null });
    return undefined;
  };
  const CASE = { method: "getCompressedTokenBalancesByOwner", params: { owner: OWNER }, expect: { semantics: ["balances-sum"] } };

  it("balances and token accounts read at different slots are inconclusive, never a failure", async () => {
    expectInconclusive(await judged(world, everyCall(), CASE, semantics));
  });

  it("a balance that is not the sum at one slot fails", async () => {
    const wrong: World = (method, params, slot) => {
      const out = world(method, params, slot) as any;
      if (method === "getCompressedTokenBalancesByOwner") out.value.token_balances[0].balance += 1;
      return out;
    };
    expect(failing(await judged(wrong, still(), CASE, semantics)).join("\n")).toMatch(/balance of mint .* is not the sum/);
  });
});

describe("follow", () => {
  const FOLLOW = {
    method: "getCompressedMintTokenHolders",
    params: { mint: MINT, limit: 3 },
    expect: {
      follow: [
        {
          from: "items",
          method: "getCompressedTokenBalancesByOwner",
          params: { owner: { item: "owner" }, mint: MINT },
          result: { "value.token_balances.0.balance": { item: "balance" } },
        },
      ],
    },
  };
  const world: World = (method, _params, slot) => {
    const balance = 500 + slot;
    if (method === "getCompressedMintTokenHolders") return at(slot, { items: [{ owner: key(4, 1), balance }], cursor: null });
    if (method === "getCompressedTokenBalancesByOwner") return at(slot, { token_balances: [{ mint: MINT, balance }], cursor: null });
    return undefined;
  };

  it("a holder whose balance moved before it was followed is inconclusive, never a failure", async () => {
    expectInconclusive(await judged(world, everyCall(), FOLLOW, semantics));
  });

  it("a follow-up wrong at the holders' slot fails", async () => {
    const wrong: World = (method, params, slot) => {
      const out = world(method, params, slot) as any;
      if (method === "getCompressedTokenBalancesByOwner") out.value.token_balances[0].balance -= 1;
      return out;
    };
    expect(failing(await judged(wrong, still(), FOLLOW, semantics)).join("\n")).toMatch(/follow items\[0\] → getCompressedTokenBalancesByOwner/);
  });
});

describe("proof agreement", () => {
  const TREE = key(5, 1);
  const QUEUE = key(5, 2);
  const ADDRESS = key(6, 1);
  const HASH = key(7, 1);
  /** The tree gains a leaf every slot: its root and rootSeq move; the address is created at slot 101. */
  const root = (slot: number) => key(5, 1000 + slot);
  const world: World = (method, params, slot) => {
    const seq = slot;
    if (method === "getValidityProof") {
      if (params.newAddressesWithTrees?.length && slot > 100) return new Fault(-32000, "address already exists");
      const leaves = params.hashes?.length ? [HASH] : [ADDRESS];
      return at(slot, {
        compressedProof: { a: "", b: "", c: "" },
        roots: [root(slot)],
        rootIndices: [seq % 2400],
        leafIndices: [params.hashes?.length ? 3 : 0],
        leaves,
        merkleTrees: [TREE],
      });
    }
    if (method === "getMultipleNewAddressProofsV2") {
      if (slot > 100) return new Fault(-32000, "address already exists");
      return at(slot, [
        {
          address: ADDRESS,
          merkleTree: TREE,
          root: root(slot),
          rootSeq: seq,
          lowElementLeafIndex: 0,
          lowerRangeAddress: key(6, 0),
          higherRangeAddress: key(6, 9),
          nextIndex: 1,
          proof: [],
        },
      ]);
    }
    if (method === "getMultipleCompressedAccountProofs")
      return at(slot, [{ hash: HASH, merkleTree: TREE, root: root(slot), rootSeq: seq, leafIndex: 3, proof: Array(26).fill(key(5, 3)) }]);
    if (method === "getMultipleCompressedAccountProofsV2")
      return at(slot, [
        {
          hash: HASH,
          root: root(slot),
          rootSeq: seq,
          leafIndex: 3,
          proof: Array(26).fill(key(5, 3)),
          proveByIndex: false,
          treeContext: { tree: TREE, queue: QUEUE, treeType: 1, cpiContext: null, nextTreeContext: null },
        },
      ]);
    return undefined; // Method not found; the slot method answers the slot
  };
  const agreement = async (ctx: CheckContext) => {
    const result = (ctx.exchange.body as any).result;
    return (await agreementFindings(ctx, result, collectProofs(result).validity)).findings;
  };

  it("a new address created between the validity proof and its separate proof is inconclusive, never a failure", async () => {
    const doc = { method: "getValidityProof", params: { newAddressesWithTrees: [{ address: ADDRESS, tree: TREE }] } };
    expectInconclusive(await judged(world, everyCall(), doc, agreement));
  });

  it("a tree whose root moved between the calls is a warning that names the slots (not a silent skip)", async () => {
    const doc = { method: "getValidityProof", params: { hashes: [HASH] } };
    const moved = expectInconclusive(await judged(world, everyCall(), doc, agreement));
    expect(moved.check).toBe("proofs");
  });

  it("agrees at one slot, and fails a root index that is not rootSeq % 2400 there", async () => {
    const doc = { method: "getValidityProof", params: { hashes: [HASH] } };
    const ok = await judged(world, still(), doc, agreement);
    expect(ok.map((f) => f.status)).toEqual(["pass"]);
    await fake!.close();
    const off: World = (method, params, slot) => {
      const out = world(method, params, slot) as any;
      if (method === "getValidityProof") out.value.rootIndices = [(slot + 1) % 2400];
      return out;
    };
    fake = null;
    expect(failing(await judged(off, still(), doc, agreement)).join("\n")).toMatch(/root index is not the rootSeq/);
  });
});

describe("the run-wide slot check", () => {
  /** A case result whose own answer came from the fake: `method` called at the fake's next slot. */
  async function resultOf(m: MovingFake, id: string, method: string, params?: unknown): Promise<CaseResult> {
    const ctx = await judgeAt(m, { method, ...(params === undefined ? {} : { params }) });
    return { id, method, description: id, required: true, findings: [], exchange: ctx.exchange, status: "pass", durationMs: 0 };
  }

  it("answers of a target moving forward never fail it, whatever methods answered them", async () => {
    fake = await startMovingFake(accountWorld(), everyCall());
    const results = [
      await resultOf(fake, "a", "getCompressedBalanceByOwner", { owner: OWNER }),
      await resultOf(fake, "b", "getIndexerSlot"),
      await resultOf(fake, "c", "getCompressedBalanceByOwner", { owner: OWNER }),
    ];
    const wide = slotOrder(results, specMethods);
    expect(wide.status).toBe("pass");
    expect(wide.findings[0]!.message).toBe("3 context slots never went backwards");
  });

  it("the slot method's own answer counts as its slot: one that goes back fails", async () => {
    const back: Clock = (n) => [105, 103, 106][n] ?? 106;
    fake = await startMovingFake(accountWorld(), back);
    const results = [
      await resultOf(fake, "a", "getCompressedBalanceByOwner", { owner: OWNER }),
      await resultOf(fake, "b", "getIndexerSlot"),
      await resultOf(fake, "c", "getCompressedBalanceByOwner", { owner: OWNER }),
    ];
    const wide = slotOrder(results, specMethods);
    expect(wide.findings.map((f) => [f.status, f.message])).toEqual([["fail", "b reported slot 103 after a had reported 105"]]);
  });
});

describe("the warning and the run's note", () => {
  it("name each try's slots, where they went back, and how many relations moved", () => {
    const f = movedFinding("semantics", "the sum", [
      [100n, 101n],
      [102n, null, 102n, 103n],
      [105n, 104n],
    ]);
    expect(f).toMatchObject({ status: "warn", check: "semantics", reason: FindingReason.MOVED });
    expect(f.message).toBe(
      "inconclusive: the target moved while the sum was read (try 1: slots 100, 101; try 2: slots 102, 103; try 3: slots 105, 104 (back from 105 to 104)): not judged",
    );
    const result = (findings: Finding[]) =>
      ({ id: "x", method: "m", description: "", required: true, findings, exchange: null, status: "warn", durationMs: 0 }) as CaseResult;
    expect(movedNote([result([f, f]), result([]), result([f])])).toEqual([
      `3 relations in 2 cases were inconclusive: the target moved while their answers were read, ${SLOT_TRIES} times (warnings, not failures; see docs/moving-target.md)`,
    ]);
    expect(movedNote([result([])])).toEqual([]);
  });
});

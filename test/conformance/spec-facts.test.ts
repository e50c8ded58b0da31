/**
 * One source of spec facts: the runner's spec-driven pieces (offline rules, semantic rules,
 * the pagination walk, diff identities, record's ignore paths, slot paths, discovery lists)
 * take everything from the method table. Each is fed (1) a synthetic table whose names share
 * nothing with Photon's, and (2) a table generated from a temporary copy of our spec with one
 * more paginated method, which they pick up with no code change.
 */
import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { parse, stringify } from "yaml";
import type { ConformanceCase } from "../../conformance/case-format.js";
import type { CheckContext, Target } from "../../conformance/checks/check.js";
import { walk } from "../../conformance/checks/pagination.js";
import { rules } from "../../conformance/checks/semantics.js";
import { discoveryLists } from "../../conformance/discover.js";
import { deriveExpectation } from "../../conformance/offline-rules.js";
import {
  contextSlotPaths,
  cursorFields,
  identityFields,
  itemsOf,
  lookupKeyOf,
  methodInfo,
  slotMethod,
  slotOfResult,
  type MethodTable,
} from "../../conformance/spec-facts.js";
import { loadSpec } from "../../generator/load.js";
import { buildModel } from "../../generator/model.js";
import type { MethodInfo } from "../../runtime/contracts.js";
import { exchangeWith } from "../helpers/exchange.js";
import { methodInfo as entry } from "../helpers/method-info.js";
import { ourSpec } from "../helpers/paths.js";

const base = (name: string): MethodInfo => entry(name, { hasContext: true, slot: "meta.height" });

/** A ledger indexer: nothing here is named like Photon's methods, items, cursors or limits. */
const table: MethodTable = {
  listParcels: {
    ...base("listParcels"),
    requiredParams: ["owner"],
    optionalParams: ["region", "next", "size"],
    pagination: {
      items: "parcels",
      cursor: "next",
      limit: "size",
      order: [{ field: "serial", direction: "asc", compare: "integer" }],
      maxLimit: 3,
      defaultLimit: 3,
    },
    identity: "serial",
    filters: { owner: "owner", region: "where.region" },
  },
  parcelTotals: {
    ...base("parcelTotals"),
    requiredParams: ["owner"],
    optionalParams: ["next", "size"],
    pagination: { items: "totals", cursor: "next", limit: "size", order: null, maxLimit: 3, defaultLimit: 3 },
    sums: { method: "listParcels", params: ["owner"], key: { field: "region", of: "where.region" }, sum: { field: "area", of: "area" } },
  },
  findParcel: {
    ...base("findParcel"),
    lookup: {
      items: null,
      by: [
        { param: "plot", field: "plot" },
        { param: "serial", field: "serial" },
      ],
    },
    identity: "serial",
  },
  findParcels: {
    ...base("findParcels"),
    lookup: {
      items: "found",
      by: [
        { param: "serials", field: "serial" },
        { param: "plots", field: "plot" },
      ],
    },
  },
  ledgerHeight: { ...base("ledgerHeight"), hasParams: false, hasContext: false, slot: "" },
};

const parcels = [
  { serial: 1, owner: "A", where: { region: "north" }, area: 5 },
  { serial: 2, owner: "A", where: { region: "south" }, area: 7 },
  { serial: 3, owner: "A", where: { region: "north" }, area: 1n },
  { serial: 4, owner: "A", where: { region: "east" }, area: 2 },
];
const totals = [
  { region: "east", area: 2 },
  { region: "north", area: 6 },
  { region: "south", area: 7 },
];

const exchange = (body: unknown) => exchangeWith({ body });

/** Serves the synthetic table: pages of `size` (default 3) behind an index cursor, at height 42. */
function fakeTarget(calls: string[] = [], wrongTotal = false): Target {
  const page = (all: readonly unknown[], field: string, p: Record<string, unknown>) => {
    const size = typeof p.size === "number" ? p.size : 3;
    const from = typeof p.next === "string" ? Number(p.next) : 0;
    const items = all.slice(from, from + size);
    return { meta: { height: 42 }, value: { [field]: items, next: items.length < size ? null : String(from + size) } };
  };
  return {
    display: "fake",
    async call(method, params) {
      calls.push(method);
      const p = (params ?? {}) as Record<string, unknown>;
      if (method === "listParcels") return exchange({ jsonrpc: "2.0", id: 1, result: page(parcels, "parcels", p) });
      if (method === "parcelTotals")
        return exchange({ jsonrpc: "2.0", id: 1, result: page(wrongTotal ? [{ region: "east", area: 3 }, ...totals.slice(1)] : totals, "totals", p) });
      if (method === "ledgerHeight") return exchange({ jsonrpc: "2.0", id: 1, result: 43 });
      return exchange({ jsonrpc: "2.0", id: 1, error: { code: -32601, message: "Method not found" } });
    },
  };
}

function context(method: string, params: Record<string, unknown>, target = fakeTarget(), methods = table): CheckContext {
  const testCase = { method, params, expect: { semantics: [], paginate: [], every: null, result: null } } as unknown as ConformanceCase;
  return { testCase, exchange: exchange(null), target, methods, validators: {}, envelope: {} as CheckContext["envelope"], strict: false, requestId: 1 };
}

const statuses = (findings: readonly { status: string }[]) => findings.map((f) => f.status);

describe("spec facts from a synthetic method table", () => {
  it("derives offline expectations from x-filters and x-lookup", () => {
    expect(deriveExpectation("listParcels", { owner: "A", region: "north", size: 2 }, table)).toEqual({
      every: { owner: "A", "where.region": "north" },
      semantics: [],
    });
    expect(deriveExpectation("listParcels", { owner: 7 }, table)).toEqual({ every: null, semantics: [] });
    expect(deriveExpectation("findParcel", { plot: "p" }, table)).toEqual({ every: null, semantics: ["lookup"] });
    expect(deriveExpectation("findParcels", { serials: [1] }, table)).toEqual({ every: null, semantics: ["input-order"] });
    expect(deriveExpectation("toString", {}, table)).toEqual({ every: null, semantics: [] });
  });

  it("finds slots, cursors, identities and items where the table puts them", () => {
    expect(contextSlotPaths(table)).toEqual(["meta.height"]);
    expect(slotMethod(table)?.name).toBe("ledgerHeight");
    expect(slotOfResult(table.ledgerHeight, 43)).toBe(43);
    expect(slotOfResult(table.listParcels, { meta: { height: 42 } })).toBe(42);
    expect([...cursorFields(table)]).toEqual(["next"]);
    expect(identityFields(table)).toEqual(["serial"]);
    expect(itemsOf(table.listParcels, { value: { parcels: [1, 2] } })).toEqual([1, 2]);
    expect(itemsOf(table.findParcels, { value: { found: [null] } })).toEqual([null]);
    expect(itemsOf(table.findParcel, { value: {} })).toBeNull();
    expect(lookupKeyOf(table.findParcel, { plot: "p", serial: 1 })).toEqual({ param: "plot", field: "plot" });
    expect(lookupKeyOf(table.findParcel, { plot: null, serial: 1 })).toEqual({ param: "serial", field: "serial" });
    expect(methodInfo("constructor", table)).toBeUndefined();
  });

  it("walks the cursor through the table's items, cursor and limit fields", async () => {
    const calls: string[] = [];
    const info = table.listParcels!;
    const w = await walk(
      context("listParcels", {}, fakeTarget(calls)),
      info.pagination!,
      info,
      { owner: "A" },
      1,
      10,
      (item) => (item as { serial: number }).serial,
    );
    expect(w).toEqual({ items: [1, 2, 3, 4], pages: 5, problem: null });
    expect(calls).toEqual(Array(5).fill("listParcels"));
  });

  it("judges lookups by the first given key of x-lookup.by", () => {
    const lookup = rules.lookup!;
    expect(statuses(lookup(context("findParcel", { plot: "p", serial: 1 }), { value: { plot: "p", serial: 9 } }, { plot: "p", serial: 1 }) as never)).toEqual([
      "pass",
    ]);
    expect(statuses(lookup(context("findParcel", { plot: null, serial: 1 }), { value: { plot: "q", serial: 2 } }, { plot: null, serial: 1 }) as never)).toEqual(
      ["fail"],
    );
    expect(statuses(lookup(context("findParcel", { serial: 1 }), { value: null }, { serial: 1 }) as never)).toEqual(["pass"]);
    const order = rules["input-order"]!;
    const found = { value: { found: [{ serial: 1 }, null, { serial: 3 }] } };
    expect(statuses(order(context("findParcels", {}), found, { serials: [1, 2, 3] }) as never)).toEqual(["pass"]);
    expect(statuses(order(context("findParcels", {}), found, { serials: [1, 2, 4] }) as never)).toEqual(["fail"]);
    expect(statuses(order(context("listParcels", {}), found, { serials: [1, 2, 3] }) as never)).toEqual(["fail"]);
  });

  it("checks x-sums by walking both methods", async () => {
    const sums = rules["balances-sum"]!;
    const calls: string[] = [];
    expect(statuses(await sums(context("parcelTotals", { owner: "A" }, fakeTarget(calls)), null, { owner: "A" }))).toEqual(["pass"]);
    expect(new Set(calls)).toEqual(new Set(["parcelTotals", "listParcels"]));
    const wrong = await sums(context("parcelTotals", { owner: "A" }, fakeTarget([], true)), null, { owner: "A" });
    expect(wrong.map((f) => [f.status, f.message])).toEqual([["fail", "area of region east is not the sum of listParcels's area"]]);
  });

  it("compares a result's slot with the slot method's answer", async () => {
    const ahead = rules["slot-not-ahead"]!;
    const calls: string[] = [];
    expect(statuses(await ahead(context("listParcels", {}, fakeTarget(calls)), { meta: { height: 42 } }, {}))).toEqual(["pass"]);
    expect(calls).toEqual(["ledgerHeight"]);
    expect(statuses(await ahead(context("listParcels", {}), { meta: { height: 44 } }, {}))).toEqual(["fail"]);
    expect(statuses(await ahead(context("listParcels", {}), { value: 1 }, {}))).toEqual(["fail"]);
  });

  it("chooses discovery's lists by x-filters and x-sums", () => {
    const lists = discoveryLists({ ...table, listParcels: { ...table.listParcels!, filters: { owner: "holder", region: "where.region" } } });
    expect(lists.accounts).toBeNull();
    const tokens = { ...table.listParcels!, name: "listLots", filters: { owner: "lot.owner", mint: "lot.kind" } };
    const chosen = discoveryLists({
      ...table,
      listLots: tokens,
      parcelTotals: { ...table.parcelTotals!, sums: { ...table.parcelTotals!.sums!, method: "listLots" } },
    });
    expect(chosen.accounts?.name).toBe("listParcels");
    expect(chosen.owned.map((m) => m.name)).toEqual(["parcelTotals", "listLots"]);
    expect([chosen.tokens?.name, chosen.totals?.name, chosen.slot?.name]).toEqual(["listLots", "parcelTotals", "ledgerHeight"]);
  });
});

describe("a method added to the spec reaches the runner with no code change", async () => {
  const dir = await mkdtemp(join(tmpdir(), "spec-facts-"));
  afterAll(() => rm(dir, { recursive: true, force: true }));
  const doc = parse(await readFile(ourSpec, "utf8"));
  // getCompressionSignaturesForOwner: a copy of the token-owner signatures method under a new name, items `signatures`, cursor `before`.
  const op = structuredClone(doc.paths["/getCompressionSignaturesForTokenOwner"].post);
  op.operationId = "getCompressionSignaturesForOwner";
  op.requestBody.content["application/json"].schema.properties.method.enum = ["getCompressionSignaturesForOwner"];
  op["x-pagination"] = { ...op["x-pagination"], items: "signatures", cursor: "before" };
  op["x-filters"] = { owner: "signer" };
  op["x-identity"] = "signature";
  const params = structuredClone(doc.components.schemas.GetCompressionSignaturesForTokenOwnerParams);
  params.properties.before = params.properties.cursor;
  delete params.properties.cursor;
  doc.components.schemas.GetCompressionSignaturesForOwnerParams = params;
  op.requestBody.content["application/json"].schema.properties.params = { $ref: "#/components/schemas/GetCompressionSignaturesForOwnerParams" };
  doc.paths["/getCompressionSignaturesForOwner"] = { post: op };
  const file = join(dir, "spec.yaml");
  await writeFile(file, stringify(doc));
  const model = buildModel(await loadSpec(file));
  const added: MethodTable = Object.fromEntries(model.methods.map((m) => [m.name, m]));
  const info = added.getCompressionSignaturesForOwner!;

  it("reads its facts into the table", () => {
    expect(info.pagination).toMatchObject({ items: "signatures", cursor: "before", limit: "limit", maxLimit: 1000, defaultLimit: 1000 });
    expect(info.slot).toBe("context.slot");
    expect(info.extensions).not.toHaveProperty("x-pagination");
  });

  it("feeds the offline rules, record's cursor paths, diff identities and discovery", () => {
    expect(deriveExpectation("getCompressionSignaturesForOwner", { owner: "X" }, added).every).toEqual({ signer: "X" });
    expect(cursorFields(added)).toEqual(new Set(["cursor", "before"]));
    expect(identityFields(added)).toEqual(["hash", "account.hash", "signature"]);
    expect(discoveryLists(added).owned.map((m) => m.name)).toContain("getCompressionSignaturesForOwner");
  });

  it("is walked with its own items and cursor fields", async () => {
    const pages = [
      { signatures: [{ signature: "a" }, { signature: "b" }], before: "c1" },
      { signatures: [{ signature: "c" }], before: null },
    ];
    const seen: unknown[] = [];
    const target: Target = {
      display: "fake",
      async call(method, p) {
        seen.push([method, (p as Record<string, unknown>).before ?? null]);
        return exchange({ jsonrpc: "2.0", id: 1, result: { context: { slot: 1 }, value: pages[seen.length - 1] } });
      },
    };
    const w = await walk(context(info.name, {}, target, added), info.pagination!, info, { owner: "X" }, 2, 5);
    expect(w.problem).toBeNull();
    expect(w.items).toEqual([{ signature: "a" }, { signature: "b" }, { signature: "c" }]);
    expect(seen).toEqual([
      ["getCompressionSignaturesForOwner", null],
      ["getCompressionSignaturesForOwner", "c1"],
    ]);
  });
});

/**
 * Three versions of a spec written for these tests (test/fixtures/specs/bumps/): every
 * change diff reports, its class, and the reasons that matter most.
 */
import { describe, expect, it } from "vitest";
import { diffSpecs, render } from "../../../generator/diff/index.js";
import { root } from "../../helpers/paths.js";
import { bumps, find, lines } from "./support.js";

describe("diff v1 → v2: fields added, made nullable, a shared component changed, a method removed and one added", async () => {
  const report = await diffSpecs(bumps(1), bumps(2), {}, root);

  it("reports exactly these changes, each with its class", () => {
    expect(lines(report)).toEqual([
      "getHealth (method) method-added breaking-servers",
      "getItem params.at field-added breaking-servers",
      "getItem params.verbose nullable-added breaking-servers",
      "getItem result.proof field-added breaking-servers",
      "getItem result.value.memo field-added breaking-clients",
      "getItem result.value.note nullable-added breaking-clients",
      "getItem result.value.state enum-values-added breaking-clients",
      "getLegacy (method) method-removed breaking-clients",
      "listItems result.value.items[].memo field-added breaking-clients",
      "listItems result.value.items[].note nullable-added breaking-clients",
      "listItems result.value.items[].state enum-values-added breaking-clients",
    ]);
  });

  it("a new optional param breaks no client, but servers must honour it", () => {
    const c = find(report, "getItem", "params.at", "field-added");
    expect(c.breaks).toEqual({ clients: false, servers: true });
    expect(c.required).toBe(false);
    expect(c.via).toBe("GetItemParams");
    expect(c.reason).toMatch(/old clients need not send it/);
  });

  it("a new required result field in an open object breaks no client but every server stub", () => {
    const c = find(report, "getItem", "result.proof", "field-added");
    expect(c.breaks).toEqual({ clients: false, servers: true });
    expect(c.reason).toMatch(/every server must now send it.*clients may ignore it/);
  });

  it("a new optional field in a closed result object breaks clients that validate (the generated one does)", () => {
    const c = find(report, "getItem", "result.value.memo", "field-added");
    expect(c.breaks).toEqual({ clients: true, servers: false });
    expect(c.closed).toBe(true);
    expect(c.reason).toMatch(/closed object/);
  });

  it("a field made nullable breaks clients in a result and servers in params", () => {
    expect(find(report, "getItem", "result.value.note", "nullable-added").breaks).toEqual({ clients: true, servers: false });
    expect(find(report, "getItem", "params.verbose", "nullable-added").breaks).toEqual({ clients: false, servers: true });
  });

  it("reports a change of a shared component at every method and path it reaches, naming the component", () => {
    const memo = report.changes.filter((c) => c.path.endsWith(".memo"));
    expect(memo.map((c) => `${c.method} ${c.path}`)).toEqual(["getItem result.value.memo", "listItems result.value.items[].memo"]);
    expect(memo.every((c) => c.via === "Item")).toBe(true);
  });

  it("a new enum value in a result breaks clients", () => {
    const c = find(report, "listItems", "result.value.items[].state", "enum-values-added");
    expect(c.after).toEqual(["burned"]);
    expect(c.class).toBe("breaking-clients");
  });

  it("a removed method breaks clients; an added one breaks servers (Handlers requires every method)", () => {
    expect(report.summary.methodsRemoved).toEqual(["getLegacy"]);
    expect(report.summary.methodsAdded).toEqual(["getHealth"]);
    expect(find(report, "getLegacy", "", "method-removed").reason).toMatch(/-32601/);
    expect(find(report, "getHealth", "", "method-added").reason).toMatch(/Handlers/);
  });

  it("ignores descriptions and examples unless asked", async () => {
    expect(report.changes.some((c) => c.kind === "description-changed")).toBe(false);
    const docs = await diffSpecs(bumps(1), bumps(2), { includeDocs: true }, root);
    const described = docs.changes.filter((c) => c.kind === "description-changed");
    // Key's description changed: reported wherever Key is reached, as compatible.
    expect(described.map((c) => `${c.method} ${c.path}`)).toEqual([
      "getItem params.id",
      "getItem result.value.id",
      "getItem result.value.owner",
      "listItems params.owner",
      "listItems result.value.items[].id",
      "listItems result.value.items[].owner",
    ]);
    expect(described.every((c) => c.class === "compatible" && c.after === "The base58 text of a 32-byte public key.")).toBe(true);
    // The example of Item.amount changed too (5 → 7): never reported.
    expect(docs.changes.some((c) => c.path.endsWith(".amount"))).toBe(false);
  });
});

describe("diff v2 → v3: formats, required, removed fields and enum values, openness, types, pagination", async () => {
  const report = await diffSpecs(bumps(2), bumps(3), {}, root);

  it("reports exactly these changes, each with its class", () => {
    expect(lines(report)).toEqual([
      "getHealth params params-added breaking-servers",
      "getItem params.id field-optional breaking-servers",
      "getItem result.context.slot format-changed breaking-servers",
      "getItem result.value additional-properties-changed breaking-clients",
      "getItem result.value.amount field-removed breaking-clients",
      "getItem result.value.state enum-values-removed breaking-servers",
      "getSlot result type-changed breaking-both",
      "listItems pagination pagination-changed breaking-both",
      "listItems params.limit format-changed breaking-servers",
      "listItems result.context.slot format-changed breaking-servers",
      "listItems result.value.items[] additional-properties-changed breaking-clients",
      "listItems result.value.items[].amount field-removed breaking-clients",
      "listItems result.value.items[].state enum-values-removed breaking-servers",
    ]);
  });

  it("names formats and says which way they moved", () => {
    const slot = find(report, "getItem", "result.context.slot", "format-changed");
    expect([slot.before, slot.after, slot.effect, slot.bigint]).toEqual(["uint64", "uint32", "narrower", "removed"]);
    expect(slot.reason).toMatch(/number \| bigint → number/);
    const limit = find(report, "listItems", "params.limit", "format-changed");
    expect([limit.before, limit.after, limit.effect]).toEqual(["uint16", "uint32", "wider"]);
  });

  it("a param made optional breaks servers; a removed result field breaks clients", () => {
    expect(find(report, "getItem", "params.id", "field-optional").reason).toMatch(/servers must handle its absence/);
    expect(find(report, "getItem", "result.value.amount", "field-removed").before).toBe("uint64");
  });

  it("a type change with nothing in common breaks both sides", () => {
    const c = find(report, "getSlot", "result", "type-changed");
    expect([c.before, c.after]).toEqual(["integer", "string"]);
  });

  it("reports pagination changes by what differs", () => {
    expect(find(report, "listItems", "pagination", "pagination-changed").message).toBe("pagination order unstated → id asc (base58-bytes)");
  });

  it("with --include-docs, a changed summary is a compatible change", async () => {
    const docs = await diffSpecs(bumps(2), bumps(3), { includeDocs: true }, root);
    const c = find(docs, "getHealth", "summary", "description-changed");
    expect(c.class).toBe("compatible");
    expect(c.message).toBe("summary changed");
  });
});

describe("diff across two bumps (v1 → v3)", async () => {
  const report = await diffSpecs(bumps(1), bumps(3), {}, root);

  it("is the union of both steps where they do not cancel out", async () => {
    const [a, b] = await Promise.all([diffSpecs(bumps(1), bumps(2), {}, root), diffSpecs(bumps(2), bumps(3), {}, root)]);
    // getHealth's params arrive with the method itself, so only the method is new.
    const steps = new Set([...lines(a), ...lines(b)].filter((l) => !l.startsWith("getHealth params")));
    expect(new Set(lines(report))).toEqual(steps);
  });

  it("is deterministic in every format", async () => {
    const again = await diffSpecs(bumps(1), bumps(3), {}, root);
    for (const format of ["text", "markdown", "json"] as const) expect(render(again, format)).toBe(render(report, format));
  });
});

/**
 * Numbers as the real indexer reads them: serde refuses `1.0`, `1e0`, `1e-400` and `-0` for
 * integer fields and a field given twice; the parser, validators, reference, runner and client agree.
 */
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import fc from "fast-check";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runSuite } from "../../conformance/run.js";
import { createClient, methodValidators } from "../../generated/index.js";
import { generateDataset, datasetProfile, type Dataset } from "../../reference/index.js";
import { duplicateKeyIn, nonIntegerLiteral, parseJson, PhotonClientError, validate } from "../../runtime/index.js";
import { root } from "../helpers/paths.js";
import { useReferenceIndexer } from "../helpers/reference.js";
import { startBroken, type BrokenServer } from "../conformance/support/broken-servers.js";

describe("parseJson keeps how numbers were written", () => {
  it("marks fractions, exponents and minus zero, in objects and arrays, at any depth and text length", () => {
    for (const pad of [0, 2000]) {
      const text = `{"p":"${"x".repeat(pad)}","limit":1.0,"a":[1e0,2,-0,0,3E+2,-1.5e-3],"b":{"c":1e-400,"d":18446744073709551615,"e":7}}`;
      const v = parseJson(text) as { limit: number; a: number[]; b: Record<string, unknown> };
      expect(v.limit).toBe(1);
      expect(nonIntegerLiteral(v, "limit")).toBe("1.0");
      expect([0, 1, 2, 3, 4, 5].map((i) => nonIntegerLiteral(v.a, i))).toEqual(["1e0", undefined, "-0", undefined, "3E+2", "-1.5e-3"]);
      expect(nonIntegerLiteral(v.b, "c")).toBe("1e-400");
      expect(nonIntegerLiteral(v.b, "d")).toBeUndefined();
      expect(v.b.d).toBe(18446744073709551615n);
      expect(nonIntegerLiteral(v.b, "e")).toBeUndefined();
    }
  });

  it("never marks an integer literal and always marks another (fast-check)", () => {
    const literal = fc.oneof(
      fc.bigInt({ min: -(2n ** 70n), max: 2n ** 70n }).map((n) => ({ text: n.toString(), integer: n.toString() !== "-0" })),
      fc
        .tuple(fc.integer({ min: -1000, max: 1000 }), fc.constantFrom(".0", ".5", "e0", "E2", "e-400", "e+1", ".25e1"))
        .map(([n, tail]) => ({ text: `${n}${tail}`, integer: false })),
      fc.constant({ text: "-0", integer: false }),
    );
    fc.assert(
      fc.property(fc.array(fc.tuple(fc.string({ maxLength: 12 }), literal), { maxLength: 8 }), fc.string({ maxLength: 30 }), (entries, filler) => {
        const text = `{"f":${JSON.stringify(filler)},"xs":[${entries.map(([, l]) => l.text).join(",")}],"o":{${entries.map(([k, l], i) => `${JSON.stringify(`${i}${k}`)}:${l.text}`).join(",")}}}`;
        const v = parseJson(text) as { xs: unknown[]; o: Record<string, unknown> };
        entries.forEach(([k, l], i) => {
          expect(nonIntegerLiteral(v.xs, i) === undefined, l.text).toBe(l.integer);
          expect(nonIntegerLiteral(v.o, `${i}${k}`) === undefined, l.text).toBe(l.integer);
        });
      }),
      { seed: 1207, numRuns: 400 },
    );
  });

  it("records objects that repeat a key, when asked, and keeps the last value as JSON.parse does", () => {
    const v = parseJson('{"params":{"x":{"a":1,"a":2},"ok":{"k\\u0061":1,"kb":2}},"id":1}', { duplicateKeys: true }) as { params: { x: { a: number } } };
    expect(v.params.x.a).toBe(2);
    expect(duplicateKeyIn(v)).toEqual({ pointer: "/params/x", key: "a" });
    expect(duplicateKeyIn(parseJson('{"k\\u0061":1,"ka":2}', { duplicateKeys: true }))).toEqual({ pointer: "", key: "ka" });
    expect(duplicateKeyIn(parseJson('{"a":{"k":1},"b":[{"k":2},{"k":3}]}', { duplicateKeys: true }))).toBeNull();
    // A big integer overwritten by a later duplicate does not derail the parse.
    expect(duplicateKeyIn(parseJson('{"a":{"v":18446744073709551615,"v":1}}', { duplicateKeys: true }))).toEqual({ pointer: "/a", key: "v" });
  });

  const pointers = (issues: { pointer: string }[]) => [...new Set(issues.map((i) => i.pointer))];

  it("the generated validators refuse non-integer literals for integer and uint64 fields", () => {
    const params = parseJson('{"owner":"11111111111111111111111111111111","limit":1.0}');
    expect(pointers(validate(methodValidators.getCompressedAccountsByOwner.params, params))).toEqual(["/limit"]);
    const memcmp = parseJson('{"owner":"11111111111111111111111111111111","filters":[{"memcmp":{"offset":-0,"bytes":"3"}}]}');
    expect(pointers(validate(methodValidators.getCompressedAccountsByOwner.params, memcmp))).toContain("/filters/0/memcmp/offset");
    expect(validate(methodValidators.getCompressedAccountsByOwner.params, parseJson('{"owner":"11111111111111111111111111111111","limit":1}'))).toEqual([]);
    const slot = parseJson('{"context":{"slot":301002501.0},"value":null}');
    expect(pointers(validate(methodValidators.getCompressedAccount.result, slot))).toEqual(["/context/slot"]);
  });
});

describe("the reference indexer reads numbers as serde does", () => {
  const indexer = useReferenceIndexer();

  const post = async (body: string) =>
    parseJson(await (await fetch(indexer().url, { method: "POST", headers: { "content-type": "application/json" }, body })).text()) as {
      result?: unknown;
      error?: { code: number; message: string; data?: { issues: { pointer: string; message: string }[] } };
    };
  const owner = () =>
    (datasetProfile(generateDataset({ seed: 1, accounts: 20_000 })) as unknown as { ownerWithManyAccounts: { owner: string } }).ownerWithManyAccounts.owner;

  it.each([
    ["1.0", "floating point `1.0`"],
    ["1e0", "floating point `1.0`"],
    ["-0", "floating point `-0.0`"],
    ["1e-400", "floating point `0.0`"],
    ["1000.0", "floating point `1000.0`"],
    ["0.0", "floating point `0.0`"],
  ])("limit: %s → -32602, serde's invalid type (an f64 for a u64), data naming /limit", async (limit, read) => {
    const r = await post(`{"jsonrpc":"2.0","id":1,"method":"getCompressedAccountsByOwner","params":{"owner":"${owner()}","limit":${limit}}}`);
    expect(r.error?.code).toBe(-32602);
    expect(r.error?.message).toBe(`invalid type: ${read}, expected u64`);
    expect(r.error?.data?.issues[0]?.pointer).toBe("/limit");
  });

  it("limit: 1E400 → -32602, serde_json's number out of range, data naming /limit", async () => {
    const r = await post(`{"jsonrpc":"2.0","id":1,"method":"getCompressedAccountsByOwner","params":{"owner":"${owner()}","limit":1E400}}`);
    expect([r.error?.code, r.error?.message, r.error?.data?.issues[0]?.pointer]).toEqual([-32602, "number out of range", "/limit"]);
  });

  it("a field given twice in params → -32602 naming it, at any depth; the envelope's own keys are not params", async () => {
    const o = owner();
    const top = await post(`{"jsonrpc":"2.0","id":1,"method":"getCompressedAccountsByOwner","params":{"owner":"${o}","limit":1,"limit":2}}`);
    expect(top.error).toEqual(expect.objectContaining({ code: -32602 }));
    expect(top.error!.message).toContain("duplicate field `limit`");
    const deep = await post(
      `{"jsonrpc":"2.0","id":1,"method":"getCompressedAccountsByOwner","params":{"owner":"${o}","dataSlice":{"offset":0,"offset":1,"length":2}}}`,
    );
    expect(deep.error?.code).toBe(-32602);
    expect(deep.error?.message).toBe("duplicate field `offset`");
    expect(deep.error?.data?.issues[0]?.pointer).toBe("/dataSlice");
    const fine = await post(`{"jsonrpc":"2.0","id":1,"method":"getCompressedAccountsByOwner","params":{"owner":"${o}","limit":1}}`);
    expect(fine.error).toBeUndefined();
  });

  it("memo keys are exact: limit 1e400 is refused after limit null was answered", async () => {
    const o = owner();
    const nullLimit = await post(`{"jsonrpc":"2.0","id":1,"method":"getCompressedAccountsByOwner","params":{"owner":"${o}","limit":null}}`);
    expect(nullLimit.error).toBeUndefined();
    for (let i = 0; i < 2; i++) {
      const huge = await post(`{"jsonrpc":"2.0","id":2,"method":"getCompressedAccountsByOwner","params":{"owner":"${o}","limit":1e400}}`);
      expect(huge.error?.code).toBe(-32602);
    }
    const batch = parseJson(
      await (
        await fetch(indexer().url, {
          method: "POST",
          headers: { "content-type": "application/json" },
          body: `[{"jsonrpc":"2.0","id":3,"method":"getCompressedAccountsByOwner","params":{"owner":"${o}","limit":1e400}}]`,
        })
      ).text(),
    ) as { error?: { code: number } }[];
    expect(batch[0]!.error?.code).toBe(-32602);
  });
});

describe("results written with non-integer literals", () => {
  let dataset: Dataset;
  let servers: BrokenServer[] = [];
  beforeAll(() => {
    dataset = generateDataset({ seed: 1, accounts: 20_000 });
  });
  afterAll(async () => {
    await Promise.all(servers.map((s) => s.close()));
    servers = [];
  });

  it.each([
    ["slot written as 301002501.0", (t: string) => t.replace(/"slot":(\d+)/g, '"slot":$1.0'), "slot/*"],
    ["lamports 0 written as 0.0", (t: string) => t.replace(/"lamports":0([,}])/g, '"lamports":0.0$1'), "account/*"],
    ["leafIndex written as 1e0-style exponent", (t: string) => t.replace(/"leafIndex":(\d+)/g, '"leafIndex":$1e0'), "account/*"],
  ])(
    "%s fails the schema check, with or without --strict",
    async (_name, text, glob) => {
      const server = await startBroken(dataset, { text });
      servers.push(server);
      const fixtures = datasetProfile(dataset) as never;
      for (const strict of [false, true]) {
        const summary = await runSuite({ url: server.url, casesDir: join(root, "conformance", "cases"), fixtures, caseGlobs: [glob], strict });
        expect(summary.passed).toBe(false);
        const messages = summary.results.flatMap((r) => r.findings.filter((f) => f.status === "fail" && f.check === "schema").map((f) => f.message));
        expect(messages.join("\n")).toMatch(/must be written as an integer/);
      }
    },
    60_000,
  );

  it("the client rejects 1000.0 and 1.5e3 where an integer belongs", async () => {
    for (const slot of ["1000.0", "1.5e3"]) {
      const server: Server = createServer((req, res) => {
        let body = "";
        req.on("data", (c) => (body += c));
        req.on("end", () => {
          const id = (JSON.parse(body) as { id: number }).id;
          res.writeHead(200, { "content-type": "application/json" });
          res.end(`{"jsonrpc":"2.0","id":${id},"result":${slot}}`.replace(`"result":${slot}`, `"result":{"context":{"slot":${slot}},"value":null}`));
        });
      });
      await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
      try {
        const client = createClient({ url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/`, retry: false });
        const error = await client.getCompressedAccount({ hash: "11111111111111111111111111111111" }).catch((e: unknown) => e);
        expect(error).toBeInstanceOf(PhotonClientError);
        expect((error as PhotonClientError).message).toMatch(/context\/slot must be written as an integer/);
      } finally {
        await new Promise<void>((resolve) => server.close(() => resolve()));
      }
    }
  });
});

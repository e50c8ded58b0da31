/** Request bodies: parsing, long numbers, malformed bodies and size limits. */
import { request as httpRequest } from "node:http";
import { describe, expect, it } from "vitest";
import { boundedNumbers, MAX_NUMBER_CHARS, NOT_JSON_200, NOT_JSON_400, parseBody } from "../../../runtime/server/body.js";
import { type Answer, post } from "../../helpers/listener.js";
import { base, err, expectJson, INVALID_NULL, ok, PARSE, rpc, start, useListener } from "./fake-listener.js";

useListener();

describe("request body parsing", () => {
  it("is HTTP 400 unless the first non-blank byte is { or [", () => {
    for (const text of ["", "  ", "null", "1", '"x"']) expect(parseBody(Buffer.from(text))).toBe(NOT_JSON_400);
  });

  it("is HTTP 200 -32700 for text that starts like JSON but is not, or is not UTF-8", () => {
    expect(parseBody(Buffer.from("{oops"))).toBe(NOT_JSON_200);
    expect(parseBody(Buffer.from([0x7b, 0xff, 0x7d]))).toBe(NOT_JSON_200);
  });

  it("tells a batch from a single request", () => {
    expect(parseBody(Buffer.from(' {"a":1}'))).toEqual({ value: { a: 1 }, batch: false });
    expect(parseBody(Buffer.from("[1]"))).toMatchObject({ batch: true });
  });

  it("replaces number literals longer than MAX_NUMBER_CHARS, outside strings, by 2^64 with their sign", () => {
    const long = "1".repeat(MAX_NUMBER_CHARS + 1);
    expect(boundedNumbers(`{"a":${long},"b":-${long},"s":"${long}"}`)).toBe(`{"a":18446744073709551616,"b":-18446744073709551616,"s":"${long}"}`);
    expect(() => boundedNumbers(`{"a":1${"e".repeat(MAX_NUMBER_CHARS)}}`)).toThrow(SyntaxError);
    const short = '{"a":12345}';
    expect(boundedNumbers(short)).toBe(short);
  });
});

describe("malformed bodies", () => {
  it("empty, whitespace-only or not starting with { or [: HTTP 400 -32700", async () => {
    for (const body of ["", "   \n\t", '"abc"', "123", "null", "x{}", "\uFEFF{}"]) {
      expectJson(await post(base, body), 400, PARSE);
    }
  });

  it("starting with { or [ but invalid JSON: HTTP 200 -32700", async () => {
    for (const body of ["{", " \n{bad", "[1,", '{"jsonrpc":"2.0"} x', "[]]", '{"a":"\u0001"}']) {
      expectJson(await post(base, body), 200, PARSE);
    }
    // Invalid UTF-8 inside a string.
    const bytes = Buffer.concat([Buffer.from('{"jsonrpc":"2.0","id":1,"method":"'), Buffer.from([0xff, 0xfe]), Buffer.from('"}')]);
    expectJson(await post(base, bytes), 200, PARSE);
  });
});

describe("size limits", () => {
  it("a declared content-length over the default 10 MiB is 413 before the body is read", async () => {
    const a = await new Promise<Answer>((resolve, reject) => {
      const req = httpRequest(
        {
          host: "127.0.0.1",
          port: new URL(base).port,
          method: "POST",
          path: "/",
          agent: false,
          headers: { "content-type": "application/json", "content-length": 10485761 },
        },
        (res) => {
          const chunks: Buffer[] = [];
          res.on("data", (c: Buffer) => chunks.push(c));
          res.on("end", () => {
            resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks).toString() });
            req.destroy();
          });
        },
      );
      req.on("error", reject);
      req.write("{");
    });
    expectJson(a, 413, `{"jsonrpc":"2.0","error":{"code":-32701,"message":"Request is too big","data":"Exceeded max limit of 10485760"},"id":null}`);
    expectJson(await post(base, rpc("nothing")), 200, ok("null"));
  });

  it("a small limit applies to the declared length", async () => {
    const small = await start({ maxRequestBytes: 64 });
    const body = rpc("getThing", { owner: "x".repeat(80) });
    expectJson(await post(small, body), 413, err(-32701, "Request is too big", "null", `"Exceeded max limit of 64"`));
    expectJson(await post(small, rpc("nothing")), 200, ok("null"));
  });

  it("a chunked body is counted while streaming: 413 as soon as the limit is passed", async () => {
    const small = await start({ maxRequestBytes: 64 });
    const a = await new Promise<Answer>((resolve, reject) => {
      const req = httpRequest(
        { host: "127.0.0.1", port: new URL(small).port, method: "POST", path: "/", agent: false, headers: { "content-type": "application/json" } },
        (res) => {
          const chunks: Buffer[] = [];
          res.on("data", (c: Buffer) => chunks.push(c));
          res.on("end", () => {
            resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks).toString() });
            req.end();
          });
        },
      );
      req.on("error", reject);
      // 40 + 40 bytes; the body is never finished before the answer arrives.
      req.write(`{"jsonrpc":"2.0","id":1,"method":"x","params":{"a":"${"y".repeat(5)}`);
      setTimeout(() => req.write("z".repeat(40)), 20);
    });
    expect(a.headers["transfer-encoding"]).toBeUndefined();
    expectJson(a, 413, err(-32701, "Request is too big", "null", `"Exceeded max limit of 64"`));
    expectJson(await post(small, rpc("nothing")), 200, ok("null"));
  });

  // jsonrpsee core/src/server/helpers.rs:228-253 (one call) and 284-296 (a batch).
  it("a response over the limit becomes -32702 for its id; an oversized batch is one -32600 with id null", async () => {
    const small = await start({ maxResponseBytes: 200 });
    const tooBig = err(-32702, "Response is too big", "5", `"Exceeded max limit of 200"`);
    expectJson(await post(small, rpc("big", undefined, "5")), 200, tooBig);
    expectJson(await post(small, `[${rpc("big", undefined, "5")},${rpc("nothing", undefined, "6")}]`), 200, `[${tooBig},${ok("null", "6")}]`);
    const many = `[${Array.from({ length: 6 }, (_, i) => rpc("getIndexerSlot", undefined, String(i))).join(",")}]`;
    expectJson(await post(small, many), 200, INVALID_NULL);
  });

  it("a batch answer of exactly the limit in bytes is sent; one byte more is -32600", async () => {
    const body = `[${rpc("nothing", undefined, "1")},${rpc("slow", { ms: 0, tag: "é€" }, "2")}]`;
    const answer = `[${ok("null", "1")},${ok('"é€"', "2")}]`;
    const bytes = Buffer.byteLength(answer);
    expect(bytes).toBeGreaterThan(answer.length);
    expectJson(await post(await start({ maxResponseBytes: bytes }), body), 200, answer);
    expectJson(await post(await start({ maxResponseBytes: bytes - 1 }), body), 200, INVALID_NULL);
    // Counted in characters while the batch runs: the answer is exactly the limit there too.
    const ascii = `[${rpc("nothing", undefined, "1")},${rpc("nothing", undefined, "2")}]`;
    const asciiAnswer = `[${ok("null", "1")},${ok("null", "2")}]`;
    expectJson(await post(await start({ maxResponseBytes: asciiAnswer.length }), ascii), 200, asciiAnswer);
    expectJson(await post(await start({ maxResponseBytes: asciiAnswer.length - 1 }), ascii), 200, INVALID_NULL);
  });
});

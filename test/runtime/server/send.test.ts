import { describe, expect, it } from "vitest";
import type { ServerResponse } from "node:http";
import { sendClosing, sendJson, sendParts } from "../../../runtime/server/send.js";

function fakeResponse() {
  const out = { status: 0, headers: {} as Record<string, unknown>, body: [] as Buffer[], headersSent: false, writableEnded: false, destroyed: false };
  const res = {
    get headersSent() {
      return out.headersSent;
    },
    get writableEnded() {
      return out.writableEnded;
    },
    get destroyed() {
      return out.destroyed;
    },
    writeHead(status: number, headers: Record<string, unknown>) {
      out.status = status;
      out.headers = headers;
      out.headersSent = true;
    },
    cork() {},
    uncork() {},
    write(b: Buffer) {
      out.body.push(b);
    },
    end(b: Buffer) {
      out.body.push(b);
      out.writableEnded = true;
    },
  };
  return { res: res as unknown as ServerResponse, out };
}

describe("sending answers", () => {
  it("sends JSON with CORS and an exact content-length, once", () => {
    const { res, out } = fakeResponse();
    sendJson(res, 200, '{"é":1}');
    expect(out.headers).toMatchObject({ "content-type": "application/json; charset=utf-8", "access-control-allow-origin": "*", "content-length": 8 });
    sendJson(res, 500, "{}");
    expect(out.status).toBe(200);
  });

  it("sends three parts without joining them, and text refusals that close the connection", () => {
    const a = fakeResponse();
    sendParts(a.res, Buffer.from("["), Buffer.from("1"), Buffer.from("]"));
    expect([a.out.headers["content-length"], Buffer.concat(a.out.body).toString()]).toEqual([3, "[1]"]);
    const b = fakeResponse();
    sendClosing(b.res, 503, Buffer.from("busy\n"), { "retry-after": "1" });
    expect(b.out.headers).toMatchObject({ "content-type": "text/plain", connection: "close", "retry-after": "1" });
  });
});

/** postJson over unusual HTTP framing: interim responses, encodings, URL userinfo. */
import { gzipSync } from "node:zlib";
import { describe, expect, it } from "vitest";
import { ClientErrorCode } from "../../../runtime/errors.js";
import { postJson } from "../../../runtime/transport.js";
import { BODY, failure, final200, rawServe, RESULT, useServers } from "./servers.js";

useServers();

describe("postJson: unusual HTTP framing", () => {
  it("accepts an unsolicited 100 Continue and uses the final response", async () => {
    const t = await rawServe((_head, socket) => {
      socket.write("HTTP/1.1 100 Continue\r\n\r\n");
      socket.write(final200(RESULT));
    });
    const ex = await postJson(`${t.base}/`, BODY, { retry: false });
    expect([ex.status, ex.body]).toEqual([200, RESULT]);
  });

  it("accepts interim responses split across packets, several in a row, on a reused connection", async () => {
    const t = await rawServe((_head, socket) => {
      socket.write("HTTP/1.1 10");
      setTimeout(() => {
        socket.write("0 Continue\r\nx-note: early\r\n\r\nHTTP/1.1 100 Continue\r\n\r\n");
        setTimeout(() => socket.write(final200(RESULT, "connection: keep-alive\r\n")), 10);
      }, 10);
    });
    for (let i = 0; i < 3; i++) {
      const ex = await postJson(`${t.base}/`, BODY, { retry: false });
      expect([ex.status, ex.body]).toEqual([200, RESULT]);
    }
    expect(t.heads).toHaveLength(3);
  });

  it("still fails on a response that is not HTTP at all", async () => {
    const t = await rawServe((_head, socket) => socket.end("HTTP/1.1 10x nonsense\r\n\r\n"));
    const err = await failure(postJson(`${t.base}/`, BODY, { retry: false }));
    expect(err.code).toBe(ClientErrorCode.NETWORK);
  });

  it("reports a gzip-encoded body that was never negotiated as such, not as bad JSON text", async () => {
    const t = await rawServe((_head, socket) => socket.write(final200(gzipSync(RESULT), "content-encoding: gzip\r\n")));
    const err = await failure(postJson(`${t.base}/`, BODY, { retry: false }));
    expect(err.code).toBe(ClientErrorCode.BAD_JSON);
    expect(err.status).toBe(200);
    expect(err.message).toContain("response is gzip-encoded but no encoding was negotiated");
    expect(t.heads[0]!.toLowerCase()).not.toContain("accept-encoding");
  });

  it("accepts Content-Encoding: identity", async () => {
    const t = await rawServe((_head, socket) => socket.write(final200(RESULT, "content-encoding: identity\r\n")));
    expect((await postJson(`${t.base}/`, BODY, { retry: false })).body).toBe(RESULT);
  });

  it("sends URL userinfo as Basic auth (percent-decoded) and requests the URL without it", async () => {
    const t = await rawServe((_head, socket) => socket.write(final200(RESULT)));
    const url = `${t.base.replace("http://", "http://us%40er:p%3Ass%20w@")}/rpc?api-key=k1`;
    const ex = await postJson(url, BODY, { retry: false });
    expect(ex.body).toBe(RESULT);
    const head = t.heads[0]!;
    expect(head.split("\r\n")[0]).toBe("POST /rpc?api-key=k1 HTTP/1.1");
    expect(head).toContain(`authorization: Basic ${Buffer.from("us@er:p:ss w").toString("base64")}`);
    expect(head).not.toContain("us%40er");
  });

  it("keeps a caller's own authorization header over URL userinfo; a user without password is `user:`", async () => {
    const t = await rawServe((_head, socket) => socket.write(final200(RESULT)));
    await postJson(`${t.base.replace("http://", "http://alice:pw@")}/`, BODY, { retry: false, headers: { Authorization: "Bearer tkn" } });
    await postJson(`${t.base.replace("http://", "http://bob@")}/`, BODY, { retry: false });
    expect(t.heads[0]).toContain("authorization: Bearer tkn");
    expect(t.heads[0]).not.toContain("Basic");
    expect(t.heads[1]).toContain(`authorization: Basic ${Buffer.from("bob:").toString("base64")}`);
  });
});

/** postJson's exchanges over real HTTP: the request as sent, the answer as read, redirects left alone. */
import { Agent, interceptors, request } from "undici";
import { describe, expect, it } from "vitest";
import { postJson } from "../../runtime/transport.js";
import { agent, API_KEY, BODY, json, serve, useServers } from "./transport/servers.js";

useServers();

describe("postJson: exchanges", () => {
  it("POSTs to the URL exactly as given (query string kept) with JSON and caller headers", async () => {
    const t = await serve((_req, res) => {
      res.setHeader("set-cookie", ["a=1", "b=2"]);
      res.setHeader("X-Custom", "Yes");
      json(res, 200, { jsonrpc: "2.0", id: 1, result: "ok" });
    });
    const ex = await postJson(`${t.base}/rpc/v1?api-key=${API_KEY}&cluster=devnet`, BODY, {
      headers: { Authorization: "Bearer tkn-12345", "X-Trace": "t-1" },
    });
    expect(t.hits).toHaveLength(1);
    const hit = t.hits[0]!;
    expect(hit.method).toBe("POST");
    expect(hit.url).toBe(`/rpc/v1?api-key=${API_KEY}&cluster=devnet`);
    expect(hit.body).toBe(BODY);
    expect(hit.headers["content-type"]).toBe("application/json");
    expect(hit.headers.accept).toBe("application/json");
    expect(hit.headers.authorization).toBe("Bearer tkn-12345");
    expect(hit.headers["x-trace"]).toBe("t-1");
    expect(ex.status).toBe(200);
    expect(ex.body).toBe('{"jsonrpc":"2.0","id":1,"result":"ok"}');
    expect(ex.attempts).toBe(1);
    expect(ex.elapsedMs).toBeGreaterThanOrEqual(0);
    expect(ex.headers["x-custom"]).toBe("Yes");
    expect(ex.headers["set-cookie"]).toBe("a=1, b=2");
    expect(Object.keys(ex.headers).every((k) => k === k.toLowerCase())).toBe(true);
  });

  it("decodes UTF-8 split across chunks and drops a byte order mark", async () => {
    const payload = Buffer.from('\ufeff{"name":"żółć €"}', "utf8");
    const t = await serve((_req, res) => {
      res.writeHead(200, { "content-type": "application/json" });
      // Split inside the multi-byte "ż" and send the halves separately.
      res.write(payload.subarray(0, 13));
      setTimeout(() => res.end(payload.subarray(13)), 20);
    });
    const ex = await postJson(`${t.base}/`, BODY, { dispatcher: agent });
    expect(ex.body).toBe('{"name":"żółć €"}');
  });

  it("lets caller headers override the defaults case-insensitively, and supports method/contentType", async () => {
    const t = await serve((_req, res) => json(res, 200, {}));
    await postJson(`${t.base}/a`, BODY, { dispatcher: agent, headers: { "Content-Type": "application/json; charset=utf-8" } });
    await postJson(`${t.base}/b`, "", { dispatcher: agent, method: "GET", contentType: null });
    expect(t.hits[0]!.headers["content-type"]).toBe("application/json; charset=utf-8");
    expect(t.hits[1]!.method).toBe("GET");
    expect(t.hits[1]!.headers["content-type"]).toBeUndefined();
  });

  it("returns a 302 without following it, even through a redirect-following dispatcher", async () => {
    const other = await serve((_req, res) => json(res, 200, { followed: true }));
    const t = await serve((_req, res) => {
      res.writeHead(302, { location: `${other.base}/elsewhere` });
      res.end();
    });
    const ex = await postJson(`${t.base}/rpc`, BODY, { dispatcher: agent });
    expect(ex.status).toBe(302);
    expect(ex.headers.location).toBe(`${other.base}/elsewhere`);

    const following = new Agent().compose(interceptors.redirect({ maxRedirections: 3 }));
    try {
      const viaInterceptor = await postJson(`${t.base}/rpc`, BODY, { dispatcher: following });
      expect(viaInterceptor.status).toBe(302);
      expect(other.hits).toHaveLength(0);
      // The same dispatcher does follow when undici is left to its defaults: the guard matters.
      const raw = await request(`${t.base}/rpc`, { method: "POST", body: BODY, dispatcher: following });
      await raw.body.text();
      expect(other.hits).toHaveLength(1);
    } finally {
      await following.destroy();
    }
  });
});

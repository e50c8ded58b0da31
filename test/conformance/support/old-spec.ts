/** Spec 0.50.0 as the tests use it: its seven methods, and a deployment that serves only those. */
import { createServer, request, type IncomingMessage, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { isObject, parseJson, stringifyJson, type Json } from "@photon-indexer-kit/runtime";
import type { SpecBundle } from "../../../conformance/spec-bundle.js";
import { canonicalMethod } from "../../../conformance/spec-facts.js";

export const OLD = "0.50.0";
export const OLD_METHODS = [
  "getCompressedAccount",
  "getMultipleCompressedAccounts",
  "getCompressedAccountsByOwner",
  "getCompressedTokenAccountsByOwner",
  "getCompressedTokenBalancesByOwner",
  "getCompressionSignaturesForTokenOwner",
  "getIndexerSlot",
];

/**
 * A "0.50.0 deployment": the reference behind a proxy that answers every call of a method 0.50.0
 * lacks as the reference answers an unknown method (the call is forwarded under a name no spec
 * has, so the answer is the reference's own -32601, byte for byte); everything else passes through.
 */
export async function startOldDeployment(upstream: string, old: SpecBundle): Promise<{ url: string; close(): Promise<void> }> {
  const target = new URL(upstream);
  const lacking = (method: unknown) =>
    typeof method === "string" && canonicalMethod(method, old.methods) === undefined && canonicalMethod(method) !== undefined;
  const rename = (call: Json): Json => (isObject(call) && lacking(call.method) ? { ...call, method: "notServedByThisDeployment" } : call);
  const server: Server = createServer((req: IncomingMessage, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      let body = Buffer.concat(chunks);
      try {
        const parsed = parseJson(body.toString("utf8")) as Json;
        const calls = Array.isArray(parsed) ? parsed : [parsed];
        if (calls.some((c) => isObject(c) && lacking(c.method))) body = Buffer.from(stringifyJson(Array.isArray(parsed) ? parsed.map(rename) : rename(parsed)));
      } catch {
        // not JSON: passed through as it came
      }
      const headers = { ...req.headers, host: target.host, "content-length": String(body.length) };
      const forward = request({ host: target.hostname, port: target.port, path: req.url, method: req.method, headers }, (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
      });
      forward.on("error", () => res.destroy());
      forward.end(body);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/`,
    close: () => new Promise<void>((resolve) => (server.closeAllConnections(), server.close(() => resolve()))),
  };
}

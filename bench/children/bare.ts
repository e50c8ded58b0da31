/**
 * Child process: the bare node:http baseline. Answers every request, once its body is read,
 * with the same precomputed bytes and headers (read from a JSON file: `{ headers, body }`).
 * When the body holds the marker `@@ID@@`, the request's JSON-RPC id (found with a regular
 * expression, not parsed) is put in its place, so a client that checks ids can be served.
 * With `--replies FILE` instead (a JSON list of `{ request, body }` and one `headers`), the answer
 * is looked up by the request body's text: precomputed bytes for each of many distinct requests
 * (an unknown body gets HTTP 404).
 * Prints `{"url": …}` when listening; closes on SIGTERM/SIGINT.
 *   node --import tsx/esm --conditions=photon-indexer-kit-source bench/children/bare.ts --reply FILE
 *   node --import tsx/esm --conditions=photon-indexer-kit-source bench/children/bare.ts --replies FILE
 */
import { readFileSync } from "node:fs";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";

function arg(name: string): string | undefined {
  const at = process.argv.indexOf(name);
  return at >= 0 ? process.argv[at + 1] : undefined;
}

const many = arg("--replies");
const file = many ?? arg("--reply");
if (file === undefined) throw new Error("--reply FILE or --replies FILE is required");
const reply = many === undefined ? (JSON.parse(readFileSync(file, "utf8")) as { headers: Record<string, string>; body: string }) : { headers: {}, body: "" };
const table = new Map<string, { out: Buffer; headers: Record<string, string> }>();
if (many !== undefined) {
  const all = JSON.parse(readFileSync(many, "utf8")) as { headers: Record<string, string>; replies: { request: string; body: string }[] };
  for (const r of all.replies) {
    const out = Buffer.from(r.body, "utf8");
    table.set(r.request, { out, headers: { ...all.headers, "content-length": String(out.length) } });
  }
}
const body = Buffer.from(reply.body, "utf8");
const headers = { ...reply.headers, "content-length": String(body.length) };
const [prefix, suffix] = reply.body.split("@@ID@@") as [string, string | undefined];
const ID = /"id"\s*:\s*(\d+|"[^"]*")/;

const server = createServer({ keepAliveTimeout: 5000 }, (req, res) => {
  if (many !== undefined) {
    let text = "";
    req.setEncoding("utf8");
    req.on("data", (chunk: string) => (text += chunk));
    req.on("end", () => {
      const hit = table.get(text);
      if (hit === undefined) {
        res.writeHead(404, { "content-length": "0" });
        res.end();
        return;
      }
      res.writeHead(200, hit.headers);
      res.end(hit.out);
    });
    return;
  }
  if (suffix === undefined) {
    req.on("data", () => {});
    req.on("end", () => {
      res.writeHead(200, headers);
      res.end(body);
    });
    return;
  }
  let text = "";
  req.setEncoding("utf8");
  req.on("data", (chunk: string) => (text += chunk));
  req.on("end", () => {
    const out = Buffer.from(prefix + (ID.exec(text)?.[1] ?? "null") + suffix, "utf8");
    res.writeHead(200, { ...reply.headers, "content-length": String(out.length) });
    res.end(out);
  });
});
server.listen(0, "127.0.0.1", () => {
  const { port } = server.address() as AddressInfo;
  process.stdout.write(`${JSON.stringify({ url: `http://127.0.0.1:${port}/` })}\n`);
});
const shutdown = () => {
  server.close(() => process.exit(0));
  server.closeAllConnections();
};
process.once("SIGTERM", shutdown);
process.once("SIGINT", shutdown);

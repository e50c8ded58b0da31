/**
 * Child process: the bare node:http baseline. Answers every request, once its body is read,
 * with the same precomputed bytes and headers (read from a JSON file: `{ headers, body }`).
 * When the body holds the marker `@@ID@@`, the request's JSON-RPC id (found with a regular
 * expression, not parsed) is put in its place, so a client that checks ids can be served.
 * Prints `{"url": …}` when listening; closes on SIGTERM/SIGINT.
 *   node --import tsx/esm --conditions=photon-indexer-kit-source bench/children/bare.ts --reply FILE
 */
import { readFileSync } from "node:fs";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";

const at = process.argv.indexOf("--reply");
const file = at >= 0 ? process.argv[at + 1] : undefined;
if (file === undefined) throw new Error("--reply FILE is required");
const reply = JSON.parse(readFileSync(file, "utf8")) as { headers: Record<string, string>; body: string };
const body = Buffer.from(reply.body, "utf8");
const headers = { ...reply.headers, "content-length": String(body.length) };
const [prefix, suffix] = reply.body.split("@@ID@@") as [string, string | undefined];
const ID = /"id"\s*:\s*(\d+|"[^"]*")/;

const server = createServer({ keepAliveTimeout: 5000 }, (req, res) => {
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

/**
 * Test servers for request listeners and plain HTTP against them: each server listens on
 * 127.0.0.1 on a free port and is closed (connections too) by `closeListeners`, which a test
 * file calls in its `afterAll`.
 */
import { createServer, request as httpRequest, type IncomingHttpHeaders, type RequestListener, type Server } from "node:http";
import type { AddressInfo } from "node:net";

const servers: Server[] = [];

/** Serves `listener` and returns its base URL (`http://127.0.0.1:PORT`, no trailing slash). */
export async function listen(listener: RequestListener): Promise<string> {
  const server = createServer(listener);
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

/** A port free on 127.0.0.1 just now (another process may take it before it is bound). */
export async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

/** Closes every server `listen` started, dropping their open connections. */
export async function closeListeners(): Promise<void> {
  for (const s of servers.splice(0)) {
    s.closeAllConnections();
    await new Promise<void>((resolve) => s.close(() => resolve()));
  }
}

export interface Answer {
  status: number;
  headers: IncomingHttpHeaders;
  body: string;
}

/** A plain node:http request with full control of headers (content-length included), on a fresh connection. */
export function raw(
  base: string,
  opts: { method?: string; path?: string; headers?: Record<string, string | number>; body?: string | Buffer },
): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const url = new URL(opts.path ?? "/", base);
    const req = httpRequest(
      { host: url.hostname, port: url.port, path: opts.path ?? "/", method: opts.method ?? "POST", headers: opts.headers ?? {}, agent: false },
      (res) => {
        const chunks: Buffer[] = [];
        res.on("data", (c: Buffer) => chunks.push(c));
        res.on("end", () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks).toString("utf8") }));
        res.on("error", reject);
      },
    );
    req.on("error", reject);
    req.end(opts.body);
  });
}

/** POSTs a body (its exact bytes) and returns the answer. */
export function post(
  base: string,
  body: string | Buffer,
  headers: Record<string, string | number> = { "content-type": "application/json" },
  path = "/",
): Promise<Answer> {
  return raw(base, { method: "POST", path, headers, body });
}

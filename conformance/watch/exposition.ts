/**
 * The metrics endpoint: `GET /metrics` answers the registry's Prometheus text exposition; any other
 * path is 404 and any other method 405. Connections, header and request times are bounded, and a
 * request's body is never read, so a scraper (or anyone) cannot hold the process.
 */
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import type { Registry } from "prom-client";

export const METRICS_PATH = "/metrics";

/** Connections served at once; more wait in the kernel's backlog. */
const MAX_CONNECTIONS = 64;

export interface MetricsServer {
  /** `http://HOST:PORT/metrics`, the port as bound (`--metrics-port 0` picks one). */
  readonly url: string;
  close(): Promise<void>;
}

export async function serveMetrics(registry: Registry, host: string, port: number): Promise<MetricsServer> {
  const server: Server = createServer({ requestTimeout: 30_000, headersTimeout: 10_000, keepAliveTimeout: 5_000 }, (req, res) => {
    req.resume();
    const path = (req.url ?? "/").split("?", 1)[0];
    if (path !== METRICS_PATH) return void res.writeHead(404, { "content-type": "text/plain" }).end(`not found: the metrics are at ${METRICS_PATH}\n`);
    if (req.method !== "GET" && req.method !== "HEAD") return void res.writeHead(405, { allow: "GET, HEAD", "content-type": "text/plain" }).end();
    registry.metrics().then(
      (text) => res.writeHead(200, { "content-type": registry.contentType }).end(req.method === "HEAD" ? undefined : text),
      () => res.writeHead(500, { "content-type": "text/plain" }).end("metrics unavailable\n"),
    );
  });
  server.maxConnections = MAX_CONNECTIONS;
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(port, host, () => (server.off("error", reject), resolve()));
  });
  const bound = (server.address() as AddressInfo).port;
  return {
    url: `http://${host.includes(":") ? `[${host}]` : host}:${bound}${METRICS_PATH}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

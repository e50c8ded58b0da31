/** HTTP servers for postJson's tests: node:http ones that record what they get, and raw-socket ones for framing node:http never writes. */
import { once } from "node:events";
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import { createServer as createNetServer, type AddressInfo, type Server as NetServer, type Socket } from "node:net";
import { Agent } from "undici";
import { afterAll, afterEach, beforeAll, expect } from "vitest";
import { PhotonClientError } from "../../../runtime/errors.js";
import type { TransportOptions } from "../../../runtime/transport.js";

export const API_KEY = "sk-live-0123456789abcdef";

export interface Hit {
  method: string;
  url: string;
  headers: IncomingMessage["headers"];
  body: string;
}

export interface TestServer {
  base: string;
  hits: Hit[];
  server: Server;
}

export type Handler = (req: IncomingMessage, res: ServerResponse, hit: Hit, index: number) => void;

const servers: Server[] = [];
/** The files' shared agent: made anew for each file, since files may share this module. */
export let agent = new Agent({ keepAliveTimeout: 2_000 });

export async function serve(handler: Handler): Promise<TestServer> {
  const hits: Hit[] = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      const hit = { method: req.method ?? "", url: req.url ?? "", headers: req.headers, body: Buffer.concat(chunks).toString("utf8") };
      hits.push(hit);
      handler(req, res, hit, hits.length - 1);
    });
  });
  servers.push(server);
  server.listen(0, "127.0.0.1");
  await once(server, "listening");
  const { port } = server.address() as AddressInfo;
  return { base: `http://127.0.0.1:${port}`, hits, server };
}

/** Closes the servers after each test and the agent after the file. */
export function useServers(): void {
  beforeAll(() => {
    if (agent.destroyed) agent = new Agent({ keepAliveTimeout: 2_000 });
  });
  afterEach(async () => {
    for (const socket of rawSockets) socket.destroy();
    await Promise.all(rawServers.splice(0).map((s) => new Promise<void>((resolve) => s.close(() => resolve()))));
    await Promise.all(
      servers.splice(0).map(async (s) => {
        s.closeAllConnections();
        await new Promise<void>((resolve) => s.close(() => resolve()));
      }),
    );
  });

  afterAll(async () => {
    await agent.destroy();
  });
}

/** Records the waits asked for and returns at once. */
export function fakeSleep(): { sleeps: number[]; sleep: NonNullable<TransportOptions["sleep"]> } {
  const sleeps: number[] = [];
  return { sleeps, sleep: async (ms) => void sleeps.push(ms) };
}

export async function failure(promise: Promise<unknown>): Promise<PhotonClientError> {
  try {
    await promise;
  } catch (err) {
    expect(err).toBeInstanceOf(PhotonClientError);
    return err as PhotonClientError;
  }
  throw new Error("expected the call to fail");
}

export function json(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  const text = JSON.stringify(body);
  res.writeHead(status, { "content-type": "application/json", "content-length": String(Buffer.byteLength(text)), ...headers });
  res.end(text);
}

export const BODY = '{"jsonrpc":"2.0","id":1,"method":"getIndexerHealth"}';

const rawServers: NetServer[] = [];
const rawSockets = new Set<Socket>();

/** A net server that, per request head received, writes `reply(head)` (raw bytes). Returns its base URL and the heads. */
export async function rawServe(reply: (head: string, socket: Socket) => void): Promise<{ base: string; heads: string[] }> {
  const heads: string[] = [];
  const server = createNetServer((socket) => {
    rawSockets.add(socket);
    socket.on("close", () => rawSockets.delete(socket));
    socket.on("error", () => {});
    let buffered = "";
    socket.on("data", (chunk: Buffer) => {
      buffered += chunk.toString("latin1");
      for (;;) {
        const end = buffered.indexOf("\r\n\r\n");
        if (end === -1) return;
        const head = buffered.slice(0, end);
        const length = Number(/\r\ncontent-length: *(\d+)/i.exec(head)?.[1] ?? 0);
        if (buffered.length < end + 4 + length) return;
        buffered = buffered.slice(end + 4 + length);
        heads.push(head);
        reply(head, socket);
      }
    });
  });
  rawServers.push(server);
  server.listen(0, "127.0.0.1");
  await once(server, "listening");
  return { base: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, heads };
}

export const RESULT = '{"jsonrpc":"2.0","id":1,"result":"ok"}';
export const final200 = (body: string | Buffer, extra = ""): Buffer =>
  Buffer.concat([
    Buffer.from(`HTTP/1.1 200 OK\r\ncontent-type: application/json\r\ncontent-length: ${Buffer.byteLength(body)}\r\n${extra}\r\n`, "latin1"),
    Buffer.from(body),
  ]);

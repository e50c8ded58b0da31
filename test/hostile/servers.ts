/**
 * Raw node:net servers on 127.0.0.1 writing exactly the bytes a behaviour calls for, each ending
 * itself after `lifetimeMs`; `closeAll()` ends every socket, timer and listener.
 */
import { createServer, type Server, type Socket } from "node:net";
import type { AddressInfo } from "node:net";
import { Agent, request } from "undici";

export interface RawRequest {
  readonly method: string;
  readonly path: string;
  readonly version: string;
  /** Lower-case names. */
  readonly headers: Readonly<Record<string, string>>;
  readonly body: string;
  /** The bytes of the request head and body as received. */
  readonly raw: string;
}

export interface Answer {
  readonly status: number;
  readonly contentType: string;
  readonly body: string;
}

export interface Exchange {
  readonly socket: Socket;
  readonly request: RawRequest;
  /** Requests received by this server so far, this one included (1-based). */
  readonly index: number;
  /** Requests received on this connection so far, this one included (1-based). */
  readonly onConnection: number;
  readonly server: RawServer;
  /** The reference indexer's answer to this request. */
  answer(): Promise<Answer>;
  /** A timer cleared when the socket closes or the server is closed. */
  every(ms: number, tick: () => void): void;
  after(ms: number, tick: () => void): void;
}

/** Writes a response (or not). Return (or resolve to) "close" to stop reading this connection. */
export type Behaviour = (x: Exchange) => unknown;

export interface RawServer {
  readonly url: string;
  readonly host: string;
  readonly port: number;
  /** Connections accepted (even ones never read from). */
  readonly connections: () => number;
  readonly requests: RawRequest[];
  close(): Promise<void>;
}

export interface RawOptions {
  host?: string;
  /** Never read from accepted sockets: the server "never answers". */
  pauseOnConnect?: boolean;
  /** Destroy the server after this long whatever happens. Default 30 s. */
  lifetimeMs?: number;
  /** Where `answer()` forwards requests (a reference indexer URL). */
  upstream?: string;
}

const open = new Set<RawServer>();
/** Made on first use after each close, so a test file closing it leaves none closed for the next. */
let upstreamAgent: Agent | undefined;

/** POSTs a request body to the reference indexer and returns its answer. */
export async function askUpstream(upstream: string, body: string): Promise<Answer> {
  const res = await request(upstream, {
    method: "POST",
    body,
    headers: { "content-type": "application/json" },
    dispatcher: (upstreamAgent ??= new Agent({ keepAliveTimeout: 1_000 })),
  });
  return { status: res.statusCode, contentType: String(res.headers["content-type"] ?? "application/json"), body: await res.body.text() };
}

function parseHead(head: string): Omit<RawRequest, "body" | "raw"> {
  const [line = "", ...rest] = head.split("\r\n");
  const [method = "", path = "", version = ""] = line.split(" ");
  const headers: Record<string, string> = {};
  for (const h of rest) {
    const at = h.indexOf(":");
    if (at > 0) headers[h.slice(0, at).trim().toLowerCase()] = h.slice(at + 1).trim();
  }
  return { method, path, version, headers };
}

export async function startRaw(behaviour: Behaviour, options: RawOptions = {}): Promise<RawServer> {
  const host = options.host ?? "127.0.0.1";
  const sockets = new Set<Socket>();
  const timers = new Set<ReturnType<typeof setTimeout>>();
  const requests: RawRequest[] = [];
  let accepted = 0;
  let closed = false;

  const server: Server = createServer({ pauseOnConnect: options.pauseOnConnect ?? false }, (socket) => {
    accepted++;
    sockets.add(socket);
    socket.on("error", () => {});
    socket.on("close", () => sockets.delete(socket));
    if (options.pauseOnConnect) return;
    let buffer = Buffer.alloc(0);
    let busy = false;
    let stopped = false;
    let onConnection = 0;
    const socketTimers = new Set<ReturnType<typeof setTimeout>>();
    socket.on("close", () => {
      for (const t of socketTimers) clearTimeout(t), clearInterval(t), timers.delete(t);
    });
    const pump = async (): Promise<void> => {
      if (busy || stopped) return;
      busy = true;
      try {
        for (;;) {
          const end = buffer.indexOf("\r\n\r\n");
          if (end === -1) return;
          const head = parseHead(buffer.subarray(0, end).toString("latin1"));
          const length = Number(head.headers["content-length"] ?? 0);
          if (buffer.length < end + 4 + length) return;
          const raw = buffer.subarray(0, end + 4 + length).toString("utf8");
          const body = buffer.subarray(end + 4, end + 4 + length).toString("utf8");
          buffer = buffer.subarray(end + 4 + length);
          const req: RawRequest = { ...head, body, raw };
          requests.push(req);
          const track = (t: ReturnType<typeof setTimeout>) => (timers.add(t), socketTimers.add(t));
          const x: Exchange = {
            socket,
            request: req,
            index: requests.length,
            onConnection: ++onConnection,
            server: handle,
            answer: () => {
              if (!options.upstream) throw new Error("this server has no upstream");
              return askUpstream(options.upstream, body);
            },
            every: (ms, tick) => track(setInterval(tick, ms)),
            after: (ms, tick) => track(setTimeout(tick, ms)),
          };
          const verdict = await behaviour(x);
          if (verdict === "close" || socket.destroyed) {
            stopped = true;
            return;
          }
        }
      } catch {
        socket.destroy();
      } finally {
        busy = false;
      }
    };
    socket.on("data", (chunk: Buffer) => {
      buffer = Buffer.concat([buffer, chunk]);
      void pump();
    });
  });
  server.on("error", () => {});
  await new Promise<void>((resolve) => server.listen(0, host, resolve));
  const { port } = server.address() as AddressInfo;

  const handle: RawServer = {
    url: `http://${host}:${port}/`,
    host,
    port,
    connections: () => accepted,
    requests,
    close: async () => {
      if (closed) return;
      closed = true;
      open.delete(handle);
      clearTimeout(lifetime);
      for (const t of timers) clearTimeout(t), clearInterval(t);
      for (const s of sockets) s.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
  const lifetime = setTimeout(() => void handle.close(), options.lifetimeMs ?? 30_000);
  lifetime.unref();
  open.add(handle);
  return handle;
}

/** Runs `body` with a started server, closing it afterwards (for tests that run concurrently). */
export async function using<T>(server: Promise<RawServer>, body: (server: RawServer) => Promise<T>): Promise<T> {
  const s = await server;
  try {
    return await body(s);
  } finally {
    await s.close();
  }
}

/** Closes every server still open (afterAll). */
export async function closeAll(): Promise<void> {
  await Promise.all([...open].map((s) => s.close()));
}

export async function closeUpstreamAgent(): Promise<void> {
  const agent = upstreamAgent;
  upstreamAgent = undefined;
  await agent?.close();
}

// ---------------------------------------------------------------------------------------
// Writing responses byte by byte.

export function head(status: number, reason: string, headers: Record<string, string | number>, version = "HTTP/1.1"): string {
  return `${version} ${status} ${reason}\r\n${Object.entries(headers)
    .map(([k, v]) => `${k}: ${v}\r\n`)
    .join("")}\r\n`;
}

/** A complete response with a content-length. */
export function respond(socket: Socket, status: number, body: string, headers: Record<string, string | number> = {}): void {
  const reason =
    {
      200: "OK",
      301: "Moved Permanently",
      302: "Found",
      307: "Temporary Redirect",
      308: "Permanent Redirect",
      429: "Too Many Requests",
      500: "Internal Server Error",
    }[status] ?? "Status";
  socket.write(head(status, reason, { "content-type": "application/json", "content-length": Buffer.byteLength(body), ...headers }) + body);
}

/** The request's JSON-RPC id (or ids of a batch), for envelopes written by hand. */
export function idOf(body: string): unknown {
  try {
    const v = JSON.parse(body) as unknown;
    return v && typeof v === "object" && !Array.isArray(v) && "id" in v ? (v as { id: unknown }).id : null;
  } catch {
    return null;
  }
}

/**
 * Streams `total` bytes of a JSON string body without allocating it: one reusable chunk,
 * written only when the socket drains; stops as soon as the client goes away.
 */
export function streamHuge(socket: Socket, total: number, declareLength: boolean, onClose?: (sent: number) => void): void {
  const prefix = Buffer.from('{"jsonrpc":"2.0","id":1,"result":"');
  const chunk = Buffer.alloc(64 * 1024, 0x61);
  const headers: Record<string, string | number> = { "content-type": "application/json" };
  if (declareLength) headers["content-length"] = total;
  else headers["transfer-encoding"] = "chunked";
  const frame = (b: Buffer): Buffer[] => (declareLength ? [b] : [Buffer.from(`${b.length.toString(16)}\r\n`), b, Buffer.from("\r\n")]);
  let sent = 0;
  const write = (b: Buffer): boolean => {
    let ok = true;
    for (const part of frame(b)) ok = socket.write(part) && ok;
    sent += b.length;
    return ok;
  };
  socket.once("close", () => onClose?.(sent));
  socket.write(head(200, "OK", headers));
  write(prefix);
  const pump = (): void => {
    while (!socket.destroyed && sent < total) {
      const n = Math.min(chunk.length, total - sent);
      if (!write(n === chunk.length ? chunk : chunk.subarray(0, n))) {
        socket.once("drain", pump);
        return;
      }
    }
    if (!socket.destroyed && !declareLength) socket.write("0\r\n\r\n");
  };
  pump();
}

/**
 * The default dispatcher: undici's Agent defaults, with sockets that tolerate an unsolicited
 * `100 Continue` interim response.
 */
import type { Socket } from "node:net";
import { Agent, buildConnector } from "undici";

// undici's HTTP/1.1 parser destroys the socket on an unsolicited `100 Continue`; RFC 9110 §15.2 says a
// client must accept one, so the default Agent's sockets drop such heads before the parser sees them.

const REQUEST_LINE = /^[A-Z]+ \S+ HTTP\/1\.1\r\n/;
/** `HTTP/1.0 100` / `HTTP/1.1 100` then a space or CR: the 13 bytes that decide. */
const INTERIM_PREFIX = Buffer.from("HTTP/1.1 100 ", "latin1");
/** An interim head longer than this is not skipped (the parser then refuses it as before). */
const MAX_INTERIM_HEAD = 16 * 1024;
const CRLFCRLF = Buffer.from("\r\n\r\n", "latin1");

/** 1: `buf` starts with a 100 interim head; 0: it does not; -1: too few bytes to tell. */
function interimPrefix(buf: Buffer): number {
  const n = Math.min(buf.length, INTERIM_PREFIX.length);
  for (let i = 0; i < n; i++) {
    const b = buf[i]!;
    if (i === 7 ? b !== 0x30 && b !== 0x31 : i === 12 ? b !== 0x20 && b !== 0x0d : b !== INTERIM_PREFIX[i]) return 0;
  }
  return n === INTERIM_PREFIX.length ? 1 : -1;
}

/**
 * Hides `100 Continue` interim responses on this socket from undici's parser. Only bytes at the start
 * of a response (after a request head is written, pipelining 1) are examined; a body is never touched.
 */
export function tolerateInterimResponses(socket: Socket): Socket {
  const read = socket.read;
  const write = socket.write;
  let atHead = true;
  let held: Buffer | null = null;
  socket.write = function (this: Socket, chunk: unknown, ...rest: unknown[]): boolean {
    if (typeof chunk === "string" && rest[0] === "latin1" && REQUEST_LINE.test(chunk)) atHead = true;
    return (write as (...args: unknown[]) => boolean).call(this, chunk, ...rest);
  } as Socket["write"];
  socket.read = function (this: Socket, size?: number): unknown {
    if (!atHead && held === null) return read.call(this, size);
    const chunk = read.call(this) as Buffer | null;
    let buf: Buffer;
    if (chunk === null) {
      if (held === null) return null;
      // The stream ended on a partial head: hand it over, the parser says what is wrong.
      if (!this.readableEnded) return null;
      buf = held;
      held = null;
      atHead = false;
      return buf;
    }
    buf = held === null ? chunk : Buffer.concat([held, chunk]);
    held = null;
    while (atHead) {
      const prefix = interimPrefix(buf);
      if (prefix === 0) {
        atHead = false;
        break;
      }
      const end = prefix === 1 ? buf.indexOf(CRLFCRLF) : -1;
      if (end === -1) {
        if (buf.length > MAX_INTERIM_HEAD) {
          atHead = false;
          break;
        }
        held = buf;
        return null;
      }
      buf = buf.subarray(end + 4);
      if (buf.length === 0) return null;
    }
    return buf;
  } as Socket["read"];
  return socket;
}

const baseConnect = buildConnector({});
let defaultAgent: Agent | undefined;

/** The default dispatcher: undici's Agent defaults, with sockets that tolerate interim responses. */
export function defaultDispatcher(): Agent {
  return (defaultAgent ??= new Agent({
    connect: (opts, callback) =>
      baseConnect(opts, (err, socket) => {
        if (err !== null) callback(err, null);
        else callback(null, tolerateInterimResponses(socket as Socket));
      }),
  }));
}

/**
 * The hostile behaviours, each a function of one request; those mangling a right answer take it
 * from the reference indexer (`x.answer()`), so recoverable ones lead to passing cases.
 */
import { parseJson, stringifyJson } from "../../runtime/index.js";
import { head, idOf, respond, startRaw, streamHuge, type Behaviour, type RawOptions, type RawServer } from "./servers.js";

export const HUGE_BYTES = 200 * 1024 * 1024;
export const DEEP = 100_000;
export const DIGITS = 1_000_000;

const JSON_TYPE = "application/json; charset=utf-8";
/** What rate-limiting gateways in front of Photon send with a 429. */
const RATE_LIMITED = `{"jsonrpc":"2.0","error":{"code":-32429,"message":"Exceeded rate limit."},"id":null}`;

/** The reference answer with its body edited as parsed JSON (uint64 kept exact). */
function edited(edit: (body: any) => unknown): Behaviour {
  return async (x) => {
    const a = await x.answer();
    respond(x.socket, a.status, stringifyJson(edit(parseJson(a.body))), { "content-type": JSON_TYPE });
  };
}

function withBody(status: number, contentType: string, body: (id: unknown) => string): Behaviour {
  return (x) => respond(x.socket, status, body(idOf(x.request.body)), { "content-type": contentType });
}

const HTML = (title: string) => `<!DOCTYPE html>\n<html><head><title>${title}</title></head><body><h1>${title}</h1><p>nginx</p></body></html>\n`;

interface Entry {
  behaviour: Behaviour;
  options?: RawOptions;
}

/** Types each entry as a Behaviour while keeping the names as a union. */
const catalogue = <K extends string>(entries: Record<K, Entry>): Record<K, Entry> => entries;

export const behaviours = catalogue({
  /** Accepts the connection (the kernel does) and never reads nor writes. */
  "never answers": { options: { pauseOnConnect: true }, behaviour: () => {} },

  /** Reads the request, sends a status line and one header, and never ends the head. */
  "accepts and never sends headers": {
    behaviour: (x) => {
      x.socket.write("HTTP/1.1 200 OK\r\nContent-Type: application/json\r\n");
      return "close";
    },
  },

  /** The head at once (chunked), then the right body one byte a second, a chunk each. */
  "drips one byte per second": {
    behaviour: async (x) => {
      x.socket.write(head(200, "OK", { "content-type": JSON_TYPE, "transfer-encoding": "chunked" }));
      const body = Buffer.from((await x.answer()).body);
      let sent = 0;
      x.every(1000, () => sent < body.length && x.socket.write(Buffer.concat([Buffer.from("1\r\n"), body.subarray(sent, ++sent), Buffer.from("\r\n")])));
      return "close";
    },
  },

  /** Half of the body, then a TCP reset. */
  "resets mid-body": {
    behaviour: async (x) => {
      const body = Buffer.from((await x.answer()).body);
      x.socket.write(head(200, "OK", { "content-type": JSON_TYPE, "content-length": body.length }));
      x.socket.write(body.subarray(0, body.length >> 1));
      x.after(20, () => x.socket.resetAndDestroy());
      return "close";
    },
  },

  /** Half of the body, then a clean close (FIN) short of the content-length. */
  "closes before the body ends": {
    behaviour: async (x) => {
      const body = Buffer.from((await x.answer()).body);
      x.socket.write(head(200, "OK", { "content-type": JSON_TYPE, "content-length": body.length }));
      x.socket.end(body.subarray(0, body.length >> 1));
      return "close";
    },
  },

  "sends non-JSON": { behaviour: withBody(200, JSON_TYPE, () => "this is not JSON {") },
  "sends HTML": { behaviour: withBody(200, "text/html", () => HTML("Welcome")) },
  "sends an empty body": { behaviour: withBody(200, JSON_TYPE, () => "") },

  /** 200 MB of a JSON string, chunked (no content-length): the cap must be counted while streaming. */
  "sends a 200 MB body": {
    behaviour: (x) => {
      streamHuge(x.socket, HUGE_BYTES, false);
      return "close";
    },
  },

  /** 200 MB declared in content-length: refused before the body is read. */
  "declares a 200 MB body": {
    behaviour: (x) => {
      streamHuge(x.socket, HUGE_BYTES, true);
      return "close";
    },
  },

  /** A result nested 100,000 arrays deep (no long digit run: the native parser's path). */
  "sends JSON nested 100,000 deep": {
    behaviour: withBody(200, JSON_TYPE, (id) => `{"jsonrpc":"2.0","id":${JSON.stringify(id)},"result":${"[".repeat(DEEP)}${"]".repeat(DEEP)}}`),
  },

  /** An otherwise fine envelope whose id is nested 100,000 deep. */
  "sends JSON nested 100,000 deep in the id": {
    behaviour: withBody(200, JSON_TYPE, () => `{"jsonrpc":"2.0","id":${"[".repeat(DEEP)}${"]".repeat(DEEP)},"result":1}`),
  },

  /** The same with a 20-digit number inside (the lossless parser's path). */
  "sends JSON nested 100,000 deep with a u64 inside": {
    behaviour: withBody(
      200,
      JSON_TYPE,
      (id) => `{"jsonrpc":"2.0","id":${JSON.stringify(id)},"result":${"[".repeat(DEEP)}18446744073709551615${"]".repeat(DEEP)}}`,
    ),
  },

  /**
   * The right answer with its slot (context.slot, or the bare slot) 1,000,000 digits long, spliced
   * into the text (a bigint that long takes seconds to write): refused unparsed by the client.
   */
  "sends a number with 1,000,000 digits": {
    behaviour: async (x) => {
      const a = await x.answer();
      const body = a.body.replace(/("slot":|"result":)\d+/, `$1${"9".repeat(DIGITS)}`);
      respond(x.socket, a.status, body, { "content-type": JSON_TYPE });
    },
  },

  /** 302 back to the very same URL (query string and all). */
  "redirects in a loop": {
    behaviour: (x) => respond(x.socket, 302, "", { location: `http://${x.server.host}:${x.server.port}${x.request.path}` }),
  },

  "answers 429 with Retry-After: 3600 every time": {
    behaviour: (x) => respond(x.socket, 429, RATE_LIMITED, { "content-type": JSON_TYPE, "retry-after": "3600" }),
  },

  "answers 500 with an HTML page": { behaviour: withBody(500, "text/html", () => HTML("500 Internal Server Error")) },

  "sends Content-Type: text/plain": {
    behaviour: async (x) => {
      const a = await x.answer();
      respond(x.socket, a.status, a.body, { "content-type": "text/plain" });
    },
  },

  "sends a valid envelope for a different id": {
    behaviour: edited((b) => {
      if (b && !Array.isArray(b)) b.id = typeof b.id === "number" ? b.id + 1000 : "someone-else";
      return b;
    }),
  },

  "answers a batch out of order": { behaviour: edited((b) => (Array.isArray(b) ? b.reverse() : b)) },

  /** A right answer framed as HTTP/1.0: no content-length, the body ends when the connection does. */
  "answers in HTTP/1.0": {
    behaviour: async (x) => {
      const a = await x.answer();
      x.socket.end(head(a.status, "OK", { "content-type": JSON_TYPE }, "HTTP/1.0") + a.body);
      return "close";
    },
  },

  /** HTTP/1.1 with `Connection: close` and no content-length (close-delimited body). */
  "answers Connection: close without content-length": {
    behaviour: async (x) => {
      const a = await x.answer();
      x.socket.end(head(a.status, "OK", { "content-type": JSON_TYPE, connection: "close" }) + a.body);
      return "close";
    },
  },

  /** Promises keep-alive, then resets the connection when a second request arrives on it. */
  "breaks its keep-alive promise": {
    behaviour: async (x) => {
      if (x.onConnection > 1) {
        x.socket.resetAndDestroy();
        return "close";
      }
      const a = await x.answer();
      respond(x.socket, a.status, a.body, { "content-type": JSON_TYPE, connection: "keep-alive", "keep-alive": "timeout=60" });
    },
  },

  /** Both content-length and chunked: a smuggling-shaped response HTTP parsers must refuse. */
  "sends content-length and chunked together": {
    behaviour: async (x) => {
      const body = (await x.answer()).body;
      x.socket.write(
        head(200, "OK", { "content-type": JSON_TYPE, "content-length": 5, "transfer-encoding": "chunked" }) +
          `${Buffer.byteLength(body).toString(16)}\r\n${body}\r\n0\r\n\r\n`,
      );
    },
  },

  /** The body with no status line or head at all (HTTP/0.9 style). */
  "sends a body without a status line": {
    behaviour: async (x) => {
      x.socket.end((await x.answer()).body);
      return "close";
    },
  },
});

export type BehaviourName = keyof typeof behaviours;

/** Starts one behaviour's server, answering from `upstream` where it needs the right answer. */
export function startBehaviour(name: BehaviourName, upstream: string, lifetimeMs = 20_000): Promise<RawServer> {
  const entry = behaviours[name];
  return startRaw(entry.behaviour, { ...entry.options, upstream, lifetimeMs });
}

/** 429 with `Retry-After: 1` the first time a request body is seen, the right answer after. */
export function rateLimitedOnce(): Behaviour {
  const seen = new Set<string>();
  return async (x) => {
    if (!seen.has(x.request.body)) {
      seen.add(x.request.body);
      respond(x.socket, 429, RATE_LIMITED, { "content-type": JSON_TYPE, "retry-after": "1" });
      return;
    }
    const a = await x.answer();
    respond(x.socket, a.status, a.body, { "content-type": JSON_TYPE });
  };
}

/** 307 to the same path on `other` (another host). */
export function redirectTo(other: RawServer): Behaviour {
  return (x) => respond(x.socket, 307, "", { location: `http://${other.host}:${other.port}${x.request.path}` });
}

/**
 * The generated client against the hostile servers: each failure a typed PhotonClientError or
 * RpcError with the right code, retries within their bound, no redirect followed.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createClient, type PhotonClient } from "../../generated/index.js";
import { ClientErrorCode, PhotonClientError, RpcError, type ClientErrorCodeValue } from "../../runtime/index.js";
import { rateLimitedOnce, redirectTo, startBehaviour, type BehaviourName } from "./behaviours.js";
import { PATIENT_MS, TIMEOUT_MS } from "./harness.js";
import { askUpstream, closeAll, closeUpstreamAgent, idOf, respond, startRaw, using, type RawServer } from "./servers.js";
import { useReferenceIndexer } from "../helpers/reference.js";
import { datasetProfile, generateDataset } from "../../reference/dataset.js";

/** An address the default reference dataset holds (its profile's `knownAddress`). */
const ADDRESS = datasetProfile(generateDataset()).knownAddress;

const reference = useReferenceIndexer();
let slot: number;

beforeAll(async () => {
  slot = (await createClient({ url: reference().url }).getIndexerSlot()) as number;
});
afterAll(async () => {
  await closeAll();
  await closeUpstreamAgent();
});

/** The generated client as an application would build it: default retries; TIMEOUT_MS where the timeout is the behaviour. */
function clientOf(server: RawServer, timeoutMs = PATIENT_MS): PhotonClient {
  return createClient({ url: server.url, timeoutMs });
}

/** Both kinds of call: a bare result and a context/value result with params. */
const calls: [string, (c: PhotonClient) => Promise<unknown>][] = [
  ["getIndexerSlot", (c) => c.getIndexerSlot()],
  ["getCompressedAccount", (c) => c.getCompressedAccount({ address: ADDRESS })],
];

async function outcome(call: () => Promise<unknown>): Promise<{ value?: unknown; error?: unknown }> {
  try {
    return { value: await call() };
  } catch (error) {
    return { error };
  }
}

interface Failure {
  code: ClientErrorCodeValue;
  status?: number;
  message: RegExp;
  /** Requests the server may see per call (retries included). Default 1. */
  requests?: number;
  /** The client's timeout (default PATIENT_MS). */
  timeoutMs?: number;
}

/** Both calls at once: each fails as `want` says, with bounded retries. */
async function expectFailure(server: RawServer, want: Failure): Promise<void> {
  const client = clientOf(server, want.timeoutMs);
  const results = await Promise.all(calls.map(([, call]) => outcome(() => call(client))));
  for (const [i, r] of results.entries()) {
    expect(r.error, `${calls[i]![0]} must fail`).toBeInstanceOf(PhotonClientError);
    const err = r.error as PhotonClientError;
    expect({ code: err.code, status: err.status }).toEqual({ code: want.code, status: want.status });
    expect(err.message).toMatch(want.message);
  }
  expect(server.requests.length).toBeLessThanOrEqual(calls.length * (want.requests ?? 1));
}

const failing: [BehaviourName, Failure][] = [
  ["never answers", { code: ClientErrorCode.TIMEOUT, message: /timed out after 1000 ms waiting for the response/, requests: 0, timeoutMs: TIMEOUT_MS }],
  ["accepts and never sends headers", { code: ClientErrorCode.TIMEOUT, message: /timed out after 1000 ms waiting for the response/, timeoutMs: TIMEOUT_MS }],
  [
    "drips one byte per second",
    { code: ClientErrorCode.TIMEOUT, status: 200, message: /timed out after 1000 ms reading the HTTP 200 response body/, timeoutMs: TIMEOUT_MS },
  ],
  [
    "resets mid-body",
    { code: ClientErrorCode.NETWORK, status: 200, message: /connection closed while reading the HTTP 200 response body: (ECONNRESET|UND_ERR_SOCKET)/ },
  ],
  [
    "closes before the body ends",
    { code: ClientErrorCode.NETWORK, status: 200, message: /connection closed while reading the HTTP 200 response body: UND_ERR_SOCKET/ },
  ],
  ["sends non-JSON", { code: ClientErrorCode.BAD_JSON, status: 200, message: /HTTP 200, body is not JSON \(Unexpected token.*\): this is not JSON \{$/ }],
  ["sends HTML", { code: ClientErrorCode.BAD_JSON, status: 200, message: /body is not JSON .*<!DOCTYPE html>/ }],
  ["sends an empty body", { code: ClientErrorCode.BAD_JSON, status: 200, message: /HTTP 200, body is not JSON: \(empty\)$/ }],
  ["sends JSON nested 100,000 deep", { code: ClientErrorCode.BAD_JSON, status: 200, message: /body is not JSON \(JSON is nested more than 512 levels deep\)/ }],
  [
    "sends JSON nested 100,000 deep in the id",
    { code: ClientErrorCode.BAD_JSON, status: 200, message: /body is not JSON \(JSON is nested more than 512 levels deep\)/ },
  ],
  [
    "sends JSON nested 100,000 deep with a u64 inside",
    { code: ClientErrorCode.BAD_JSON, status: 200, message: /body is not JSON \(JSON is nested more than 512 levels deep\)/ },
  ],
  [
    "sends a number with 1,000,000 digits",
    { code: ClientErrorCode.BAD_JSON, status: 200, message: /body is not JSON \(a number literal of 1000000 characters at character \d+: longer than the 40/ },
  ],
  ["redirects in a loop", { code: ClientErrorCode.REDIRECT, status: 302, message: /HTTP 302 redirect not followed/ }],
  ["answers 500 with an HTML page", { code: ClientErrorCode.HTTP_STATUS, status: 500, message: /HTTP 500, body is not JSON .*500 Internal Server Error/ }],
  ["sends a valid envelope for a different id", { code: ClientErrorCode.BAD_ENVELOPE, message: /response id \d{4} does not match request id \d$/ }],
  ["sends content-length and chunked together", { code: ClientErrorCode.NETWORK, message: /UND_ERR_RES_CONTENT_LENGTH_MISMATCH/ }],
  ["sends a body without a status line", { code: ClientErrorCode.NETWORK, message: /does not match the HTTP\/1\.1 protocol/ }],
];

describe.concurrent("the generated client against a hostile server throws a typed error naming the cause", () => {
  it.each(failing)(
    "%s",
    async (name, want) => {
      await using(startBehaviour(name, reference().url), (server) => expectFailure(server, want));
    },
    15_000,
  );

  it("redirects to another host: REDIRECT, the other host gets no connection", async () => {
    await using(
      startRaw(() => "close", { host: "127.0.0.2" }),
      async (other) => {
        await using(startRaw(redirectTo(other)), (server) =>
          expectFailure(server, { code: ClientErrorCode.REDIRECT, status: 307, message: /HTTP 307 redirect not followed/ }),
        );
        expect(other.connections()).toBe(0);
      },
    );
  }, 15_000);

  it("answers 429 with Retry-After: 3600 every time: the gateway's RpcError at once, not retried", async () => {
    await using(startBehaviour("answers 429 with Retry-After: 3600 every time", reference().url), async (server) => {
      const client = clientOf(server);
      for (const [, call] of calls) {
        const r = await outcome(() => call(client));
        expect(r.error).toBeInstanceOf(RpcError);
        expect(r.error).toMatchObject({ code: -32429, status: 429, message: "Exceeded rate limit." });
      }
      expect(server.requests).toHaveLength(calls.length);
    });
  }, 15_000);

  it("answers a single call with a batch, its own reply not first: BAD_ENVELOPE", async () => {
    const batch = startRaw(async (x) => {
      const right = JSON.parse((await askUpstream(reference().url, x.request.body)).body) as unknown;
      respond(x.socket, 200, JSON.stringify([{ jsonrpc: "2.0", id: 999, result: 1 }, right]));
    });
    await using(batch, (server) =>
      expectFailure(server, { code: ClientErrorCode.BAD_ENVELOPE, message: /not a JSON-RPC 2\.0 response: \[\{"jsonrpc":"2\.0","id":999/ }),
    );
  }, 15_000);
});

describe.concurrent("the generated client gets the right answer where the server is odd but right", () => {
  async function expectRightAnswers(server: RawServer): Promise<void> {
    const client = clientOf(server);
    expect(await client.getIndexerSlot()).toBe(slot);
    const account = await client.getCompressedAccount({ address: ADDRESS });
    expect(account.context.slot).toBe(slot);
    expect(account.value?.address).toBe(ADDRESS);
  }

  it("answers 429 with Retry-After: 1, then succeeds: one wait of a second per call, one retry", async () => {
    await using(startRaw(rateLimitedOnce(), { upstream: reference().url }), async (server) => {
      const started = performance.now();
      await expectRightAnswers(server);
      const ms = performance.now() - started;
      expect(ms).toBeGreaterThanOrEqual(2 * 1000);
      expect(server.requests).toHaveLength(2 * calls.length);
    });
  }, 15_000);

  it("sends Content-Type: text/plain with a right body: accepted (the client reads JSON by content; the runner flags the header)", async () => {
    await using(startBehaviour("sends Content-Type: text/plain", reference().url), expectRightAnswers);
  }, 15_000);

  it.each<BehaviourName>(["answers in HTTP/1.0", "answers Connection: close without content-length", "breaks its keep-alive promise"])(
    "%s",
    async (name) => {
      await using(startBehaviour(name, reference().url), async (server) => {
        await expectRightAnswers(server);
        await expectRightAnswers(server); // again, over whatever connections are left
      });
    },
    15_000,
  );

  it("breaks its keep-alive promise on every reused connection: retried on a fresh one, within the retry bound", async () => {
    await using(startBehaviour("breaks its keep-alive promise", reference().url), async (server) => {
      const client = clientOf(server);
      for (let i = 0; i < 5; i++) expect(await client.getIndexerSlot()).toBe(slot);
      // At most one reset (and so one retry) per call.
      expect(server.requests.length).toBeLessThanOrEqual(2 * 5);
      expect(new Set(server.requests.map((q) => idOf(q.body))).size).toBe(5);
    });
  }, 15_000);
});

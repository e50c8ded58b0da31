/**
 * 200 MB answers: the runner and the client abort each body at the cap (16 MiB) instead of
 * buffering it, so the process grows by a few caps at most, one per request in flight.
 */
import { join } from "node:path";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { createClient } from "../../generated/index.js";
import { ClientErrorCode, PhotonClientError } from "../../runtime/index.js";
import { useScratch } from "../helpers/scratch.js";
import { HUGE_BYTES } from "./behaviours.js";
import { CONCURRENCY, failures, rssSampler, runAgainst } from "./harness.js";
import { closeAll, startRaw, streamHuge, type RawServer } from "./servers.js";

const MiB = 1024 * 1024;
const CAP = 16 * MiB;
const dir = useScratch("hostile-memory");

beforeAll(async () => {
  // Load the CLI, the case corpus and the validators once, so RSS growth measures bodies only.
  const warm = await startRaw((x) => void x.socket.end("HTTP/1.1 200 OK\r\ncontent-type: application/json\r\ncontent-length: 2\r\n\r\n{}"));
  await runAgainst(warm.url, join(dir, "warm-up.json"));
  await warm.close();
}, 20_000);
afterEach(closeAll);
afterAll(async () => {
  await closeAll();
});

/** A server answering every request with 200 MB; `sent` gets the bytes each answer got out. */
async function huge(declareLength: boolean): Promise<{ server: RawServer; sent: number[] }> {
  const sent: number[] = [];
  const server = await startRaw((x) => {
    streamHuge(x.socket, HUGE_BYTES, declareLength, (n) => sent.push(n));
    return "close";
  });
  return { server, sent };
}

/** Waits until every answer has been cut off (its socket closed). */
async function settled(sent: number[], answers: number): Promise<void> {
  for (let i = 0; i < 100 && sent.length < answers; i++) await new Promise((r) => setTimeout(r, 20));
}

describe("a 200 MB body is aborted at the cap, never buffered", () => {
  it.each([
    [
      "streamed without content-length",
      false,
      /HTTP 200 response body exceeds the limit of 16777216 bytes \(16 MiB\) \(\d+ bytes received when it was aborted\); request aborted \[PHOTON_ERR_BODY_TOO_LARGE\]/,
    ],
    [
      "declared in content-length",
      true,
      /HTTP 200 response body exceeds the limit of 16777216 bytes \(16 MiB\) \(content-length is 209715200\); request aborted \[PHOTON_ERR_BODY_TOO_LARGE\]/,
    ],
  ] as const)(
    "the runner, %s: cases fail naming the cap; RSS grows far less than 200 MB",
    async (_name, declareLength, cause) => {
      const { server, sent } = await huge(declareLength);
      const rss = rssSampler();
      const r = await runAgainst(server.url, join(dir, `runner-${declareLength}.json`));
      const growth = rss.stop();
      expect(r.code).toBe(1);
      for (const c of r.report!.cases) {
        expect(c.status).toBe("fail");
        expect(
          failures(c).some((f) => cause.test(f)),
          failures(c).join("\n"),
        ).toBe(true);
      }
      // At most one capped body per request in flight (uncollected garbage of earlier ones
      // included), plus slack: bounded by the cap and the concurrency, not by the body.
      expect(growth).toBeLessThan(CONCURRENCY * CAP + 48 * MiB);
      await settled(sent, server.requests.length);
      expect(sent).toHaveLength(server.requests.length);
      // Each answer was cut off soon after the cap (socket buffers allow some more), not sent whole.
      for (const n of sent) expect(n).toBeLessThan(CAP + 16 * MiB);
    },
    20_000,
  );

  it("the generated client: BODY_TOO_LARGE at the cap, and a smaller cap is honoured", async () => {
    const { server, sent } = await huge(false);
    const rss = rssSampler();
    for (const maxBodyBytes of [undefined, MiB]) {
      const client = createClient({ url: server.url, timeoutMs: 5000, ...(maxBodyBytes ? { maxBodyBytes } : {}) });
      const error = await client.getIndexerSlot().then(
        () => null,
        (err: unknown) => err,
      );
      expect(error).toBeInstanceOf(PhotonClientError);
      expect(error).toMatchObject({ code: ClientErrorCode.BODY_TOO_LARGE, status: 200, details: { limit: maxBodyBytes ?? CAP } });
    }
    const growth = rss.stop();
    expect(growth).toBeLessThan(2 * CAP + 32 * MiB);
    await settled(sent, 2);
    expect(sent).toHaveLength(2);
    expect(sent[1]!).toBeLessThan(MiB + 16 * MiB);
  }, 20_000);
});

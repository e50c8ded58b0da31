/**
 * `--spec URL` is read under one overall deadline, not per chunk: a server dripping a byte every
 * 100 ms ends both CLIs with exit 2 once PHOTON_SPEC_TIMEOUT has passed.
 */
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { main as conformance } from "../../conformance/cli/main.js";
import { main as gen } from "../../generator/cli.js";
import { loadSpec } from "../../generator/load.js";
import { captured } from "../helpers/capture.js";
import { useScratch } from "../helpers/scratch.js";

const dir = useScratch("spec-deadline");
let server: Server;
let base = "";
let dripped = 0;

beforeAll(async () => {
  server = createServer((_req, res) => {
    res.writeHead(200, { "content-type": "application/yaml" }); // chunked: no length, no end
    res.write("openapi: 3.0.3\n");
    const timer = setInterval(() => {
      res.write("#");
      dripped++;
    }, 100);
    res.on("close", () => clearInterval(timer));
  });
  await new Promise<void>((done) => server.listen(0, "127.0.0.1", done));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterEach(() => {
  vi.unstubAllEnvs();
});
afterAll(async () => {
  server.closeAllConnections();
  await new Promise((done) => server.close(done));
});

describe("a spec URL that drips one byte every 100 ms", () => {
  it("ends photon-gen generate at the overall deadline, exit 2", async () => {
    vi.stubEnv("PHOTON_SPEC_TIMEOUT", "600ms");
    dripped = 0;
    const r = await captured(gen, ["generate", "--spec", `${base}/drip.yaml`, "--out", dir]);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(`${base}/drip.yaml: cannot fetch the spec:`);
    expect(r.stderr).toContain("timed out after 600 ms reading the HTTP 200 response body");
    expect(dripped).toBeGreaterThanOrEqual(2); // bytes kept coming: no gap between chunks tripped
  });

  it("ends photon-conformance run --spec at the overall deadline, exit 2", async () => {
    vi.stubEnv("PHOTON_SPEC_TIMEOUT", "0.6s");
    dripped = 0;
    const r = await captured(conformance, ["run", "--spec", `${base}/drip.yaml`, "--list"]);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain("timed out after 600 ms reading the HTTP 200 response body");
    expect(dripped).toBeGreaterThanOrEqual(2);
  });

  it("refuses a PHOTON_SPEC_TIMEOUT that is not a duration, naming it", async () => {
    vi.stubEnv("PHOTON_SPEC_TIMEOUT", "soon");
    await expect(loadSpec(`${base}/drip.yaml`)).rejects.toThrow("PHOTON_SPEC_TIMEOUT is a duration");
  });
});

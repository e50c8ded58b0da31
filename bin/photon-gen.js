#!/usr/bin/env node
// Entry point of the published bin: runs the compiled CLI (see scripts/build.mjs).
import { main } from "../dist/generator/cli.js";

// A reader that went away (`photon-gen diff … | head -1`) ends nothing: the rest is dropped, the exit code kept.
for (const stream of [process.stdout, process.stderr])
  stream.on("error", (err) => {
    if (err.code !== "EPIPE") throw err;
  });
process.exitCode = await main(process.argv.slice(2));

#!/usr/bin/env node
// Entry point of the published bin: runs the compiled CLI (see scripts/build.mjs).
import { main } from "../dist/conformance/cli/main.js";

process.exitCode = await main(process.argv.slice(2));

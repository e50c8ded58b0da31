/**
 * errors: a negative case gets a JSON-RPC error with the expected code (and message, when the
 * case pins one), in the documented error shape, whatever the HTTP status (Photon answers
 * JSON-RPC errors with HTTP 200; gateways answer 429 with an error body).
 */
import { isObject } from "@photon-indexer-kit/runtime";
import { matchesPattern } from "../matchers.js";
import { fail, pass, type Finding } from "../results.js";
import { show, type Check } from "./check.js";

export const errorsCheck: Check = {
  name: "errors",
  applies: (c) => c.expect.error !== null,
  run({ testCase, exchange }) {
    const want = testCase.expect.error!;
    const body = exchange.body;
    if (!isObject(body) || !isObject(body.error)) {
      const got = isObject(body) && "result" in body ? `a result ${show(body.result, 80)}` : exchange.parseError ? "a non-JSON body" : show(body, 80);
      return [fail("errors", `expected JSON-RPC error ${want.code}, got ${got}`, String(want.code))];
    }
    const { code, message } = body.error;
    const findings: Finding[] = [];
    if (typeof code !== "number" || !Number.isInteger(code)) findings.push(fail("errors", "error.code is not an integer", "integer", show(code)));
    else if (code !== want.code) findings.push(fail("errors", "wrong error code", String(want.code), String(code)));
    else findings.push(pass("errors", `error ${code}`));
    if (typeof message !== "string") findings.push(fail("errors", "error.message is not a string", "string", show(message)));
    else if (want.message !== null && message !== want.message) findings.push(fail("errors", "wrong error message", want.message, message));
    else if (want.messageMatches !== null && !matchesPattern(want.messageMatches, message)) {
      findings.push(fail("errors", "error message does not match", `/${want.messageMatches}/`, message));
    }
    return findings;
  },
};

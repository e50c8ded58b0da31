/** http: the status, `Content-Type: application/json`, a JSON body, and a transport that answered. */
import { fail, pass, type Finding } from "../model.js";
import type { Check } from "./check.js";

const JSON_TYPE = /^application\/json\s*(;|$)/i;

export const httpCheck: Check = {
  name: "http",
  applies: () => true,
  run({ testCase, exchange }) {
    if (exchange.error) return [fail("http", `no answer: ${exchange.error}`)];
    const findings: Finding[] = [];
    const want = testCase.expect.status;
    findings.push(exchange.status === want ? pass("http", `HTTP ${exchange.status}`) : fail("http", "unexpected HTTP status", String(want), String(exchange.status)));
    if (testCase.expect.emptyBody) {
      findings.push(exchange.text.length === 0 ? pass("http", "empty body (notification)") : fail("http", "a notification must get an empty body", "empty", `${exchange.text.length} bytes`));
      return findings;
    }
    const type = exchange.headers["content-type"] ?? "";
    findings.push(JSON_TYPE.test(type) ? pass("http", "JSON content type") : fail("http", "Content-Type is not application/json", "application/json", type || "(none)"));
    findings.push(exchange.parseError === null ? pass("http", "body is JSON") : fail("http", `body is not JSON: ${exchange.parseError}`));
    return findings;
  },
};

/**
 * http: the status, the media type (application/json unless the case says otherwise), a
 * JSON body, the case's `expect.body` matcher, and a transport that answered.
 */
import { match } from "../matchers.js";
import { fail, pass, type Finding } from "../results.js";
import { show, type Check } from "./check.js";

function mediaType(header: string): string {
  return header.split(";")[0]!.trim().toLowerCase();
}

export const httpCheck: Check = {
  name: "http",
  applies: () => true,
  run({ testCase, exchange }) {
    if (exchange.error) return [fail("http", `no answer: ${exchange.error}`)];
    const findings: Finding[] = [];
    const status = testCase.expect.status;
    findings.push(
      exchange.status === status ? pass("http", `HTTP ${exchange.status}`) : fail("http", "unexpected HTTP status", String(status), String(exchange.status)),
    );
    if (testCase.expect.emptyBody) {
      findings.push(
        exchange.text.length === 0
          ? pass("http", "empty body (notification)")
          : fail("http", "a notification must get an empty body", "empty", `${exchange.text.length} bytes`),
      );
      return findings;
    }
    const type = exchange.headers["content-type"] ?? "";
    const want = testCase.expect.contentType.toLowerCase();
    findings.push(mediaType(type) === want ? pass("http", `Content-Type ${want}`) : fail("http", `Content-Type is not ${want}`, want, type || "(none)"));
    const isJson = want.includes("json");
    if (isJson) findings.push(exchange.parseError === null ? pass("http", "body is JSON") : fail("http", `body is not JSON: ${exchange.parseError}`));
    if (testCase.expect.body !== undefined) {
      const actual = isJson ? exchange.body : exchange.text;
      const why = match(actual, testCase.expect.body);
      findings.push(why === null ? pass("http", "body as expected") : fail("http", `body ${why}`, show(testCase.expect.body), show(actual)));
    }
    return findings;
  },
};

import type { IncomingMessage, ServerResponse } from "node:http";
import { describe, expect, it } from "vitest";
import { withMiddleware, type Middleware } from "../../../runtime/server/middleware.js";

describe("listener middleware", () => {
  it("runs the first middleware outermost, skips null ones, and lets one answer without passing on", () => {
    const seen: string[] = [];
    const tag =
      (name: string): Middleware =>
      (next) =>
      (req, res) => {
        seen.push(name);
        if (req.url !== "/stop") next(req, res);
      };
    const listener = withMiddleware(() => seen.push("listener"), tag("a"), null, tag("b"));
    listener({ url: "/" } as IncomingMessage, {} as ServerResponse);
    listener({ url: "/stop" } as IncomingMessage, {} as ServerResponse);
    expect(seen).toEqual(["a", "b", "listener", "a"]);
  });
});

/**
 * Drives one interceptor without a network: a fake dispatch plays a scripted response
 * (head, chunks, end or error) into the handler it is given, and a recorder is the handler
 * the interceptor passes events to.
 */
import type { Dispatcher } from "undici";
import type { CallState } from "../../../runtime/transport/state.js";

export interface Recorded {
  events: string[];
  status?: number;
  body: string;
  error?: unknown;
}

export function recorder(): Dispatcher.DispatchHandler & { seen: Recorded } {
  const seen: Recorded = { events: [], body: "" };
  return {
    seen,
    onRequestStart: () => void seen.events.push("start"),
    onResponseStart: (_c, status) => {
      seen.events.push(`head ${status}`);
      seen.status = status;
    },
    onResponseData: (_c, chunk) => {
      seen.body += chunk.toString();
    },
    onResponseEnd: () => void seen.events.push("end"),
    onResponseError: (_c, err) => {
      seen.events.push("error");
      seen.error = err;
    },
  };
}

export const controller: Dispatcher.DispatchController & { abortedWith?: unknown } = {
  aborted: false,
  paused: false,
  reason: null,
  abort(reason) {
    this.abortedWith = reason;
  },
  pause() {},
  resume() {},
};

export type Step = { head: [number, Record<string, string>] } | { data: string } | { end: true } | { error: Error };

/** A dispatch that answers each call with the next script (the last one repeats); counts calls. */
export function scripted(...scripts: Step[][]): Dispatcher.Dispatch & { calls: number } {
  const dispatch = ((_opts: Dispatcher.DispatchOptions, handler: Dispatcher.DispatchHandler) => {
    const script = scripts[Math.min(dispatch.calls, scripts.length - 1)]!;
    dispatch.calls++;
    handler.onRequestStart?.(controller, {});
    try {
      for (const step of script) {
        if ("head" in step) handler.onResponseStart?.(controller, step.head[0], { ...step.head[1] }, "");
        else if ("data" in step) handler.onResponseData?.(controller, Buffer.from(step.data));
        else if ("end" in step) handler.onResponseEnd?.(controller, {});
        else handler.onResponseError?.(controller, step.error);
      }
    } catch (err) {
      // What undici does with a handler that throws: abort the request with the error.
      handler.onResponseError?.(controller, err as Error);
    }
    return true;
  }) as Dispatcher.Dispatch & { calls: number };
  dispatch.calls = 0;
  return dispatch;
}

export function optsWith(photon: CallState): Dispatcher.DispatchOptions {
  return { origin: "http://test", path: "/", method: "POST", photon } as Dispatcher.DispatchOptions;
}

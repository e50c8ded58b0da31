/**
 * Body cap: a response whose content-length, or whose bytes counted while streaming, pass the
 * call's `maxBodyBytes` ends the attempt with `BodyTooLarge` (the connection is dropped, the
 * rest is never read).
 */
import { BodyTooLarge } from "./failures.js";
import { Forward, type Controller, type Handler, type Headers, type Interceptor } from "./forward.js";
import { headerText, stateOf, type PhotonDispatchOptions } from "./state.js";

class BodyCapHandler extends Forward {
  private status = 0;
  private received = 0;

  constructor(
    next: Handler,
    private readonly limit: number,
  ) {
    super(next);
  }

  override onResponseStart(controller: Controller, statusCode: number, headers: Headers, statusMessage?: string): void {
    this.status = statusCode;
    this.received = 0;
    const length = headerText(headers["content-length"]);
    if (length !== undefined) {
      const declared = Number(length);
      // Thrown: undici aborts the request with it and reports it through onResponseError.
      if (declared > this.limit) throw new BodyTooLarge(statusCode, 0, declared);
    }
    this.next.onResponseStart?.(controller, statusCode, headers, statusMessage);
  }

  override onResponseData(controller: Controller, chunk: Buffer): void {
    this.received += chunk.length;
    if (this.received > this.limit) throw new BodyTooLarge(this.status, this.received, undefined);
    this.next.onResponseData?.(controller, chunk);
  }
}

/** Caps response bodies at the call's `maxBodyBytes` (default 16 MiB). */
export function bodyCap(): Interceptor {
  return (dispatch) => (opts, handler) => dispatch(opts, new BodyCapHandler(handler, stateOf(opts as PhotonDispatchOptions).maxBodyBytes));
}

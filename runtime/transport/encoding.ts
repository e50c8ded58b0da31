/**
 * Unnegotiated content encodings: no Accept-Encoding is sent and nothing here decodes, so a
 * response with a Content-Encoding other than `identity` does not carry JSON text. The attempt
 * ends with `UnnegotiatedEncoding`, reported as such rather than as bad JSON.
 */
import { UnnegotiatedEncoding } from "./failures.js";
import { Forward, type Controller, type Headers, type Interceptor } from "./forward.js";
import { headerText } from "./state.js";

class EncodingHandler extends Forward {
  override onResponseStart(controller: Controller, statusCode: number, headers: Headers, statusMessage?: string): void {
    const encoding = headerText(headers["content-encoding"])?.trim();
    if (encoding !== undefined && encoding !== "" && encoding.toLowerCase() !== "identity") throw new UnnegotiatedEncoding(statusCode, encoding);
    this.next.onResponseStart?.(controller, statusCode, headers, statusMessage);
  }
}

/** Refuses content-encoded responses (see the module comment). */
export function rejectEncoded(): Interceptor {
  return (dispatch) => (opts, handler) => dispatch(opts, new EncodingHandler(handler));
}

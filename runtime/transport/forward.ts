/**
 * The base of this folder's handlers: undici 7's handler interface (onRequestStart,
 * onResponseStart, onResponseData, onResponseEnd, onResponseError), each event passed on to
 * the next handler unchanged. An interceptor's handler overrides the events it cares about,
 * as undici's own lib/handler/*.js do.
 */
import type { Dispatcher } from "undici";

export type Controller = Dispatcher.DispatchController;
export type Handler = Dispatcher.DispatchHandler;
export type Headers = Record<string, string | string[] | undefined>;
export type Interceptor = Dispatcher.DispatcherComposeInterceptor;

export class Forward implements Dispatcher.DispatchHandler {
  constructor(protected readonly next: Handler) {}

  onRequestStart(controller: Controller, context: unknown): void {
    this.next.onRequestStart?.(controller, context);
  }

  onResponseStart(controller: Controller, statusCode: number, headers: Headers, statusMessage?: string): void {
    this.next.onResponseStart?.(controller, statusCode, headers, statusMessage);
  }

  onResponseData(controller: Controller, chunk: Buffer): void {
    this.next.onResponseData?.(controller, chunk);
  }

  onResponseEnd(controller: Controller, trailers: Headers): void {
    this.next.onResponseEnd?.(controller, trailers);
  }

  onResponseError(controller: Controller, error: Error): void {
    this.next.onResponseError?.(controller, error);
  }
}

/**
 * The transport as one undici dispatcher: a base dispatcher composed with this folder's
 * interceptors, outermost first: retry → deadline → body cap → encoding → base. (Pacing,
 * `pace(pacer)`, is composed by whoever shares a pacer: outermost, it spaces calls.)
 * Every setting is per call, read from the dispatch options' `photon` state, so one composed
 * dispatcher per base serves every call (built once, kept while the base lives).
 */
import type { Dispatcher } from "undici";
import { bodyCap } from "./body-cap.js";
import { deadline } from "./deadline.js";
import { rejectEncoded } from "./encoding.js";
import type { Interceptor } from "./forward.js";
import { retry } from "./retry.js";

/** The interceptors of a call, innermost first (the order `Dispatcher.compose` takes). */
export function transportInterceptors(): Interceptor[] {
  return [rejectEncoded(), bodyCap(), deadline(), retry()];
}

const composed = new WeakMap<Dispatcher, Dispatcher>();

/** `base` composed with the transport's interceptors (cached per base). */
export function transportDispatcher(base: Dispatcher): Dispatcher {
  let dispatcher = composed.get(base);
  if (dispatcher === undefined) {
    dispatcher = base.compose(transportInterceptors());
    composed.set(base, dispatcher);
  }
  return dispatcher;
}

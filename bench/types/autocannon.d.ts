// Minimal types for autocannon 8 (it ships none): the options and result fields the benchmarks use.
declare module "autocannon" {
  namespace autocannon {
    interface Options {
      url: string;
      method?: string;
      headers?: Record<string, string>;
      body?: string | Buffer;
      connections?: number;
      pipelining?: number;
      /** Seconds. */
      duration?: number;
      amount?: number;
      /** Seconds. */
      timeout?: number;
      warmup?: { connections?: number; duration?: number };
      /** Requests sent in turn by each connection (each its own body), instead of one `body`. */
      requests?: { method?: string; path?: string; headers?: Record<string, string>; body?: string | Buffer }[];
    }
    interface Histogram {
      average: number;
      mean: number;
      stddev: number;
      min: number;
      max: number;
      total: number;
      p50: number;
      p90: number;
      p99: number;
    }
    interface Result {
      requests: Histogram & { sent: number };
      latency: Histogram;
      throughput: Histogram;
      errors: number;
      timeouts: number;
      non2xx: number;
      /** Seconds. */
      duration: number;
      "2xx": number;
    }
    interface Instance extends PromiseLike<Result> {
      stop(): void;
    }
  }
  function autocannon(options: autocannon.Options): autocannon.Instance;
  export default autocannon;
}

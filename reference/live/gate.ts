/**
 * The live reference's readers-writer gate (runtime `StateGate`): a request reads one state
 * from its start to its answer; a change waits for the requests in flight (each bounded by the
 * listener's batch budget) and new requests wait for a pending change, so changes are never
 * starved by a steady stream of requests.
 */
import type { StateGate } from "@photon-indexer-kit/runtime";

export class LiveGate implements StateGate {
  private state = 0;
  private readers = 0;
  private readonly writes: (() => void)[] = [];
  private readonly waiting: ((done: () => void) => void)[] = [];

  constructor(private readonly onWriteError: (err: unknown) => void) {}

  get version(): number {
    return this.state;
  }

  enter(work: (done: () => void) => void): void {
    if (this.writes.length > 0) this.waiting.push(work);
    else this.run(work);
  }

  /** Runs `apply` once no request reads the state: at once when none does. */
  write(apply: () => void): void {
    this.writes.push(apply);
    if (this.readers === 0) this.flush();
  }

  private run(work: (done: () => void) => void): void {
    this.readers++;
    let released = false;
    const done = () => {
      if (released) return;
      released = true;
      this.readers--;
      if (this.readers === 0 && this.writes.length > 0) this.flush();
    };
    try {
      work(done);
    } catch (err) {
      done();
      throw err;
    }
  }

  private flush(): void {
    while (this.writes.length > 0) {
      const apply = this.writes.shift() as () => void;
      try {
        apply();
      } catch (err) {
        this.onWriteError(err);
      }
      this.state++;
    }
    for (const work of this.waiting.splice(0)) this.run(work);
  }
}

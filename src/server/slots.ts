/**
 * The cap on concurrent work: at most `slots` tasks run (one per worker thread) and at most `maxWaiting`
 * wait, first come first served. Waiting here rather than in the pool's queue means a request whose
 * client went away, or whose time ran out, while waiting is simply dropped: only a task that is really
 * running is ever stopped (which costs a worker restart).
 */
export class WorkSlots {
  private running = 0;
  private readonly waiting: (() => void)[] = [];

  constructor(
    readonly slots: number,
    readonly maxWaiting: number,
  ) {}

  /** Running plus waiting. */
  get pending(): number {
    return this.running + this.waiting.length;
  }

  get full(): boolean {
    return this.pending >= this.slots + this.maxWaiting;
  }

  /** Resolves when a slot is free; rejects (and leaves the line) if `signal` aborts first. */
  acquire(signal: AbortSignal): Promise<void> {
    if (signal.aborted) return Promise.reject(new Error('aborted'));
    if (this.running < this.slots) {
      this.running++;
      return Promise.resolve();
    }
    return new Promise((resolve, reject) => {
      const take = () => {
        signal.removeEventListener('abort', leave);
        this.running++;
        resolve();
      };
      const leave = () => {
        const index = this.waiting.indexOf(take);
        if (index >= 0) this.waiting.splice(index, 1);
        reject(new Error('aborted'));
      };
      this.waiting.push(take);
      signal.addEventListener('abort', leave, { once: true });
    });
  }

  release(): void {
    this.running--;
    this.waiting.shift()?.();
  }
}

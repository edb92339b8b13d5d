import os from 'node:os';

/**
 * How many `kustomize build`s run side by side: each is a process that
 * keeps one core busy (kustomize 4.5.4 parses its OpenAPI schema for
 * about a second), so more than the machine's cores only queue, and a
 * backend pod must leave cores to its other work.
 */
export const KUSTOMIZE_BUILDS_IN_FLIGHT = Math.max(
  1,
  Math.min(4, os.availableParallelism()),
);

/**
 * A limit on tasks running at once, shared by every caller that holds it;
 * the rest wait, first come first served.
 */
export class TaskSlots {
  private running = 0;
  private readonly waiting: (() => void)[] = [];

  constructor(readonly limit: number) {}

  async run<T>(task: () => Promise<T>): Promise<T> {
    if (this.running >= this.limit) {
      await new Promise<void>(start => this.waiting.push(start));
    } else {
      this.running++;
    }
    try {
      return await task();
    } finally {
      // The slot passes straight to the next waiter (running stays counted).
      const next = this.waiting.shift();
      if (next) next();
      else this.running--;
    }
  }
}

/**
 * Every kustomize process of this process: the per-call bound of
 * `runBounded` does not stop a backend that serves several `pr` runs, and
 * the updater's re-renders, at once from starting all their builds side by
 * side; each build takes one of these slots while its process runs.
 */
export const kustomizeProcesses = new TaskSlots(KUSTOMIZE_BUILDS_IN_FLIGHT);

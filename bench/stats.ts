/** Small, dependency-free statistics for benchmark samples (milliseconds). */
export function percentile(samples: number[], p: number): number {
  if (samples.length === 0) return NaN;
  const sorted = [...samples].sort((a, b) => a - b);
  const index = Math.min(
    sorted.length - 1,
    Math.max(0, Math.ceil((p / 100) * sorted.length) - 1),
  );
  return sorted[index];
}

export function formatMs(ms: number): string {
  return ms < 1 ? `${(ms * 1000).toFixed(0)} µs` : `${ms.toFixed(2)} ms`;
}

/** One line per figure, with the goal beside it and whether it is met. */
export function report(
  name: string,
  figure: string,
  value: number,
  goal: { max?: number; min?: number; unit: string },
): boolean {
  const met =
    (goal.max === undefined || value <= goal.max) &&
    (goal.min === undefined || value >= goal.min);
  const target = goal.max !== undefined ? `<= ${goal.max}` : `>= ${goal.min}`;
  console.log(
    `${name.padEnd(28)} ${figure.padEnd(34)} goal ${target} ${goal.unit}  ${met ? 'OK' : 'MISSED'}`,
  );
  return met;
}

/**
 * The CPU a piece of work took: of the whole process (every thread: the
 * garbage collector's helpers, the network's) and of this thread alone —
 * the event loop's share, what "work on one core" means — and its wall time.
 */
/**
 * Node 23.9+ (the bench runs on Node 24); the @types/node here predates it.
 * Looked up when a bench measures CPU, not when this file loads: the other
 * benches import it too and must run on the machines' Node 20.
 */
function threadCpuUsage(previous?: NodeJS.CpuUsage): NodeJS.CpuUsage {
  const own = (
    process as unknown as {
      threadCpuUsage?(previous?: NodeJS.CpuUsage): NodeJS.CpuUsage;
    }
  ).threadCpuUsage;
  if (!own) {
    throw new Error(
      `measuring one thread's CPU needs Node 23.9 or later (process.threadCpuUsage); this is ${process.version}`,
    );
  }
  return own.call(process, previous);
}

export async function measureCpu<T>(work: () => Promise<T>): Promise<{
  result: T;
  processMs: number;
  threadMs: number;
  wallMs: number;
}> {
  const processBefore = process.cpuUsage();
  const threadBefore = threadCpuUsage();
  const start = performance.now();
  const result = await work();
  const wallMs = performance.now() - start;
  const processUsed = process.cpuUsage(processBefore);
  const threadUsed = threadCpuUsage(threadBefore);
  return {
    result,
    processMs: (processUsed.user + processUsed.system) / 1000,
    threadMs: (threadUsed.user + threadUsed.system) / 1000,
    wallMs,
  };
}

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

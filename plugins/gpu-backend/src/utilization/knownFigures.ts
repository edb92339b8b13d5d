/**
 * Sums, peaks and means over the figures a series has: a device without a
 * field (no profiling, no pod) is left out, never counted as zero.
 */
function known(values: (number | undefined)[]): number[] {
  return values.filter((v): v is number => v !== undefined);
}

export function maxOf(values: (number | undefined)[]): number | undefined {
  const figures = known(values);
  return figures.length ? Math.max(...figures) : undefined;
}

export function sumOf(values: (number | undefined)[]): number | undefined {
  const figures = known(values);
  return figures.length ? figures.reduce((a, b) => a + b, 0) : undefined;
}

export function meanOf(values: (number | undefined)[]): number | undefined {
  const figures = known(values);
  return figures.length
    ? figures.reduce((a, b) => a + b, 0) / figures.length
    : undefined;
}

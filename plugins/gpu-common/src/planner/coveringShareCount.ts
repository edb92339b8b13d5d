/**
 * The share count a GPU is split into, from `derived` (what fits in memory)
 * down to no fewer than `fewest`, stepping down while a share is below the
 * asked `vramMiB`: integer MiB division (`shareMiB`) can leave a share a
 * fraction below a fractional-GiB request, and one sharer fewer restores it.
 * The result's share may still be below the ask at `fewest`; the caller
 * refuses that.
 */
export function coveringShareCount(
  derived: number,
  fewest: number,
  vramMiB: number,
  shareMiB: (count: number) => number,
): number {
  let count = derived;
  while (count > fewest && shareMiB(count) < vramMiB) count--;
  return count;
}

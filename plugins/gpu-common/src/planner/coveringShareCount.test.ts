import { coveringShareCount } from './coveringShareCount';

/** A share of a 16 GiB GPU's 16384 MiB, as integer MiB division makes it. */
const shareOf16GiB = (count: number) => Math.floor(16384 / count);

describe('coveringShareCount', () => {
  it('keeps the derived count when its share covers the ask', () => {
    expect(coveringShareCount(4, 2, 4096, shareOf16GiB)).toBe(4);
  });

  it('steps down until integer division leaves a share at least the ask', () => {
    // 3 × 5461.2 MiB fit in 16384 MiB, but floor(16384 / 3) = 5461 MiB.
    expect(3 * 5461.2).toBeLessThanOrEqual(16384);
    expect(coveringShareCount(3, 2, 5461.2, shareOf16GiB)).toBe(2);
  });

  it('never goes below the fewest, even when that share is below the ask', () => {
    expect(coveringShareCount(5, 2, 10_000, shareOf16GiB)).toBe(2);
  });
});

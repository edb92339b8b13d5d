import {
  centsToUsd,
  formatCents,
  formatGiB,
  formatComputeShare,
  formatGpuShare,
  formatReplicaGpuShare,
  formatRequestedGiB,
  formatUsd,
  formatUsdPerMonth,
  usdToCents,
} from '.';

describe('format: units', () => {
  it('shows memory in GiB with one decimal, rounded down', () => {
    expect(formatGiB(4096)).toBe('4.0 GiB');
    expect(formatGiB(3840)).toBe('3.7 GiB');
    expect(formatGiB(9856)).toBe('9.6 GiB');
    expect(formatGiB(22888)).toBe('22.3 GiB');
    expect(formatGiB(36864)).toBe('36.0 GiB');
    expect(formatGiB(0)).toBe('0.0 GiB');
    expect(formatRequestedGiB(3.5)).toBe('3.5 GiB');
    expect(formatRequestedGiB(0.1)).toBe('0.1 GiB');
  });

  it('shows fractions of a GPU as percent and whole GPUs as a count', () => {
    expect(formatGpuShare(0.25)).toBe('25% of a GPU');
    expect(formatGpuShare(3 / 7)).toBe('42.9% of a GPU');
    expect(formatGpuShare(1)).toBe('1 GPU');
    expect(formatGpuShare(2)).toBe('2 GPUs');
  });

  it('shows a MIG compute share as a fraction of the compute slices', () => {
    // As plans and allocations carry it: rounded to 6 decimals.
    expect(formatComputeShare(0.142857)).toBe('1/7 of its compute');
    expect(formatComputeShare(0.428571)).toBe('3/7 of its compute');
    expect(formatComputeShare(0.5)).toBe('1/2 of its compute');
    expect(formatComputeShare(1)).toBe('all of its compute');
    expect(formatComputeShare(1.142857)).toBe("8/7 of a GPU's compute");
    expect(formatComputeShare(2)).toBe('the compute of 2 GPUs');
    expect(formatComputeShare(0.1)).toBe('10% of its compute');
  });

  it("shows what a replica holds, and MIG's compute beside it", () => {
    expect(formatReplicaGpuShare({ gpuShare: 0.25 })).toBe('25% of a GPU');
    expect(formatReplicaGpuShare({ gpuShare: 2 })).toBe('2 GPUs');
    expect(
      formatReplicaGpuShare({ gpuShare: 0.25, computeShare: 0.142857 }),
    ).toBe('25% of a GPU · 1/7 of its compute');
    expect(formatReplicaGpuShare({ gpuShare: 1, computeShare: 1 })).toBe(
      '1 GPU · all of its compute',
    );
  });
});

describe('format: money', () => {
  it('shows dollars with a thousands separator and two decimals', () => {
    expect(formatUsd(10044.8)).toBe('$10,044.80');
    expect(formatUsd(383.98)).toBe('$383.98');
    expect(formatUsd(0)).toBe('$0.00');
    expect(formatUsd(-0)).toBe('$0.00');
    expect(formatUsd(-383.98)).toBe('-$383.98');
    expect(formatCents(1602908)).toBe('$16,029.08');
    expect(formatUsdPerMonth(384)).toBe('$384.00/month');
  });

  it('converts between cents and dollars without binary noise', () => {
    expect(usdToCents(0.526 * 730)).toBe(38398);
    expect(usdToCents(1.005)).toBe(101);
    expect(usdToCents(-2.5)).toBe(-250);
    expect(centsToUsd(38398)).toBe(383.98);
    expect(centsToUsd(1004480)).toBe(10044.8);
  });
});

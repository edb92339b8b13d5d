import { formatGiB, formatGpuShare, formatUsd } from './format';

describe('format', () => {
  it('shows fractions of a GPU as percent and whole GPUs as a count', () => {
    expect(formatGpuShare(0.25)).toBe('25% of a GPU');
    expect(formatGpuShare(3 / 7)).toBe('42.9% of a GPU');
    expect(formatGpuShare(1)).toBe('1 GPU');
    expect(formatGpuShare(2)).toBe('2 GPUs');
  });

  it('shows MiB as GiB with one decimal rounded down and dollars with cents', () => {
    expect(formatGiB(4096)).toBe('4 GiB');
    expect(formatGiB(9856)).toBe('9.6 GiB');
    expect(formatGiB(22888)).toBe('22.3 GiB');
    expect(formatUsd(1234.5)).toBe('$1,234.50');
    expect(formatUsd(584.4)).toBe('$584.40');
  });
});

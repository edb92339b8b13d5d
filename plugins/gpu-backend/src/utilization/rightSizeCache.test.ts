import type {
  GpuAllocation,
  RightSizeSuggestion,
} from '@gpu-gitops/plugin-gpu-common';
import type { IndexSnapshot } from '../repoIndex/indexSnapshot';
import { RightSizeCache } from './rightSizeCache';

const allocation = (vramPeakMiB: number) =>
  ({
    id: 'ml/trainer',
    cluster: 'dev',
    usdPerMonth: 383.98,
    utilization: {
      attribution: 'per-pod',
      window: '7d',
      vramPeakMiB,
      vramAllottedMiB: 15360,
    },
  }) as GpuAllocation;

describe('RightSizeCache', () => {
  it('plans once per snapshot and measured figures', () => {
    const cache = new RightSizeCache();
    const planned: number[] = [];
    const plan = (peak: number) => () => {
      planned.push(peak);
      return { pool: `fits-${peak}` } as RightSizeSuggestion;
    };
    const first = {} as IndexSnapshot;
    expect(cache.suggestionOf(allocation(2560), first, plan(2560))).toEqual({
      pool: 'fits-2560',
    });
    expect(cache.suggestionOf(allocation(2560), first, plan(2560))).toEqual({
      pool: 'fits-2560',
    });
    expect(planned).toEqual([2560]);
    // New figures (the next read of Prometheus): planned again.
    cache.suggestionOf(allocation(3072), first, plan(3072));
    // Another repository (a merge): planned again.
    cache.suggestionOf(allocation(3072), {} as IndexSnapshot, plan(3072));
    expect(planned).toEqual([2560, 3072, 3072]);
    // "No suggestion" is an answer too.
    const none = jest.fn(() => undefined);
    const second = {} as IndexSnapshot;
    cache.suggestionOf(allocation(9000), second, none);
    cache.suggestionOf(allocation(9000), second, none);
    expect(none).toHaveBeenCalledTimes(1);
  });
});

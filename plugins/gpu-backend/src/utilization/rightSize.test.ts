import {
  builtinCatalog,
  parseGpuRequest,
  plan,
  resolveClusterProfile,
  type GpuAllocation,
} from '@gpu-gitops/plugin-gpu-common';
import { rightSize } from './rightSize';

const cluster = resolveClusterProfile({ name: 'dev', migStrategy: 'single' });
const spec = parseGpuRequest({
  kind: 'GpuRequest',
  metadata: { name: 'trainer', namespace: 'ml' },
  spec: {
    owner: 'group:default/ml-platform',
    cluster: 'dev',
    gpu: { model: 'a100-40gb', sharing: 'exclusive', replicas: 2, vramGiB: 30 },
    workload: { image: 'ghcr.io/acme/trainer:1' },
  },
}).spec;
const now = plan(
  parseGpuRequest({
    kind: 'GpuRequest',
    metadata: { name: 'trainer', namespace: 'ml' },
    spec,
  }),
  builtinCatalog,
  cluster,
);

/** An exclusive A100 allocation whose pods peaked at `peakMiB`. */
const measured = (peakMiB: number): GpuAllocation =>
  ({
    id: 'ml/trainer',
    namespace: 'ml',
    name: 'trainer',
    cluster: 'dev',
    sharingMode: 'exclusive',
    vramMiBPerReplica: now.perReplica.memoryMiB,
    usdPerMonth: now.cost.usdPerMonth,
    requestSpec: spec,
    utilization: {
      attribution: 'per-pod',
      window: '7d',
      sources: 2,
      vramP95MiB: peakMiB,
      vramPeakMiB: peakMiB,
      vramAllottedMiB: now.perReplica.memoryMiB,
      active: 0.2,
      idleHours: 0,
      status: 'ok',
      reason: 'figures of its own pods',
    },
  }) as GpuAllocation;

describe('rightSize', () => {
  it("suggests the cheapest plan that fits the peak with headroom, in the planner's own numbers", () => {
    const suggestion = rightSize(measured(3000), {
      cluster,
      catalog: builtinCatalog,
    })!;
    expect(suggestion.requestSpec.gpu).toEqual({
      model: 'a100-40gb',
      sharing: suggestion.sharingMode,
      replicas: 2,
      vramGiB: 4,
      gpusPerReplica: 1,
    });
    expect(suggestion.vramMiBPerReplica).toBeGreaterThanOrEqual(3000 * 1.25);
    // Planning the suggested request again gives exactly its figures.
    const again = plan(
      parseGpuRequest({
        kind: 'GpuRequest',
        metadata: { name: 'trainer', namespace: 'ml' },
        spec: suggestion.requestSpec,
      }),
      builtinCatalog,
      cluster,
    );
    expect(again.pool.name).toBe(suggestion.pool);
    expect(again.cost.usdPerMonth).toBe(suggestion.usdPerMonth);
    expect(suggestion.savedUsdPerMonth).toBeCloseTo(
      now.cost.usdPerMonth - again.cost.usdPerMonth,
      2,
    );
    expect(suggestion.savedUsdPerMonth).toBeGreaterThan(0);
  });

  it('suggests only what the owner may send, and nothing where it already fits', () => {
    const suggestion = rightSize(measured(3000), {
      cluster,
      catalog: builtinCatalog,
      policy: {
        defaults: {},
        groups: [
          {
            owner: 'group:default/ml-platform',
            allowedSharingModes: ['exclusive', 'time-slicing'],
          },
        ],
      },
    });
    expect(suggestion?.sharingMode).toBe('time-slicing');
    // A peak near what a replica holds: no suggestion.
    expect(
      rightSize(measured(now.perReplica.memoryMiB * 0.7), {
        cluster,
        catalog: builtinCatalog,
      }),
    ).toBeUndefined();
  });
});

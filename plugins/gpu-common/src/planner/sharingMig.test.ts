import type { ClusterGpuStack } from '../cluster/gpuStack';
import { plan } from './plan';
import type { RepoState } from './types';
import {
  awsCluster,
  cluster,
  fixtureCatalog,
  gpuRequest,
} from './__testUtils__/fixtures';
import { inputIssues } from './__testUtils__/expectError';

const mig = (gpu: Parameters<typeof gpuRequest>[0], c = awsCluster) =>
  plan(
    gpuRequest({ model: 'a100-80gb', sharing: 'mig', ...gpu }),
    fixtureCatalog,
    c,
  );

describe('plan: MIG', () => {
  it('picks the smallest plain profile that holds the VRAM and fills each GPU with it', () => {
    const p = mig({ vramGiB: 5, replicas: 14 });
    expect(p.sharing).toEqual({
      mode: 'mig',
      migProfile: '1g.10gb',
      migLayout: { '1g.10gb': 7 },
      migConfigName: 'all-1g.10gb',
      migConfigEntries: [
        {
          'device-filter': ['0x20B210DE', '0x20B510DE'],
          devices: 'all',
          'mig-enabled': true,
          'mig-devices': { '1g.10gb': 7 },
        },
      ],
    });
    expect(p.resourceName).toBe('nvidia.com/mig-1g.10gb');
    expect(p.pool.name).toBe('gpu-a100-80gb-mig-1g.10gb');
    expect(p.pool.labels['nvidia.com/mig.config']).toBe('all-1g.10gb');
    expect(p.perReplica).toEqual({
      vramGiB: 5,
      vramGuaranteed: true,
      memoryMiB: 9728,
      // One of the GPU's 7 instances, on 1 of its 7 compute slices.
      gpuShare: 0.142857,
      computeShare: 0.142857,
    });
    // 8 GPUs x 7 = 56 instances per node; the unknown-price type sorts last
    expect(p.pool.instanceTypes).toEqual(['a100-x8', 'a100-block']);
    expect(p.nodes).toEqual({
      expected: 1,
      slicesPerNode: 56,
      instanceType: 'a100-x8',
    });
    expect(p.pool.limits).toEqual({ 'nvidia.com/gpu': 8 });
    expect(p.physicalGpus).toBe(2);
    // 14 of the node's 56 instances: a quarter of its price; the rest idle.
    expect(p.cost).toMatchObject({
      usdPerHour: 10,
      usdPerMonth: 7300,
      marginalUsdPerMonth: 29200,
    });
    expect(p.cost.pool).toMatchObject({
      nodes: 1,
      usdPerMonth: 29200,
      idleUnits: 42,
      idleUsdPerMonth: 21900,
    });
  });

  it('uses real profile memory, not the name (10 GiB does not fit 1g.10gb)', () => {
    const p = mig({ vramGiB: 10 });
    expect(p.sharing.migProfile).toBe('1g.20gb');
    // 1g.20gb: 4 per GPU, on 1 of the 7 compute slices.
    expect(p.perReplica.gpuShare).toBe(0.25);
    expect(p.perReplica.computeShare).toBeCloseTo(1 / 7);
    expect(mig({ vramGiB: 30 }).sharing.migProfile).toBe('3g.40gb');
    // 3g.40gb: 2 per GPU, on 3 of the 7 compute slices.
    expect(mig({ vramGiB: 30 }).perReplica.gpuShare).toBe(0.5);
    expect(mig({ vramGiB: 30 }).perReplica.computeShare).toBeCloseTo(3 / 7);
    expect(mig({ vramGiB: 30 }).physicalGpus).toBe(0.5);
  });

  it('names the resource after the cluster MIG strategy', () => {
    const p = mig({ vramGiB: 5 }, cluster({ migStrategy: 'single' }));
    expect(p.resourceName).toBe('nvidia.com/gpu');
    expect(
      p.warnings.some(w => /single/.test(w) && /NodeOverlay/.test(w)),
    ).toBe(true);
  });

  it('rejects MIG on a model without MIG', () => {
    expect(inputIssues(() => mig({ model: 't4', vramGiB: 4 }))).toEqual([
      expect.objectContaining({
        path: 'spec.gpu.model',
        rule: 'mig-unsupported',
      }),
    ]);
  });

  it('rejects VRAM no profile holds', () => {
    expect(inputIssues(() => mig({ vramGiB: 79.5 }))).toEqual([
      expect.objectContaining({
        path: 'spec.gpu.vramGiB',
        rule: 'mig-profile-too-small',
      }),
    ]);
  });
});

describe('plan: MIG beside a standalone device plugin', () => {
  const standalone = (
    more: Partial<NonNullable<ClusterGpuStack['devicePlugin']>>,
  ): RepoState => ({
    pools: [],
    devicePluginConfigs: {},
    migConfigs: {},
    workloads: [],
    gpuStack: {
      devicePlugin: {
        kind: 'standalone',
        readsNamedConfigs: false,
        file: 'infra/nvidia-device-plugin/daemonset.yaml',
        setting:
          'DaemonSet `kube-system/nvidia-device-plugin-daemonset` in `infra/nvidia-device-plugin/daemonset.yaml`, given a config file',
        ...more,
      },
    },
  });
  const planOn = (state: RepoState) =>
    plan(
      gpuRequest({ model: 'a100-80gb', sharing: 'mig', vramGiB: 5 }),
      fixtureCatalog,
      awsCluster,
      state,
    );

  it('warns, naming the plugin, the strategy to check and the resource the pods ask for, when its MIG strategy cannot be told', () => {
    const { warnings } = planOn(standalone({}));
    const caveat = warnings.filter(w => w.includes('whose MIG strategy'));
    expect(caveat).toHaveLength(1);
    expect(caveat[0]).toContain(
      'DaemonSet `kube-system/nvidia-device-plugin-daemonset` in `infra/nvidia-device-plugin/daemonset.yaml`',
    );
    expect(caveat[0]).toContain(
      `check that it runs migStrategy "${awsCluster.migStrategy}"`,
    );
    expect(caveat[0]).toContain('ask for nvidia.com/mig-1g.10gb');
  });

  it('says nothing when the strategy is known to be the profile’s, or the plugin reads the named configs', () => {
    const known = planOn(standalone({ migStrategy: awsCluster.migStrategy }));
    const named = planOn(standalone({ readsNamedConfigs: true }));
    for (const { warnings } of [known, named]) {
      expect(warnings.filter(w => w.includes('whose MIG strategy'))).toEqual(
        [],
      );
    }
  });
});

import { plan } from './plan';
import { awsCluster, fixtureCatalog, gpuRequest } from './__testUtils__/fixtures';
import type { PoolState, RepoState } from './types';

const request = gpuRequest({
  sharing: 'time-slicing',
  vramGiB: 4,
  replicas: 10,
});
const fresh = plan(request, fixtureCatalog, awsCluster);

function repo(
  pools: Partial<PoolState>[],
  extra: Partial<RepoState> = {},
): RepoState {
  return {
    pools: pools.map(p => ({
      name: 'gpu-t4-ts4',
      path: 'clusters/default/gpu/nodepools/gpu-t4-ts4.yaml',
      gpuModel: 't4',
      sharingMode: 'time-slicing',
      slicesPerGpu: 4,
      resourceName: 'nvidia.com/gpu.shared',
      instanceTypes: ['t4-x1', 't4-x4'],
      capacityTypes: ['on-demand', 'spot'],
      limits: { 'nvidia.com/gpu': 5 },
      ...p,
    })),
    devicePluginConfigs: {},
    migConfigs: {},
    workloads: [],
    ...extra,
  };
}

describe('plan: pool reuse', () => {
  it('reuses a compatible pool; a hand-set limit that already covers the request stays', () => {
    const p = plan(
      request,
      fixtureCatalog,
      awsCluster,
      repo([{ name: 'shared-t4', limits: { 'nvidia.com/gpu': 5, cpu: 100 } }]),
    );
    expect(p.pool.reused).toBe(true);
    expect(p.pool.name).toBe('shared-t4');
    expect(p.pool.labels['gpu.backstage.io/pool']).toBe('shared-t4');
    expect(p.pool.capacityTypes).toEqual(['on-demand', 'spot']);
    // 10 replicas at 4 per 1-GPU node need 3 GPUs; nothing else uses the pool.
    expect(p.pool.limits).toEqual({ 'nvidia.com/gpu': 5, cpu: 100 });
    expect(p.pool.limitFloor).toBe(5);
    expect(p.pool.ledger).toEqual([
      { request: 'ml-team/llm', replicas: 10, unitsPerReplica: 1 },
    ]);
  });

  it('raises a reused pool only by what is missing, counting the workloads already on it', () => {
    const p = plan(
      request,
      fixtureCatalog,
      awsCluster,
      repo([{ limits: { 'nvidia.com/gpu': 5 } }], {
        workloads: [
          {
            id: 'ml/chat',
            namespace: 'ml',
            name: 'chat',
            path: 'apps/ml/chat/deployment.yaml',
            pool: 'gpu-t4-ts4',
            resourceName: 'nvidia.com/gpu.shared',
            replicas: 12,
            perReplica: 1,
          },
        ],
      }),
    );
    // 12 + 10 slices at 4 per GPU: 6 GPUs; the hand-set 5 is the floor.
    expect(p.pool.limits).toEqual({ 'nvidia.com/gpu': 6 });
    expect(p.pool.ledger.map(e => `${e.request}=${e.replicas}`)).toEqual([
      'ml-team/llm=10',
      'ml/chat=12',
    ]);
  });

  it('derives the limit from the pool ledger: two requests of 3 at 5 per GPU need 2 GPUs', () => {
    const five = gpuRequest({
      sharing: 'time-slicing',
      vramGiB: 3,
      replicas: 3,
      slicesPerGpu: 5,
    });
    const p = plan(
      five,
      fixtureCatalog,
      awsCluster,
      repo([
        {
          name: 'gpu-t4-ts5',
          slicesPerGpu: 5,
          managed: true,
          limits: { 'nvidia.com/gpu': 1 },
          ledger: [{ request: 'ml/first', replicas: 3, unitsPerReplica: 1 }],
        },
      ]),
    );
    expect(p.pool.name).toBe('gpu-t4-ts5');
    expect(p.pool.limits).toEqual({ 'nvidia.com/gpu': 2 });
    expect(p.pool.limitFloor).toBeUndefined();
  });

  it('shrinks the pool a request leaves when it moves to another pool', () => {
    const state = repo(
      [
        {
          name: 'gpu-t4-ts2',
          slicesPerGpu: 2,
          managed: true,
          limits: { 'nvidia.com/gpu': 6 },
          ledger: [
            { request: 'ml-team/llm', replicas: 10, unitsPerReplica: 1 },
            { request: 'ml/other', replicas: 2, unitsPerReplica: 1 },
          ],
        },
      ],
      {},
    );
    const p = plan(request, fixtureCatalog, awsCluster, state);
    expect(p.pool.name).not.toBe('gpu-t4-ts2');
    expect(p.leftPools).toEqual([
      {
        name: 'gpu-t4-ts2',
        path: 'clusters/default/gpu/nodepools/gpu-t4-ts4.yaml',
        ledger: [{ request: 'ml/other', replicas: 2, unitsPerReplica: 1 }],
        limits: { 'nvidia.com/gpu': 1 },
        // ml/other's 2 slices of 2 per GPU: one node.
        nodesAfter: 1,
      },
    ]);
  });

  it('keeps the taint the reused pool already has, so pods tolerate it', () => {
    const p = plan(
      request,
      fixtureCatalog,
      awsCluster,
      repo([
        {
          name: 'shared-t4',
          taints: [
            { key: 'example.com/team', value: 'ml', effect: 'NoExecute' },
            {
              key: awsCluster.gpuTaintKey,
              value: 'true',
              effect: 'NoSchedule',
            },
          ],
        },
      ]),
    );
    expect(p.pool.taint).toEqual({
      key: awsCluster.gpuTaintKey,
      value: 'true',
      effect: 'NoSchedule',
    });
    // A new pool gets a taint of its own, valued by its name.
    expect(fresh.pool.taint.value).toBe(fresh.pool.name);
  });

  it('does not count the same request twice', () => {
    const state = repo([{}], {
      workloads: [
        {
          id: 'ml-team/llm',
          namespace: 'ml-team',
          name: 'llm',
          path: 'apps/ml-team/llm/deployment.yaml',
          pool: 'gpu-t4-ts4',
          resourceName: 'nvidia.com/gpu.shared',
          replicas: 10,
          perReplica: 1,
        },
      ],
    });
    const p = plan(request, fixtureCatalog, awsCluster, state);
    expect(p.pool.limits).toEqual({ 'nvidia.com/gpu': 5 });
  });

  it('replaces the previous numbers of the same workload', () => {
    const state = repo([{ limits: { 'nvidia.com/gpu': 6 } }], {
      workloads: [
        {
          id: 'ml-team/llm',
          namespace: 'ml-team',
          name: 'llm',
          path: 'apps/ml-team/llm/deployment.yaml',
          pool: 'gpu-t4-ts4',
          resourceName: 'nvidia.com/gpu.shared',
          replicas: 4,
          perReplica: 1,
        },
      ],
    });
    // The ledger replaces its 4 replicas (1 GPU) with 10 (3 GPUs); the
    // hand-set 6 was more than the repository needed, so it is the floor.
    const p = plan(request, fixtureCatalog, awsCluster, state);
    expect(p.pool.limits).toEqual({ 'nvidia.com/gpu': 6 });
    expect(p.pool.ledger).toEqual([
      { request: 'ml-team/llm', replicas: 10, unitsPerReplica: 1 },
    ]);
  });

  it('reads a plain nvidia.com/gpu limit of an exclusive pool', () => {
    const state = repo([
      {
        name: 'gpu-t4',
        sharingMode: 'exclusive',
        slicesPerGpu: undefined,
        resourceName: 'nvidia.com/gpu',
        limits: undefined,
        limit: 2,
      },
    ]);
    const p = plan(
      gpuRequest({ replicas: 3 }),
      fixtureCatalog,
      awsCluster,
      state,
    );
    expect(p.pool.reused).toBe(true);
    // 3 whole GPUs needed; the hand-set 2 is raised to 3.
    expect(p.pool.limits).toEqual({ 'nvidia.com/gpu': 3 });
  });

  it('leaves an unlimited pool unlimited', () => {
    const p = plan(
      request,
      fixtureCatalog,
      awsCluster,
      repo([{ limits: undefined }]),
    );
    expect(p.pool.reused).toBe(true);
    expect(p.pool.limits).toEqual({});
  });

  it.each([
    ['another slice count', { slicesPerGpu: 8 }],
    ['another model', { gpuModel: 'v100' }],
    ['another mode', { sharingMode: 'mps' as const }],
    ['another resource', { resourceName: 'nvidia.com/gpu' }],
    ['fewer capacity types', { capacityTypes: ['spot' as const] }],
    ['no usable instance type', { instanceTypes: ['a100-x8'] }],
  ])(
    'does not reuse a pool with %s, and never takes its name',
    (_label, change) => {
      const p = plan(request, fixtureCatalog, awsCluster, repo([change]));
      expect(p.pool.reused).toBe(false);
      expect(p.pool.name).toBe('gpu-t4-ts4-2');
      expect(p.pool.limits).toEqual(fresh.pool.limits);
    },
  );

  it('narrows node sizing to the reused pool instance types', () => {
    const p = plan(
      request,
      fixtureCatalog,
      awsCluster,
      repo([{ instanceTypes: ['t4-x4'] }]),
    );
    expect(p.pool.instanceTypes).toEqual(['t4-x4']);
    expect(p.nodes).toEqual({
      expected: 1,
      slicesPerNode: 16,
      instanceType: 't4-x4',
    });
  });
});

describe('plan: config names never collide with other content', () => {
  it('keeps the name when the repository holds the same content', () => {
    const state = repo([], {
      devicePluginConfigs: {
        [fresh.sharing.deviceConfigName!]: fresh.sharing.devicePluginConfig,
      },
    });
    expect(
      plan(request, fixtureCatalog, awsCluster, state).sharing.deviceConfigName,
    ).toBe(fresh.sharing.deviceConfigName);
  });

  it('picks another device-plugin config name when the name holds other content', () => {
    const state = repo([], {
      devicePluginConfigs: {
        [fresh.sharing.deviceConfigName!]: { version: 'v1' },
      },
    });
    const p = plan(request, fixtureCatalog, awsCluster, state);
    expect(p.sharing.deviceConfigName).toBe(
      `${fresh.sharing.deviceConfigName}-2`,
    );
    expect(p.pool.labels['nvidia.com/device-plugin.config']).toBe(
      p.sharing.deviceConfigName,
    );
  });

  it('picks another mig-parted config name when the name holds other content', () => {
    const migRequest = gpuRequest({
      model: 'a100-80gb',
      sharing: 'mig',
      vramGiB: 5,
    });
    const state = repo([], {
      migConfigs: {
        'all-1g.10gb': [
          {
            devices: 'all',
            'mig-enabled': true,
            'mig-devices': { '1g.10gb': 4 },
          },
        ],
      },
    });
    const p = plan(migRequest, fixtureCatalog, awsCluster, state);
    expect(p.sharing.migConfigName).toBe('all-1g.10gb-2');
    expect(p.pool.labels['nvidia.com/mig.config']).toBe('all-1g.10gb-2');
  });
});

describe('plan: live config labels of a reused pool', () => {
  const migRequest = gpuRequest({
    model: 'a100-80gb',
    sharing: 'mig',
    vramGiB: 5,
  });
  const migPool: Partial<PoolState> = {
    name: 'gpu-a100-80gb-mig-1g.10gb',
    gpuModel: 'a100-80gb',
    sharingMode: 'mig',
    slicesPerGpu: undefined,
    migProfile: '1g.10gb',
    resourceName: 'nvidia.com/mig-1g.10gb',
    instanceTypes: ['a100-x8'],
    migConfigName: 'team-small-slices',
    limits: { 'nvidia.com/gpu': 8 },
  };

  it('keeps a live MIG config name that already holds the layout', () => {
    const entries = [
      { devices: 'all', 'mig-enabled': true, 'mig-devices': { '1g.10gb': 7 } },
    ];
    const p = plan(
      migRequest,
      fixtureCatalog,
      awsCluster,
      repo([migPool], { migConfigs: { 'team-small-slices': entries } }),
    );
    expect(p.pool.reused).toBe(true);
    expect(p.sharing.migConfigName).toBe('team-small-slices');
    expect(p.sharing.migConfigEntries).toEqual(entries);
    expect(p.pool.labels['nvidia.com/mig.config']).toBe('team-small-slices');
    expect(p.warnings.some(w => /re-partitions/.test(w))).toBe(false);
  });

  it('keeps the layout a reused MIG pool runs (no re-partitioning) and counts its instances from it', () => {
    const entries = [
      { devices: 'all', 'mig-enabled': true, 'mig-devices': { '1g.10gb': 3 } },
    ];
    const p = plan(
      migRequest,
      fixtureCatalog,
      awsCluster,
      repo([migPool], { migConfigs: { 'team-small-slices': entries } }),
    );
    expect(p.sharing.migConfigName).toBe('team-small-slices');
    expect(p.sharing.migLayout).toEqual({ '1g.10gb': 3 });
    expect(p.pool.labels['nvidia.com/mig.config']).toBe('team-small-slices');
    // 3 instances per GPU, 24 per 8-GPU node: the replica holds 1/3 of a GPU.
    expect(p.physicalGpus).toBeCloseTo(1 / 3, 4);
    expect(p.nodes.slicesPerNode).toBe(24);
    expect(p.warnings.some(w => /re-partitions/.test(w))).toBe(false);
  });

  it('warns before relabeling live MIG nodes when their layout is not in the repository', () => {
    const p = plan(migRequest, fixtureCatalog, awsCluster, repo([migPool]));
    expect(p.pool.reused).toBe(true);
    expect(p.sharing.migConfigName).toBe('all-1g.10gb');
    expect(
      p.warnings.some(w => /re-partitions/.test(w) && /drain/.test(w)),
    ).toBe(true);
  });

  it('keeps a live device-plugin config name with the same content', () => {
    const state = repo([{ deviceConfigName: 'ts-4-legacy' }], {
      devicePluginConfigs: { 'ts-4-legacy': fresh.sharing.devicePluginConfig },
    });
    const p = plan(request, fixtureCatalog, awsCluster, state);
    expect(p.sharing.deviceConfigName).toBe('ts-4-legacy');
    expect(p.pool.labels['nvidia.com/device-plugin.config']).toBe(
      'ts-4-legacy',
    );
  });

  it('moves a reused pool to the new content-derived name when content differs', () => {
    const state = repo([{ deviceConfigName: 'ts-4-legacy' }], {
      devicePluginConfigs: {
        'ts-4-legacy': {
          version: 'v1',
          sharing: {
            timeSlicing: {
              resources: [{ name: 'nvidia.com/gpu', replicas: 4 }],
            },
          },
        },
      },
    });
    const p = plan(request, fixtureCatalog, awsCluster, state);
    expect(p.sharing.deviceConfigName).toBe(fresh.sharing.deviceConfigName);
    expect(
      p.explanation.some(l =>
        /moves from device-plugin config "ts-4-legacy"/.test(l),
      ),
    ).toBe(true);
  });
});

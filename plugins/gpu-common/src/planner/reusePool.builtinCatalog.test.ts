/**
 * Pool choice on the built-in catalog, in the situations a platform engineer
 * checks: a T4 offers 15360 MiB, so 3 GiB derives 5 slices and 3.5 GiB 4.
 */
import { builtinCatalog } from '../catalog/builtin';
import { resolveClusterProfile } from '../cluster/schema';
import type { LedgerEntry } from '../capacity/ledger';
import { parseGpuRequest } from '../request/schema';
import { devicePluginConfigFor } from './devicePluginConfig';
import { plan } from './plan';
import { inputIssues } from './__testUtils__/expectError';
import type { PoolState, RepoState } from './types';

const cluster = resolveClusterProfile({ name: 'dev' });

function request(gpu: Record<string, unknown>, name = 'small') {
  return parseGpuRequest({
    kind: 'GpuRequest',
    metadata: { name, namespace: 'ml' },
    spec: {
      owner: 'group:default/ml-platform',
      gpu: { model: 't4', sharing: 'time-slicing', replicas: 1, ...gpu },
      workload: { image: 'ghcr.io/acme/small:1.0' },
    },
  });
}

/** A managed T4 time-slicing pool with a ledger, as the product writes it. */
function tsPool(
  slices: number,
  ledger: LedgerEntry[],
  extra: Partial<PoolState> = {},
): PoolState {
  const name = `gpu-t4-ts${slices}`;
  return {
    name,
    path: `clusters/dev/gpu/nodepools/${name}.yaml`,
    gpuModel: 't4',
    sharingMode: 'time-slicing',
    slicesPerGpu: slices,
    resourceName: 'nvidia.com/gpu.shared',
    instanceTypes: ['g4dn.xlarge', 'g4dn.2xlarge'],
    capacityTypes: ['on-demand'],
    deviceConfigName: `ts-${slices}`,
    limits: { 'nvidia.com/gpu': 1 },
    managed: true,
    ledger,
    ...extra,
  };
}

const repo = (...pools: PoolState[]): RepoState => ({
  pools,
  // Each pool's live device-plugin config, as the repository holds it.
  devicePluginConfigs: Object.fromEntries(
    pools.map(p => [
      `ts-${p.slicesPerGpu}`,
      devicePluginConfigFor('time-slicing', p.slicesPerGpu ?? 1),
    ]),
  ),
  migConfigs: {},
  workloads: [],
});

const chat = { request: 'ml/chat-assistant', replicas: 2, unitsPerReplica: 1 };

describe('plan: reuse a pool whose slice covers the request', () => {
  it('3 GiB on a T4 reuses gpu-t4-ts4 (3.7 GiB slices, 2 free) instead of a new pool and node', () => {
    const p = plan(
      request({ vramGiB: 3 }),
      builtinCatalog,
      cluster,
      repo(tsPool(4, [chat])),
    );
    expect(p.pool).toMatchObject({ name: 'gpu-t4-ts4', reused: true });
    // The request gets the pool's slicing, not the 5 slices a new pool would get.
    expect(p.sharing.slicesPerGpu).toBe(4);
    expect(p.sharing.deviceConfigName).toBe('ts-4');
    expect(p.perReplica.memoryMiB).toBe(3840);
    expect(p.physicalGpus).toBe(0.25);
    // It fits the node already paid for: the limit stays, the bill does not move.
    expect(p.pool.limits).toEqual({ 'nvidia.com/gpu': 1 });
    expect(p.pool.ledger).toEqual([
      chat,
      { request: 'ml/small', replicas: 1, unitsPerReplica: 1 },
    ]);
    expect(p.nodes).toEqual({
      expected: 1,
      slicesPerNode: 4,
      instanceType: 'g4dn.xlarge',
    });
    expect(p.cost.marginalUsdPerMonth).toBe(0);
    expect(p.decisions.pool).toMatchObject({
      choice: 'reuse pool gpu-t4-ts4',
      reason: expect.stringContaining('capacity already paid for'),
    });
    expect(p.decisions.pool.considered).toEqual([
      {
        option: 'pool gpu-t4-ts4',
        chosen: true,
        reason: 'adds $0.00/month (fits its 1 node), 3.7 GiB per replica',
      },
      {
        option: 'new pool gpu-t4-ts5',
        chosen: false,
        reason:
          'adds $383.98/month (0 → 1 node): a pool that exists is reused first',
      },
    ]);
    expect(p.decisions.sharing.reason).toBe(
      'the slicing of reused pool gpu-t4-ts4: 3.7 GiB per slice covers the 3.0 GiB asked',
    );
  });

  it('3.5 GiB reuses it the same way, and a reused pool keeps its limit when the request fits', () => {
    const p = plan(
      request({ vramGiB: 3.5 }),
      builtinCatalog,
      cluster,
      repo(tsPool(4, [chat])),
    );
    expect(p.pool.name).toBe('gpu-t4-ts4');
    expect(p.pool.limits).toEqual({ 'nvidia.com/gpu': 1 });
    expect(p.explanation).toContainEqual(
      expect.stringContaining('its nvidia.com/gpu limit stays 1'),
    );
  });

  it('raises the limit only by what is missing, counted on the pool’s own slices', () => {
    // 2 + 3 replicas at 4 slices per 1-GPU node: 2 nodes (a ts5 count would say 1).
    const p = plan(
      request({ vramGiB: 3, replicas: 3 }),
      builtinCatalog,
      cluster,
      repo(tsPool(4, [chat])),
    );
    expect(p.pool.name).toBe('gpu-t4-ts4');
    expect(p.pool.limits).toEqual({ 'nvidia.com/gpu': 2 });
    expect(p.cost.marginalUsdPerMonth).toBe(383.98);
    expect(p.cost.pool).toMatchObject({ nodes: 2, nodesBefore: 1 });
  });

  it('does not reuse a pool whose slices are smaller than the ask, and says why', () => {
    const p = plan(
      request({ vramGiB: 4 }),
      builtinCatalog,
      cluster,
      repo(tsPool(4, [chat])),
    );
    expect(p.pool).toMatchObject({ name: 'gpu-t4-ts3', reused: false });
    expect(p.decisions.pool.considered).toContainEqual({
      option: 'pool gpu-t4-ts4',
      chosen: false,
      reason:
        'its 4 slices per GPU leave 3.7 GiB each, below the 4.0 GiB asked',
    });
  });

  it('prefers the pool with paid capacity free, then the least memory beyond the ask', () => {
    const full = { request: 'ml/full', replicas: 4, unitsPerReplica: 1 };
    const ts3Free = tsPool(3, [{ ...chat, replicas: 1 }]);
    // ts4 is full (a new node), ts3 has free 5 GiB slices: ts3 wins.
    expect(
      plan(
        request({ vramGiB: 3 }),
        builtinCatalog,
        cluster,
        repo(tsPool(4, [full]), ts3Free),
      ).pool.name,
    ).toBe('gpu-t4-ts3');
    // Both have free slots: ts4's 3.7 GiB wastes less than ts3's 5 GiB.
    expect(
      plan(
        request({ vramGiB: 3 }),
        builtinCatalog,
        cluster,
        repo(tsPool(4, [chat]), ts3Free),
      ).pool.name,
    ).toBe('gpu-t4-ts4');
  });

  it('creates a pool of the right slicing when reusing a coarser one would cost more', () => {
    // 15 x 1 GiB: a ts15 pool needs 1 node, the full ts4 pool 4 more.
    const full = { request: 'ml/full', replicas: 4, unitsPerReplica: 1 };
    const p = plan(
      request({ vramGiB: 1, replicas: 15 }),
      builtinCatalog,
      cluster,
      repo(tsPool(4, [full])),
    );
    expect(p.pool).toMatchObject({ name: 'gpu-t4-ts15', reused: false });
    expect(p.cost.marginalUsdPerMonth).toBe(383.98);
    expect(p.decisions.pool.considered[0]).toEqual({
      option: 'pool gpu-t4-ts4',
      chosen: false,
      reason:
        'adds $1,535.92/month (1 → 5 nodes), 3.7 GiB per replica: more than a new pool ($383.98/month)',
    });
  });

  it('keeps the slice count a request asks for: only a pool with exactly those slices is reused', () => {
    const p = plan(
      request({ vramGiB: 3, slicesPerGpu: 5 }),
      builtinCatalog,
      cluster,
      repo(tsPool(4, [chat])),
    );
    expect(p.pool.name).toBe('gpu-t4-ts5');
    expect(p.decisions.pool.considered).toContainEqual({
      option: 'pool gpu-t4-ts4',
      chosen: false,
      reason: '4 slices per GPU; the request asks for slicesPerGpu 5',
    });
  });

  it('reuses a MIG pool of a larger profile whose instances are free, not a new 8-GPU node', () => {
    const migCluster = resolveClusterProfile({ name: 'dev' });
    const bert = { request: 'research/bert', replicas: 4, unitsPerReplica: 1 };
    const migPool: PoolState = {
      name: 'gpu-a100-40gb-mig-3g.20gb',
      path: 'clusters/dev/gpu/nodepools/gpu-a100-40gb-mig-3g.20gb.yaml',
      gpuModel: 'a100-40gb',
      sharingMode: 'mig',
      migProfile: '3g.20gb',
      resourceName: 'nvidia.com/mig-3g.20gb',
      instanceTypes: ['p4d.24xlarge'],
      capacityTypes: ['on-demand'],
      migConfigName: 'all-3g.20gb',
      limits: { 'nvidia.com/gpu': 8 },
      managed: true,
      ledger: [bert],
    };
    const state: RepoState = {
      ...repo(migPool),
      migConfigs: {
        'all-3g.20gb': [
          {
            devices: 'all',
            'mig-enabled': true,
            'mig-devices': { '3g.20gb': 2 },
          },
        ],
      },
    };
    const p = plan(
      request({ model: 'a100-40gb', sharing: 'mig', vramGiB: 5, replicas: 2 }),
      builtinCatalog,
      migCluster,
      state,
    );
    expect(p.pool).toMatchObject({ name: migPool.name, reused: true });
    expect(p.sharing.migProfile).toBe('3g.20gb');
    expect(p.resourceName).toBe('nvidia.com/mig-3g.20gb');
    expect(p.cost.marginalUsdPerMonth).toBe(0);
    expect(p.decisions.sharing.reason).toBe(
      'the profile of reused pool gpu-a100-40gb-mig-3g.20gb: its real memory (18.0 GiB) holds the 5.0 GiB asked (a new pool would use 1g.10gb, 9.0 GiB)',
    );
    expect(p.decisions.pool.considered.map(c => c.option)).toEqual([
      'pool gpu-a100-40gb-mig-3g.20gb',
      'new pool gpu-a100-40gb-mig-1g.10gb',
    ]);
  });
});

describe('plan: never plans memory below the ask', () => {
  it('refuses 8 GiB time-sliced on a T4 (2 slices of 7.5 GiB) and names what would fit', () => {
    const [issue] = inputIssues(() =>
      plan(request({ vramGiB: 8 }), builtinCatalog, cluster),
    );
    expect(issue.path).toBe('spec.gpu.vramGiB');
    expect(issue.rule).toBe('slice-below-request');
    expect(issue.message).toBe(
      '8.0 GiB per replica does not fit a time slice of a t4: the fewest slices (2 per GPU) leave 7.5 GiB each of its 15.0 GiB. ' +
        'Instead, ask for sharing "exclusive" (a whole t4: 15.0 GiB); ' +
        'a larger model for time-slicing: l4 (22.3 GiB), a10g (22.3 GiB), l40s (44.7 GiB); ' +
        'or model "auto" (the cheapest model that fits)',
    );
  });

  it('names MPS among the alternatives where the cluster can run it', () => {
    const single = resolveClusterProfile({
      name: 'dev',
      migStrategy: 'single',
    });
    const [issue] = inputIssues(() =>
      plan(request({ vramGiB: 8 }), builtinCatalog, single),
    );
    expect(issue.message).toContain(
      'sharing "mps" (memory pinned per client) on l4 (22.3 GiB), a10g (22.3 GiB), l40s (44.7 GiB)',
    );
  });

  it('with model "auto", chooses only among plans whose slices hold the ask', () => {
    const p = plan(
      request({ model: 'auto', vramGiB: 8 }),
      builtinCatalog,
      cluster,
    );
    expect(p.pool.gpuModel).not.toBe('t4');
    expect(p.perReplica.memoryMiB).toBeGreaterThanOrEqual(8 * 1024);
    expect(p.warnings.join(' ')).not.toMatch(/OVERSUBSCRIBED/);
    expect(p.decisions.model.considered).toContainEqual(
      expect.objectContaining({
        option: 't4',
        chosen: false,
        reason: expect.stringContaining('does not fit a time slice of a t4'),
      }),
    );
  });

  it('keeps an explicit slicesPerGpu that oversubscribes, with the warning', () => {
    const p = plan(
      request({ vramGiB: 4, slicesPerGpu: 4 }),
      builtinCatalog,
      cluster,
    );
    expect(p.sharing.slicesPerGpu).toBe(4);
    expect(p.warnings).toContainEqual(
      expect.stringMatching(
        /^MEMORY OVERSUBSCRIBED: slicesPerGpu 4 leaves 3.7 GiB per slice, below the 4.0 GiB asked/,
      ),
    );
  });
});

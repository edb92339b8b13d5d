import { findModel } from '../catalog/lookup';
import { plan } from './plan';
import { replicaOnPool } from './replicaOnPool';
import {
  awsCluster,
  cluster,
  fixtureCatalog,
  gpuRequest,
} from './__testUtils__/fixtures';
import type { Plan, PoolState, RepoState } from './types';

/** The pool a plan writes, as the repository reader reads it back. */
function poolOf(p: Plan): PoolState {
  return {
    name: p.pool.name,
    path: `clusters/default/gpu/nodepools/${p.pool.name}.yaml`,
    gpuModel: p.pool.gpuModel,
    sharingMode: p.sharing.mode,
    ...(p.sharing.slicesPerGpu ? { slicesPerGpu: p.sharing.slicesPerGpu } : {}),
    ...(p.sharing.migProfile ? { migProfile: p.sharing.migProfile } : {}),
    ...(p.sharing.migConfigName
      ? { migConfigName: p.sharing.migConfigName }
      : {}),
    resourceName: p.resourceName,
    instanceTypes: p.pool.instanceTypes,
    capacityTypes: p.pool.capacityTypes,
    limits: p.pool.limits,
  };
}

function repoOf(pools: PoolState[], migConfigs = {}): RepoState {
  return { pools, devicePluginConfigs: {}, migConfigs, workloads: [] };
}

/** What the card reads for the plan's replica, from the pool it planned. */
function onItsPool(p: Plan, state?: RepoState) {
  const pool = state?.pools.find(s => s.name === p.pool.name) ?? poolOf(p);
  const migConfigs = p.sharing.migConfigName
    ? { [p.sharing.migConfigName]: p.sharing.migConfigEntries }
    : {};
  return replicaOnPool(
    pool,
    findModel(fixtureCatalog, p.pool.gpuModel),
    state ?? repoOf([pool], migConfigs),
    p.resourcePerReplica,
  );
}

const single = cluster({ migStrategy: 'single' });
const a100Mig = { model: 'a100-80gb', sharing: 'mig' } as const;

describe('replicaOnPool: what a replica holds, as the planner counts it', () => {
  it.each([
    ['exclusive, 2 GPUs a replica', { gpusPerReplica: 2, replicas: 3 }, 2],
    [
      'time-slicing',
      { sharing: 'time-slicing', vramGiB: 4, replicas: 10 },
      0.25,
    ],
    ['MPS', { sharing: 'mps', vramGiB: 4, replicas: 6 }, 0.25],
    ['DRA', { sharing: 'dra', vramGiB: 8, replicas: 3 }, 1],
    // 1g.20gb: 4 instances a GPU (uniform layout) — not its 1/7 of the compute.
    ['MIG 1g.20gb', { ...a100Mig, vramGiB: 10, replicas: 2 }, 0.25],
    ['MIG 3g.40gb', { ...a100Mig, vramGiB: 30, replicas: 3 }, 0.5],
  ] as const)('%s', (_, gpu, share) => {
    const p = plan(gpuRequest(gpu), fixtureCatalog, single);
    const replica = onItsPool(p);
    expect(p.perReplica.gpuShare).toBe(share);
    expect(replica.gpuShare).toBeCloseTo(p.perReplica.gpuShare, 6);
    expect(replica.memoryMiB).toBe(p.perReplica.memoryMiB);
    // What every page shows per replica adds up to what the quota counts.
    expect(gpu.replicas * p.perReplica.gpuShare).toBeCloseTo(p.physicalGpus, 4);
    expect(gpu.replicas * replica.gpuShare).toBeCloseTo(p.physicalGpus, 4);
  });

  it('gives MIG its compute share beside what it holds, and no other mode one', () => {
    const mig = plan(
      gpuRequest({ ...a100Mig, vramGiB: 10 }),
      fixtureCatalog,
      awsCluster,
    );
    expect(mig.perReplica.computeShare).toBeCloseTo(1 / 7, 6);
    expect(onItsPool(mig).computeShare).toBeCloseTo(1 / 7, 6);
    const ts = plan(
      gpuRequest({ sharing: 'time-slicing', vramGiB: 4 }),
      fixtureCatalog,
      awsCluster,
    );
    expect(ts.perReplica).not.toHaveProperty('computeShare');
    expect(onItsPool(ts)).not.toHaveProperty('computeShare');
  });

  it('counts a live mixed MIG layout by the instances of the pool profile on each GPU', () => {
    // Each GPU runs 1 × 3g.40gb + 2 × 2g.20gb; the pool serves 2g.20gb.
    const layout = { '3g.40gb': 1, '2g.20gb': 2 };
    const pool: PoolState = {
      name: 'team-mixed',
      path: 'clusters/default/gpu/nodepools/team-mixed.yaml',
      gpuModel: 'a100-80gb',
      sharingMode: 'mig',
      migProfile: '2g.20gb',
      migConfigName: 'team-mixed',
      resourceName: 'nvidia.com/mig-2g.20gb',
      instanceTypes: ['a100-x8'],
      capacityTypes: ['on-demand'],
      limits: { 'nvidia.com/gpu': 8 },
    };
    const state = repoOf([pool], {
      'team-mixed': [
        { devices: 'all', 'mig-enabled': true, 'mig-devices': layout },
      ],
    });
    const p = plan(
      gpuRequest({ ...a100Mig, vramGiB: 15, replicas: 3 }),
      fixtureCatalog,
      awsCluster,
      state,
    );
    expect(p.pool.name).toBe('team-mixed');
    expect(p.sharing.migLayout).toEqual(layout);
    const replica = onItsPool(p, state);
    // One of the 2 instances of 2g.20gb a GPU carries; 2 of its 7 compute slices.
    expect(p.perReplica.gpuShare).toBe(0.5);
    expect(replica.gpuShare).toBe(0.5);
    expect(p.perReplica.computeShare).toBeCloseTo(2 / 7, 6);
    expect(replica.computeShare).toBeCloseTo(2 / 7, 6);
    expect(p.physicalGpus).toBe(1.5);
  });
});

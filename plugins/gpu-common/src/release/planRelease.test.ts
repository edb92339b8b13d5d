import { builtinCatalog } from '../catalog/builtin';
import { resolveClusterProfile } from '../cluster/schema';
import type { PoolState, RepoState } from '../planner/types';
import { parseGpuRequest } from '../request/schema';
import { planRelease } from './planRelease';

const aws = resolveClusterProfile({ name: 'dev' });

const chat = parseGpuRequest({
  kind: 'GpuRequest',
  metadata: { name: 'chat-assistant', namespace: 'ml' },
  spec: {
    owner: 'group:default/ml-platform',
    gpu: {
      model: 't4',
      sharing: 'time-slicing',
      slicesPerGpu: 4,
      vramGiB: 3,
      replicas: 2,
    },
    workload: { image: 'ghcr.io/acme/chat:1.0' },
  },
});

/** One T4 node of 4 slices, shared by two requests of 2 slices each. */
const shared: PoolState = {
  name: 'gpu-t4-ts4',
  path: 'clusters/dev/gpu/nodepools/gpu-t4-ts4.yaml',
  gpuModel: 't4',
  sharingMode: 'time-slicing',
  slicesPerGpu: 4,
  resourceName: 'nvidia.com/gpu.shared',
  instanceTypes: ['g4dn.xlarge'],
  capacityTypes: ['on-demand'],
  deviceConfigName: 't4-ts4',
  managed: true,
  limits: { 'nvidia.com/gpu': 1 },
  ledger: [
    { request: 'ml/chat-assistant', replicas: 2, unitsPerReplica: 1 },
    { request: 'ml/summarizer', replicas: 2, unitsPerReplica: 1 },
  ],
};

const repo: RepoState = {
  pools: [shared],
  devicePluginConfigs: {},
  migConfigs: {},
  workloads: [],
};

describe('planRelease on a shared pool that keeps its nodes', () => {
  it('says what is freed and why no money is, with what the request was billed', () => {
    const released = planRelease(chat, builtinCatalog, aws, repo);
    const [pool] = released.pools;
    expect(pool).toMatchObject({
      releasedUnits: 2,
      nodesBefore: 1,
      nodesAfter: 1,
      removed: false,
    });
    expect(released.savedUsdPerMonth).toBe(0);
    // Half the node's slices: what the card billed the component.
    expect(pool.attributedUsdPerMonth).toBe(pool.usdPerMonthBefore / 2);
    expect(released.attributedUsdPerMonth).toBe(pool.attributedUsdPerMonth);
    expect(released.savings).toBe(
      `saves $0.00/month: pool gpu-t4-ts4 frees 2 nvidia.com/gpu.shared but keeps its 1 node for the request that stays, ` +
        `so no money is saved there: the $${pool.attributedUsdPerMonth.toFixed(2)}/month this request was billed ` +
        `becomes the pool's unallocated cost until another request takes the freed capacity`,
    );
  });

  it("the last request's release says the pool goes with its nodes", () => {
    const alone: RepoState = {
      ...repo,
      pools: [{ ...shared, ledger: [shared.ledger![0]] }],
    };
    const released = planRelease(chat, builtinCatalog, aws, alone);
    const [pool] = released.pools;
    expect(pool.removed).toBe(true);
    expect(released.savedUsdPerMonth).toBe(pool.usdPerMonthBefore);
    expect(released.savings).toBe(
      `saves $${pool.usdPerMonthBefore.toFixed(2)}/month: pool gpu-t4-ts4 goes with its 1 node ($${pool.usdPerMonthBefore.toFixed(2)}/month)`,
    );
  });
});

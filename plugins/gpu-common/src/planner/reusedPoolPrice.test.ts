/**
 * A reused hand-written pool is priced on the machines its requirements
 * allow, by one rule in the request and in its release (poolMachines.ts).
 */
import { builtinCatalog } from '../catalog/builtin';
import { resolveClusterProfile } from '../cluster/schema';
import { planRelease } from '../release/planRelease';
import { parseGpuRequest } from '../request/schema';
import { plan } from './plan';
import type { PoolState, RepoState } from './types';

const aws = resolveClusterProfile({ name: 'dev' });

function request(replicas: number) {
  return parseGpuRequest({
    kind: 'GpuRequest',
    metadata: { name: 'chat', namespace: 'ml' },
    spec: {
      owner: 'group:default/ml-platform',
      gpu: { model: 'a10g', sharing: 'exclusive', vramGiB: 20, replicas },
      workload: { image: 'ghcr.io/acme/chat:1.0' },
    },
  });
}

/** A team's A10G NodePool: G5 of 4xlarge and up, no instance-type list. */
const teamPool: PoolState = {
  name: 'team-gpu',
  path: 'clusters/dev/karpenter/team-gpu.yaml',
  gpuModel: 'a10g',
  sharingMode: 'exclusive',
  resourceName: 'nvidia.com/gpu',
  instanceTypes: [],
  capacityTypes: ['on-demand', 'spot'],
  requirements: [
    {
      key: 'karpenter.k8s.aws/instance-family',
      operator: 'In',
      values: ['g5'],
    },
    {
      key: 'karpenter.k8s.aws/instance-size',
      operator: 'NotIn',
      values: ['xlarge', '2xlarge'],
    },
  ],
};

const repo = (...pools: PoolState[]): RepoState => ({
  pools,
  devicePluginConfigs: {},
  migConfigs: {},
  workloads: [],
});

describe('a reused pool is priced on the machines its requirements allow', () => {
  it('the plan never prices a size the pool forbids', () => {
    const p = plan(request(1), builtinCatalog, aws, repo(teamPool));
    expect(p.pool).toMatchObject({ name: 'team-gpu', reused: true });
    expect(p.cost.pool.instanceType).toBe('g5.4xlarge');
    expect(p.nodes.instanceType).toBe('g5.4xlarge');
    // g5.4xlarge: $1.624/h x 730 h.
    expect(p.cost.pool.usdPerMonth).toBe(1185.52);
  });

  it('its release starts from the price the request reported for it', () => {
    const p = plan(request(2), builtinCatalog, aws, repo(teamPool));
    const held: PoolState = {
      ...teamPool,
      ledger: p.pool.ledger,
      limits: p.pool.limits,
    };
    const released = planRelease(p.request, builtinCatalog, aws, repo(held));
    expect(released.pools).toHaveLength(1);
    expect(p.cost.pool.usdPerMonth).toBeGreaterThan(0);
    expect(released.pools[0].usdPerMonthBefore).toBe(p.cost.pool.usdPerMonth);
    expect(released.pools[0].nodesBefore).toBe(p.cost.pool.nodes);
    expect(released.savedUsdPerMonth).toBe(p.cost.pool.usdPerMonth);
  });
});

/**
 * A repository pool is sized, chosen and priced on the catalog machines its
 * requirements allow, and has one price in a request and in its release.
 */
import { builtinCatalog } from '../catalog/builtin';
import { resolveClusterProfile } from '../cluster/schema';
import type { NodeSelectorRequirement } from '../manifests/nodeSelectorRequirement';
import { machinesOfPool } from './poolMachines';
import type { PoolState } from './types';

const aws = resolveClusterProfile({ name: 'dev' });
const azure = resolveClusterProfile({
  name: 'aks',
  provider: 'azure-karpenter',
});

/** A hand-written exclusive pool of `model`, as the repository reader returns it. */
function handWritten(
  model: string,
  requirements: NodeSelectorRequirement[],
  extra: Partial<PoolState> = {},
): PoolState {
  return {
    name: 'team-gpu',
    path: 'clusters/dev/karpenter/team-gpu.yaml',
    gpuModel: model,
    sharingMode: 'exclusive',
    resourceName: 'nvidia.com/gpu',
    instanceTypes: requirements
      .filter(r => r.key === 'node.kubernetes.io/instance-type')
      .flatMap(r => (r.operator === 'In' ? (r.values ?? []) : [])),
    capacityTypes: ['on-demand', 'spot'],
    requirements,
    ...extra,
  };
}

const names = (pool: PoolState, cluster = aws) =>
  machinesOfPool(pool, builtinCatalog, cluster)
    .map(t => t.name)
    .sort();

describe('machinesOfPool: the catalog machines a pool requirements allow', () => {
  it('reads every operator on the AWS labels the catalog knows', () => {
    const pool = handWritten('a10g', [
      {
        key: 'karpenter.k8s.aws/instance-family',
        operator: 'In',
        values: ['g5'],
      },
      {
        key: 'karpenter.k8s.aws/instance-size',
        operator: 'NotIn',
        values: ['metal', '24xlarge'],
      },
      { key: 'karpenter.k8s.aws/instance-cpu', operator: 'Lt', values: ['33'] },
      {
        key: 'karpenter.k8s.aws/instance-gpu-count',
        operator: 'In',
        values: ['1'],
      },
      {
        key: 'karpenter.k8s.aws/instance-memory',
        operator: 'Gt',
        values: ['16384'],
      },
      { key: 'karpenter.k8s.aws/instance-gpu-name', operator: 'Exists' },
      { key: 'topology.kubernetes.io/zone', operator: 'In', values: ['eu-1a'] },
    ]);
    // g5.xlarge has 16384 MiB (not > 16384); 16xlarge 64 vCPUs; 12/24/48xlarge more GPUs.
    expect(names(pool)).toEqual(['g5.2xlarge', 'g5.4xlarge', 'g5.8xlarge']);
  });

  it('an instance-type list is narrowed by the pool other requirements', () => {
    const pool = handWritten('a10g', [
      {
        key: 'node.kubernetes.io/instance-type',
        operator: 'In',
        values: ['g5.xlarge', 'g5.12xlarge', 'g5.48xlarge'],
      },
      {
        key: 'karpenter.k8s.aws/instance-gpu-count',
        operator: 'Gte',
        values: ['4'],
      },
      {
        key: 'karpenter.k8s.aws/instance-category',
        operator: 'DoesNotExist',
      },
    ]);
    // Every EC2 type has a category, so DoesNotExist leaves none.
    expect(names(pool)).toEqual([]);
    pool.requirements = pool.requirements!.slice(0, 2);
    expect(names(pool)).toEqual(['g5.12xlarge', 'g5.48xlarge']);
  });

  it('reads the Azure sku labels', () => {
    const pool = handWritten(
      'a100-80gb',
      [
        {
          key: 'karpenter.azure.com/sku-gpu-count',
          operator: 'Lte',
          values: ['2'],
        },
        {
          key: 'karpenter.azure.com/sku-version',
          operator: 'In',
          values: ['4'],
        },
        {
          key: 'karpenter.azure.com/sku-name',
          operator: 'NotIn',
          values: ['Standard_NC48ads_A100_v4'],
        },
      ],
      { capacityTypes: ['on-demand'] },
    );
    expect(names(pool, azure)).toEqual(['Standard_NC24ads_A100_v4']);
  });

  it('a pool without requirements on machines launches any machine of its model on the cluster provider', () => {
    const pool = handWritten('t4', [
      { key: 'karpenter.sh/capacity-type', operator: 'In', values: ['spot'] },
    ]);
    expect(names(pool)).toEqual(
      builtinCatalog.instanceTypes
        .filter(t => t.provider === 'aws' && t.gpuModel === 't4')
        .map(t => t.name)
        .sort(),
    );
  });
});

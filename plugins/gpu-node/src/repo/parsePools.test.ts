/**
 * Hand-written Karpenter NodePools read as Karpenter reads them: what
 * capacity types and machines their requirements allow, and so whether a
 * request reuses them and what they cost.
 */
import {
  builtinCatalog,
  costOfPool,
  parseGpuRequest,
  plan,
  resolveClusterProfile,
  type RepoState,
} from '@gpu-gitops/plugin-gpu-common';
import { parsePools, parsePoolsInTurns } from './parsePools';
import { parseYamlFile } from './readDocuments';

const cluster = resolveClusterProfile({ name: 'dev' });

/** A team's A10G NodePool as EKS blueprints write it: no capacity-type requirement. */
const teamNodePool = (requirements: string) => `apiVersion: karpenter.sh/v1
kind: NodePool
metadata:
  name: gpu-a10g
spec:
  template:
    spec:
      nodeClassRef:
        group: karpenter.k8s.aws
        kind: EC2NodeClass
        name: gpu
      requirements:
        - key: karpenter.k8s.aws/instance-gpu-name
          operator: In
          values: ["a10g"]
${requirements}
      taints:
        - key: nvidia.com/gpu
          effect: NoSchedule
  limits:
    nvidia.com/gpu: 8
`;

function repoStateOf(text: string): RepoState {
  const docs = parseYamlFile('clusters/dev/karpenter/gpu.yaml', text, []);
  const configs = { devicePluginConfigs: {}, migConfigs: {} };
  const { pools } = parsePools(docs, configs, builtinCatalog, []);
  return { pools, devicePluginConfigs: {}, migConfigs: {}, workloads: [] };
}

const request = parseGpuRequest({
  kind: 'GpuRequest',
  metadata: { name: 'chat', namespace: 'ml' },
  spec: {
    owner: 'group:default/ml-platform',
    gpu: { model: 'a10g', sharing: 'exclusive', vramGiB: 20, replicas: 1 },
    workload: { image: 'ghcr.io/acme/chat:1.0' },
  },
});

describe('parsePools: a NodePool requirements as Karpenter reads them', () => {
  it('no capacity-type requirement allows every capacity type, so an on-demand request reuses the pool', () => {
    const state = repoStateOf(teamNodePool(''));
    expect(state.pools[0].capacityTypes).toEqual(['on-demand', 'spot']);
    const p = plan(request, builtinCatalog, cluster, state);
    expect(p.pool).toMatchObject({ name: 'gpu-a10g', reused: true });
  });

  it('a capacity-type NotIn is read, not dropped', () => {
    const state = repoStateOf(
      teamNodePool(`        - key: karpenter.sh/capacity-type
          operator: NotIn
          values: ["spot"]`),
    );
    expect(state.pools[0].capacityTypes).toEqual(['on-demand']);
  });

  it('prices the pool on the sizes its requirements allow', () => {
    const state = repoStateOf(
      teamNodePool(`        - key: karpenter.k8s.aws/instance-size
          operator: NotIn
          values: ["xlarge", "2xlarge", "metal"]
        - key: karpenter.k8s.aws/instance-cpu
          operator: Lt
          values: ["33"]`),
    );
    const p = plan(request, builtinCatalog, cluster, state);
    expect(p.pool).toMatchObject({ name: 'gpu-a10g', reused: true });
    expect(p.cost.pool.instanceType).toBe('g5.4xlarge');
    const held = { ...state.pools[0], ledger: p.pool.ledger };
    const after = { ...state, pools: [held] };
    expect(
      costOfPool(held, after, builtinCatalog, undefined, cluster),
    ).toMatchObject({
      instanceType: 'g5.4xlarge',
      totalCents: Math.round(p.cost.pool.usdPerMonth * 100),
    });
  });
});

describe('parsePools: an EKS Auto Mode NodePool', () => {
  it('is a GPU pool of the one model its eks.amazonaws.com instance family carries', () => {
    const state = repoStateOf(`apiVersion: karpenter.sh/v1
kind: NodePool
metadata:
  name: gpu
spec:
  template:
    spec:
      nodeClassRef:
        group: eks.amazonaws.com
        kind: NodeClass
        name: default
      requirements:
        - key: "eks.amazonaws.com/instance-family"
          operator: In
          values: ["g5"]
`);
    expect(state.pools.map(p => [p.name, p.gpuModel])).toEqual([
      ['gpu', 'a10g'],
    ]);
  });
});

describe('parsePools: the resource a pool advertises, from the NodeOverlays that name it', () => {
  const overlay = (name: string, pools: string[], resource: string) => `---
apiVersion: karpenter.sh/v1alpha1
kind: NodeOverlay
metadata:
  name: ${name}
spec:
  requirements:
    - key: karpenter.sh/nodepool
      operator: In
      values: [${pools.join(', ')}]
  capacity:
    ${resource}: "16"
`;

  it('takes the resource of an overlay naming the pool, in document order, and none of an overlay naming others', () => {
    const { pools } = repoStateOf(
      [
        teamNodePool(''),
        overlay('others', ['gpu-t4', 'gpu-l4'], 'nvidia.com/mig-1g.10gb'),
        overlay('mine', ['gpu-a10g', 'gpu-a10g'], 'nvidia.com/gpu.shared'),
        overlay('mine-later', ['gpu-a10g'], 'nvidia.com/gpu.mps'),
      ].join(''),
    );
    expect(pools.map(p => [p.name, p.resourceName])).toEqual([
      ['gpu-a10g', 'nvidia.com/gpu.shared'],
    ]);
    expect(
      repoStateOf(
        teamNodePool('') +
          overlay('others', ['gpu-t4'], 'nvidia.com/gpu.shared'),
      ).pools[0].resourceName,
    ).toBe('nvidia.com/gpu');
  });
});

describe('parsePoolsInTurns', () => {
  it('reads the same pools as parsePools, asking for a turn before each document', async () => {
    const text = [
      teamNodePool(''),
      teamNodePool('').replace('name: gpu-a10g', 'name: gpu-a10g-2'),
      'apiVersion: karpenter.sh/v1\nkind: NodePool\nmetadata: { name: cpu }\nspec: {}\n',
      'apiVersion: v1\nkind: ConfigMap\nmetadata: { name: other }\n',
    ].join('---\n');
    const docs = parseYamlFile('clusters/dev/karpenter/gpu.yaml', text, []);
    const configs = { devicePluginConfigs: {}, migConfigs: {} };
    let turns = 0;
    const sliced = await parsePoolsInTurns(
      docs,
      configs,
      builtinCatalog,
      [],
      async () => {
        turns++;
      },
    );
    expect(sliced).toEqual(parsePools(docs, configs, builtinCatalog, []));
    expect(sliced.pools.map(p => p.name)).toEqual(['gpu-a10g', 'gpu-a10g-2']);
    expect(sliced.otherNodePools).toEqual(['cpu']);
    expect(turns).toBe(4);
  });
});

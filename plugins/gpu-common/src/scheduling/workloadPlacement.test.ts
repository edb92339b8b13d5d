import type { PoolState, WorkloadState } from '../planner/types';
import { landingModel } from './landingModel';
import { nodeShapeOf } from './nodeShapeOf';
import { podSchedulingOf } from './podScheduling';
import { withUnpooledGpuNodes } from './unpooledGpuNodes';
import {
  placedWorkload,
  ledgeredPools,
  placeWorkload,
} from './workloadPlacement';

/** A hand-written NodePool of one EC2 family, tainted for GPU pods, labelled for a team. */
function nodePool(name: string, family: string, team: string) {
  return nodeShapeOf(
    {
      kind: 'NodePool',
      metadata: { name },
      spec: {
        template: {
          metadata: { labels: { team } },
          spec: {
            nodeClassRef: { group: 'karpenter.k8s.aws', name: 'gpu' },
            requirements: [
              {
                key: 'karpenter.k8s.aws/instance-family',
                operator: 'In',
                values: [family],
              },
            ],
            taints: [{ key: 'nvidia.com/gpu', effect: 'NoSchedule' }],
          },
        },
      },
    },
    { resources: [{ name: 'nvidia.com/gpu' }] },
  );
}

function workload(
  name: string,
  nodeSelector: Record<string, string>,
  pool?: string,
): WorkloadState {
  return {
    id: `ml/${name}`,
    namespace: 'ml',
    name,
    path: `apps/ml/${name}/deployment.yaml`,
    resourceName: 'nvidia.com/gpu',
    replicas: 2,
    perReplica: 1,
    ...(pool ? { pool } : {}),
    scheduling: podSchedulingOf({
      nodeSelector,
      tolerations: [{ key: 'nvidia.com/gpu', operator: 'Exists' }],
      containers: [
        {
          name: 'a',
          image: 'a:1',
          resources: { limits: { 'nvidia.com/gpu': 1 } },
        },
      ],
    }),
  };
}

const pool = (name: string, ledger?: string): PoolState => ({
  name,
  path: `clusters/dev/gpu/nodepools/${name}.yaml`,
  sharingMode: 'exclusive',
  resourceName: 'nvidia.com/gpu',
  instanceTypes: [],
  capacityTypes: ['on-demand'],
  ...(ledger
    ? { ledger: [{ request: ledger, replicas: 2, unitsPerReplica: 1 }] }
    : {}),
});

const shapes = [
  nodePool('gpu-l4', 'g6', 'search'),
  nodePool('gpu-a10g-b', 'g5', 'llm'),
  nodePool('gpu-a10g-a', 'g5', 'llm'),
];

/** A team's NodeFeatureRule labelling every node with an NVIDIA T4 (PCI 10de:1eb8). */
const gpuClassRule = {
  apiVersion: 'nfd.k8s-sigs.io/v1alpha1',
  kind: 'NodeFeatureRule',
  metadata: { name: 'gpu-class' },
  spec: {
    rules: [
      {
        name: 't4',
        labels: { 'feature.node.kubernetes.io/gpu-class': 't4' },
        matchFeatures: [
          {
            feature: 'pci.device',
            matchExpressions: {
              vendor: { op: 'In', value: ['10de'] },
              device: { op: 'In', value: ['1eb8'] },
            },
          },
        ],
      },
    ],
  },
};

function model(pools: PoolState[] = []) {
  return {
    landing: landingModel(shapes),
    ledgered: ledgeredPools(pools),
    where: 'of cluster dev',
  };
}

describe('placeWorkload', () => {
  it('counts a workload on the one pool a team label of its template leads to', () => {
    expect(
      placeWorkload(model(), workload('search', { team: 'search' })),
    ).toEqual({
      pool: 'gpu-l4',
      pools: ['gpu-l4'],
    });
  });

  it('counts a workload two pools can take on the first by name, and says so', () => {
    expect(placeWorkload(model(), workload('chat', { team: 'llm' }))).toEqual({
      pool: 'gpu-a10g-a',
      pools: ['gpu-a10g-a', 'gpu-a10g-b'],
      warning:
        "GPU workload ml/chat (apps/ml/chat/deployment.yaml): its pods can land on pools gpu-a10g-a, gpu-a10g-b of cluster dev; it is counted on gpu-a10g-a (the first by name): select one pool's label to say which",
    });
  });

  it('counts it on the pool whose ledger names it, when the product recorded one', () => {
    const placed = placeWorkload(
      model([pool('gpu-a10g-b', 'ml/chat')]),
      workload('chat', { 'karpenter.k8s.aws/instance-family': 'g5' }),
    );
    expect(placed.pool).toBe('gpu-a10g-b');
    expect(placed.warning).toContain(
      'it is counted on gpu-a10g-b (its ledger names it)',
    );
  });

  it('leaves a workload no pool can take on none, with the selector that blocks it', () => {
    const placed = placedWorkload(
      model(),
      workload('lost', { team: 'vision' }, 'gpu-l4'),
    );
    expect(placed.pool).toBeUndefined();
    expect(placed.placementWarning).toBe(
      'GPU workload ml/lost (apps/ml/lost/deployment.yaml): its pods can land on no GPU pool of cluster dev: nodeSelector team=vision: nodes of NodePool gpu-l4 carry search (and the same for gpu-a10g-b, gpu-a10g-a); it is counted on none',
    );
  });

  it('judges nothing where no pool is read (its pools may be elsewhere)', () => {
    const none = { landing: landingModel([]), ledgered: new Map(), where: '' };
    expect(placeWorkload(none, workload('chat', { team: 'llm' }))).toEqual({
      pools: [],
    });
  });

  it('says a selector-less GPU pod may land on a team’s hand-written GPU NodePool too, and counts it on the one pool', () => {
    const teams = {
      ...model(),
      landing: landingModel(
        withUnpooledGpuNodes(
          [shapes[0]],
          [],
          [nodePool('team-gpu', 'g6', 'search')],
        ),
      ),
    };
    expect(placeWorkload(teams, workload('any', {}))).toEqual({
      pool: 'gpu-l4',
      pools: ['gpu-l4'],
      warning:
        "GPU workload ml/any (apps/ml/any/deployment.yaml): its pods can land on pool gpu-l4 of cluster dev and on GPU nodes no pool of cluster dev describes (team-gpu); it is counted on gpu-l4 (the only pool): select one pool's label to say which",
    });
    // Only on the team's pool: nothing of the product's to count, and where it runs said.
    expect(
      placeWorkload(
        teams,
        workload('theirs', { 'karpenter.sh/nodepool': 'team-gpu' }),
      ),
    ).toEqual({ pools: [], unpooled: ['team-gpu'] });
  });

  it('counts the team’s own NFD-labelled GPU servers of a static cluster among where a selector-less pod lands', () => {
    const staticPool = nodeShapeOf(
      {
        kind: 'NodeFeatureRule',
        metadata: { name: 'gpu-a100' },
        spec: {
          template: {
            metadata: { labels: { 'gpu.backstage.io/pool': 'gpu-a100' } },
          },
        },
      },
      { resources: [{ name: 'nvidia.com/gpu' }] },
    );
    const lab = {
      ...model(),
      landing: landingModel(withUnpooledGpuNodes([staticPool], [gpuClassRule])),
    };
    expect(placeWorkload(lab, workload('any', {})).warning).toContain(
      'its pods can land on pool gpu-a100 of cluster dev and on GPU nodes no pool of cluster dev describes (gpu-class/t4); it is counted on gpu-a100',
    );
    // The pool's own label keeps its pods there.
    expect(
      placeWorkload(
        lab,
        workload('ours', { 'gpu.backstage.io/pool': 'gpu-a100' }),
      ),
    ).toEqual({ pool: 'gpu-a100', pools: ['gpu-a100'] });
  });

  it('keeps a workload read without its scheduling on the pool its selector names', () => {
    const { scheduling: _ignored, ...unread } = workload('old', {}, 'gpu-l4');
    expect(placedWorkload(model(), unread)).toEqual(unread);
  });

  it('lands 20k workloads on 2k pools without judging every pool for each', () => {
    const many = Array.from({ length: 2000 }, (_, i) =>
      nodePool(`gpu-${String(i).padStart(4, '0')}`, 'g5', `team-${i}`),
    );
    const big = {
      landing: landingModel(many),
      ledgered: new Map(),
      where: 'of cluster big',
    };
    const workloads = Array.from({ length: 20_000 }, (_, i) =>
      workload(`w${i}`, { team: `team-${i % 2000}` }),
    );
    const started = Date.now();
    const placed = workloads.map(w => placeWorkload(big, w).pool);
    const took = Date.now() - started;
    expect(placed.filter((p, i) => p !== many[i % 2000].pool)).toEqual([]);
    // Judging all 2000 pools for each takes about 2000 times as long.
    expect(took).toBeLessThan(5_000);
    // What no pool offers is named once, not 2000 times.
    expect(
      placeWorkload(big, workload('lost', { team: 'vision' })).warning,
    ).toBe(
      'GPU workload ml/lost (apps/ml/lost/deployment.yaml): its pods can land on no GPU pool of cluster big: nodeSelector team=vision: the nodes of no pool carry that label value; it is counted on none',
    );
  });
});

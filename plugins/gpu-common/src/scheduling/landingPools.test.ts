import { landingPools, landingRefusal } from './landingPools';
import { nodeShapeOf } from './nodeShapeOf';
import { podSchedulingOf } from './podScheduling';

/** A NodePool of T4s with the GPU taint, as a team would write it. */
function nodePool(name: string, extra: Record<string, unknown> = {}) {
  return {
    apiVersion: 'karpenter.sh/v1',
    kind: 'NodePool',
    metadata: { name },
    spec: {
      template: {
        metadata: { labels: { 'gpu.backstage.io/pool': name } },
        spec: {
          requirements: [
            {
              key: 'node.kubernetes.io/instance-type',
              operator: 'In',
              values: ['g4dn.xlarge', 'g4dn.2xlarge'],
            },
            {
              key: 'karpenter.sh/capacity-type',
              operator: 'In',
              values: ['on-demand'],
            },
          ],
          taints: [
            { key: 'nvidia.com/gpu', value: name, effect: 'NoSchedule' },
          ],
          startupTaints: [
            { key: 'node.example.com/warming', effect: 'NoSchedule' },
          ],
          ...extra,
        },
      },
    },
  };
}

const t4 = nodeShapeOf(nodePool('gpu-t4-ts4'), {
  resources: [{ name: 'nvidia.com/gpu.shared', perNode: 4 }],
});
const other = nodeShapeOf(nodePool('gpu-t4'), {
  resources: [{ name: 'nvidia.com/gpu', perNode: 1 }],
});

function pod(
  spec: Record<string, unknown>,
  limits = { 'nvidia.com/gpu.shared': 1 },
) {
  return podSchedulingOf({
    containers: [{ name: 'llm', image: 'llm:1', resources: { limits } }],
    ...spec,
  });
}

const tolerating = (pool: string) => ({
  tolerations: [
    {
      key: 'nvidia.com/gpu',
      operator: 'Equal',
      value: pool,
      effect: 'NoSchedule',
    },
  ],
});

describe('landingPools', () => {
  it('lands a pod pinned by karpenter.sh/nodepool on that NodePool only', () => {
    const landing = landingPools(
      pod({
        nodeSelector: { 'karpenter.sh/nodepool': 'gpu-t4-ts4' },
        ...tolerating('gpu-t4-ts4'),
      }),
      [t4, other],
    );
    expect(landing.pools).toEqual(['gpu-t4-ts4']);
    expect(landing.refused).toEqual([
      {
        pool: 'gpu-t4',
        blocker: 'nodeSelector karpenter.sh/nodepool=gpu-t4-ts4',
        reason:
          'nodeSelector karpenter.sh/nodepool=gpu-t4-ts4: nodes of NodePool gpu-t4 carry gpu-t4',
      },
    ]);
  });

  it('refuses a stale selector: a custom label the NodePool never puts on its nodes', () => {
    expect(
      landingRefusal(
        pod({
          nodeSelector: {
            'karpenter.sh/nodepool': 'gpu-t4-ts4',
            intent: 'gpu-workloads',
          },
          ...tolerating('gpu-t4-ts4'),
        }),
        t4,
      ),
    ).toBe(
      'nodeSelector intent=gpu-workloads: nodes of NodePool gpu-t4-ts4 never carry label intent',
    );
  });

  it('refuses a missing toleration, naming the taint (startup taints never keep a pod off)', () => {
    expect(
      landingRefusal(
        pod({ nodeSelector: { 'karpenter.sh/nodepool': 'gpu-t4-ts4' } }),
        t4,
      ),
    ).toBe(
      'taint nvidia.com/gpu=gpu-t4-ts4:NoSchedule: nodes of NodePool gpu-t4-ts4 carry it, and no toleration of the pod matches',
    );
  });

  it('refuses a resource no node of the pool advertises, and more than a node holds', () => {
    const placed = {
      nodeSelector: { 'karpenter.sh/nodepool': 'gpu-t4-ts4' },
      ...tolerating('gpu-t4-ts4'),
    };
    expect(
      landingRefusal(pod(placed, { 'nvidia.com/gpu': 1 } as any), t4),
    ).toBe(
      'resource nvidia.com/gpu: nodes of NodePool gpu-t4-ts4 advertise nvidia.com/gpu.shared',
    );
    expect(
      landingRefusal(pod(placed, { 'nvidia.com/gpu.shared': 5 }), t4),
    ).toBe(
      'resource nvidia.com/gpu.shared: a pod asks for 5, nodes of NodePool gpu-t4-ts4 advertise 4 each',
    );
  });

  it('refuses a value an In requirement forbids, and takes one it allows', () => {
    const placed = { ...tolerating('gpu-t4-ts4') };
    expect(
      landingRefusal(
        pod({
          ...placed,
          nodeSelector: { 'karpenter.sh/capacity-type': 'spot' },
        }),
        t4,
      ),
    ).toBe(
      'nodeSelector karpenter.sh/capacity-type=spot: nodes of NodePool gpu-t4-ts4 carry on-demand',
    );
    expect(
      landingRefusal(
        pod({
          ...placed,
          nodeSelector: { 'node.kubernetes.io/instance-type': 'g4dn.2xlarge' },
        }),
        t4,
      ),
    ).toBeUndefined();
  });

  it('lets a pod select a well-known label the NodePool leaves open, never a custom one', () => {
    const placed = { ...tolerating('gpu-t4-ts4') };
    expect(
      landingRefusal(
        pod({
          ...placed,
          nodeSelector: { 'topology.kubernetes.io/zone': 'eu-west-1a' },
        }),
        t4,
      ),
    ).toBeUndefined();
    expect(
      landingRefusal(
        pod({
          ...placed,
          nodeSelector: { 'karpenter.k8s.aws/instance-gpu-name': 't4' },
        }),
        t4,
      ),
    ).toBeUndefined();
    expect(
      landingRefusal(
        pod({ ...placed, nodeSelector: { 'nvidia.com/gpu.present': 'true' } }),
        t4,
      ),
    ).toBe(
      'nodeSelector nvidia.com/gpu.present=true: nodes of NodePool gpu-t4-ts4 never carry label nvidia.com/gpu.present',
    );
  });

  it("a NodePool's nodes carry the family and size of the instance types it allows, and only its own provider's labels", () => {
    const onEc2 = nodeShapeOf(
      nodePool('gpu-t4', {
        nodeClassRef: {
          group: 'karpenter.k8s.aws',
          kind: 'EC2NodeClass',
          name: 'gpu',
        },
      }),
    );
    const onAzure = nodeShapeOf(
      nodePool('gpu-t4', {
        nodeClassRef: {
          group: 'karpenter.azure.com',
          kind: 'AKSNodeClass',
          name: 'gpu',
        },
      }),
    );
    const selecting = (nodeSelector: Record<string, string>) =>
      pod({ ...tolerating('gpu-t4'), nodeSelector });
    const family = 'karpenter.k8s.aws/instance-family';
    expect(landingRefusal(selecting({ [family]: 'g4dn' }), onEc2)).toBe(
      undefined,
    );
    expect(landingRefusal(selecting({ [family]: 'g5' }), onEc2)).toBe(
      `nodeSelector ${family}=g5: nodes of NodePool gpu-t4 carry g4dn`,
    );
    expect(
      landingRefusal(
        selecting({ 'karpenter.k8s.aws/instance-size': 'xlarge' }),
        onEc2,
      ),
    ).toBe(undefined);
    expect(landingRefusal(selecting({ [family]: 'g4dn' }), onAzure)).toBe(
      `nodeSelector ${family}=g4dn: nodes of NodePool gpu-t4 never carry label ${family}`,
    );
  });

  it('reads required node affinity: OR of terms, AND of expressions', () => {
    const affinity = (terms: unknown[]) => ({
      ...tolerating('gpu-t4-ts4'),
      affinity: {
        nodeAffinity: {
          requiredDuringSchedulingIgnoredDuringExecution: {
            nodeSelectorTerms: terms,
          },
        },
      },
    });
    const legacy = {
      key: 'karpenter.sh/provisioner-name',
      operator: 'In',
      values: ['gpu'],
    };
    const ours = {
      key: 'karpenter.sh/nodepool',
      operator: 'In',
      values: ['gpu-t4-ts4'],
    };
    expect(
      landingRefusal(pod(affinity([{ matchExpressions: [legacy] }])), t4),
    ).toBe(
      'required node affinity karpenter.sh/provisioner-name In [gpu]: nodes of NodePool gpu-t4-ts4 never carry it',
    );
    expect(
      landingRefusal(
        pod(
          affinity([
            { matchExpressions: [legacy] },
            { matchExpressions: [ours] },
          ]),
        ),
        t4,
      ),
    ).toBeUndefined();
    expect(
      landingRefusal(
        pod(
          affinity([
            {
              matchExpressions: [
                ours,
                { key: 'gpu.backstage.io/pool', operator: 'DoesNotExist' },
              ],
            },
          ]),
        ),
        t4,
      ),
    ).toMatch(/^required node affinity gpu.backstage.io\/pool DoesNotExist/);
    expect(
      landingRefusal(
        pod(
          affinity([
            {
              matchExpressions: [
                {
                  key: 'karpenter.sh/capacity-type',
                  operator: 'NotIn',
                  values: ['spot'],
                },
              ],
            },
          ]),
        ),
        t4,
      ),
    ).toBeUndefined();
  });

  it('on Cluster API, a node carries its kubelet labels, not the MachineDeployment template labels', () => {
    const objects = [
      {
        kind: 'MachineDeployment',
        metadata: { name: 'gpu-t4' },
        spec: {
          template: {
            metadata: {
              labels: { team: 'ml', 'node.cluster.x-k8s.io/tier': 'gpu' },
            },
            spec: {
              bootstrap: {
                configRef: {
                  kind: 'KubeadmConfigTemplate',
                  name: 'gpu-t4-abc',
                },
              },
            },
          },
        },
      },
      {
        kind: 'KubeadmConfigTemplate',
        metadata: { name: 'gpu-t4-abc' },
        spec: {
          template: {
            spec: {
              joinConfiguration: {
                nodeRegistration: {
                  kubeletExtraArgs: [
                    {
                      name: 'node-labels',
                      value:
                        'gpu.backstage.io/pool=gpu-t4,nvidia.com/device-plugin.config=t4',
                    },
                  ],
                  taints: [
                    {
                      key: 'nvidia.com/gpu',
                      value: 'gpu-t4',
                      effect: 'NoSchedule',
                    },
                  ],
                },
              },
            },
          },
        },
      },
    ];
    const shape = nodeShapeOf(objects[0], { objects });
    const placed = tolerating('gpu-t4');
    expect(
      landingRefusal(
        pod({ ...placed, nodeSelector: { 'gpu.backstage.io/pool': 'gpu-t4' } }),
        shape,
      ),
    ).toBeUndefined();
    expect(
      landingRefusal(
        pod({
          ...placed,
          nodeSelector: { 'node.cluster.x-k8s.io/tier': 'gpu' },
        }),
        shape,
      ),
    ).toBeUndefined();
    // A cloud controller manager (OpenStack, vSphere) labels the machine's zone.
    expect(
      landingRefusal(
        pod({
          ...placed,
          nodeSelector: { 'topology.kubernetes.io/zone': 'nova' },
        }),
        shape,
      ),
    ).toBeUndefined();
    expect(
      landingRefusal(pod({ ...placed, nodeSelector: { team: 'ml' } }), shape),
    ).toBe(
      'nodeSelector team=ml: nodes of MachineDeployment gpu-t4 never carry label team',
    );
    expect(
      landingRefusal(
        pod({ ...placed, nodeSelector: { 'karpenter.sh/nodepool': 'gpu-t4' } }),
        shape,
      ),
    ).toBe(
      'nodeSelector karpenter.sh/nodepool=gpu-t4: nodes of MachineDeployment gpu-t4 never carry label karpenter.sh/nodepool',
    );
    expect(
      landingRefusal(
        pod({ nodeSelector: { 'gpu.backstage.io/pool': 'gpu-t4' } }),
        shape,
      ),
    ).toMatch(/^taint nvidia.com\/gpu=gpu-t4:NoSchedule/);
  });

  it('a node that runs before its pods carries the GPU discovery labels; a node Karpenter launches does not', () => {
    const gfd = { 'nvidia.com/gpu.present': 'true' };
    const staticRule = nodeShapeOf({
      kind: 'NodeFeatureRule',
      metadata: { name: 'gpu-t4' },
      spec: {
        rules: [
          {
            name: 'gpu-t4',
            labels: { 'gpu.backstage.io/pool': 'gpu-t4' },
            taints: [
              { key: 'nvidia.com/gpu', value: 'gpu-t4', effect: 'NoSchedule' },
            ],
          },
        ],
      },
    });
    expect(
      landingRefusal(
        pod({
          ...tolerating('gpu-t4'),
          nodeSelector: { 'gpu.backstage.io/pool': 'gpu-t4', ...gfd },
        }),
        staticRule,
      ),
    ).toBeUndefined();
    expect(
      landingRefusal(
        pod({
          ...tolerating('gpu-t4'),
          nodeSelector: {
            'gpu.backstage.io/pool': 'gpu-t4',
            'nvidia.com/gpu.present': 'false',
          },
        }),
        staticRule,
      ),
    ).toMatch(/nvidia.com\/gpu.present=false/);
    expect(
      landingRefusal(
        pod({
          ...tolerating('gpu-t4-ts4'),
          nodeSelector: { 'karpenter.sh/nodepool': 'gpu-t4-ts4', ...gfd },
        }),
        t4,
      ),
    ).toBe(
      'nodeSelector nvidia.com/gpu.present=true: nodes of NodePool gpu-t4-ts4 never carry label nvidia.com/gpu.present',
    );
  });
});

describe('podSchedulingOf', () => {
  it('adds up app containers and sidecars, and takes the largest init container', () => {
    const asks = (limits: Record<string, number>) => ({
      resources: { limits },
    });
    expect(
      podSchedulingOf({
        initContainers: [
          { name: 'warm', ...asks({ 'nvidia.com/gpu': 3 }) },
          {
            name: 'proxy',
            restartPolicy: 'Always',
            ...asks({ 'nvidia.com/gpu': 1 }),
          },
        ],
        containers: [
          { name: 'a', ...asks({ 'nvidia.com/gpu': 1, cpu: 2 }) },
          { name: 'b', ...asks({ 'nvidia.com/gpu': 1 }) },
        ],
      }).gpuResources,
    ).toEqual({ 'nvidia.com/gpu': 3 });
  });
});

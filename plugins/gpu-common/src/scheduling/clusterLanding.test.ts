/**
 * The one landing model gives each NodePool's nodes the resources the
 * cluster's NodeOverlays add: a time-slicing team's overlay telling
 * Karpenter its g5 nodes hold 8 `nvidia.com/gpu.shared` is what lets a pod
 * asking for it land there.
 */
import { clusterLandingModel } from './clusterLanding';
import { landOn } from './landingModel';
import type { NodeOverlayLike } from './nodeOverlays';
import { nodeShapeOf } from './nodeShapeOf';
import { podSchedulingOf } from './podScheduling';

function nodePool(name: string, family: string) {
  return nodeShapeOf(
    {
      kind: 'NodePool',
      metadata: { name },
      spec: {
        template: {
          spec: {
            nodeClassRef: { group: 'karpenter.k8s.aws', name: 'gpu' },
            requirements: [
              {
                key: 'karpenter.k8s.aws/instance-family',
                operator: 'In',
                values: [family],
              },
            ],
          },
        },
      },
    },
    { resources: [{ name: 'nvidia.com/gpu' }] },
  );
}

const slices = (
  name: string,
  requirements: NodeOverlayLike['requirements'],
): NodeOverlayLike => ({
  name,
  requirements,
  capacity: { 'nvidia.com/gpu.shared': '8' },
});

const askingShared = podSchedulingOf({
  containers: [
    { name: 'server', resources: { limits: { 'nvidia.com/gpu.shared': 1 } } },
  ],
});

describe('clusterLandingModel: NodeOverlays', () => {
  const pools = [nodePool('gpu-g4dn', 'g4dn')];
  const handWritten = [nodePool('team-g5', 'g5')];

  it('lands a pod asking for a resource only an overlay gives on the pool it reaches', () => {
    const model = clusterLandingModel({
      pools,
      handWritten,
      overlays: [
        slices('team-g5-slices', [
          { key: 'karpenter.sh/nodepool', operator: 'In', values: ['team-g5'] },
        ]),
      ],
    });
    expect(landOn(model, askingShared).pools).toEqual(['team-g5']);
    expect(
      model.shapes.find(s => s.pool === 'team-g5')?.resources,
    ).toContainEqual({ name: 'nvidia.com/gpu.shared', perNode: 8 });
  });

  it('gives the resource to the product’s pools an unscoped hand-written overlay matches too', () => {
    const model = clusterLandingModel({
      pools,
      handWritten,
      overlays: [
        slices('every-gpu-node', [
          {
            key: 'karpenter.k8s.aws/instance-gpu-manufacturer',
            operator: 'In',
            values: ['nvidia'],
          },
        ]),
      ],
    });
    expect(landOn(model, askingShared).pools.sort()).toEqual([
      'gpu-g4dn',
      'team-g5',
    ]);
  });

  it('gives nothing where the overlay’s requirements exclude the pool’s nodes', () => {
    const model = clusterLandingModel({
      pools,
      handWritten,
      overlays: [
        slices('p5-only', [
          {
            key: 'karpenter.k8s.aws/instance-family',
            operator: 'In',
            values: ['p5'],
          },
        ]),
      ],
    });
    expect(landOn(model, askingShared).pools).toEqual([]);
    expect(clusterLandingModel({ pools, handWritten }).shapes).toEqual(
      model.shapes,
    );
  });

  it('takes the count of the overlay Karpenter ranks first, whether it names the pool or not', () => {
    const named = (weight: number, count: string): NodeOverlayLike => ({
      name: `team-g5-${count}`,
      weight,
      requirements: [
        { key: 'karpenter.sh/nodepool', operator: 'In', values: ['team-g5'] },
      ],
      capacity: { 'nvidia.com/gpu.shared': count },
    });
    const unscoped = (weight: number): NodeOverlayLike => ({
      ...slices('every-g5', [
        {
          key: 'karpenter.k8s.aws/instance-family',
          operator: 'In',
          values: ['g5'],
        },
      ]),
      weight,
    });
    const perNode = (overlays: NodeOverlayLike[]) =>
      clusterLandingModel({ pools, handWritten, overlays })
        .shapes.find(s => s.pool === 'team-g5')
        ?.resources?.find(r => r.name === 'nvidia.com/gpu.shared')?.perNode;
    expect(perNode([named(10, '4'), unscoped(5)])).toBe(4);
    expect(perNode([named(1, '4'), unscoped(5)])).toBe(8);
    // Another pool's overlay never reaches team-g5.
    expect(
      perNode([
        {
          ...named(10, '2'),
          requirements: [
            {
              key: 'karpenter.sh/nodepool',
              operator: 'In',
              values: ['gpu-g4dn'],
            },
          ],
        },
      ]),
    ).toBeUndefined();
  });
});

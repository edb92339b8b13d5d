import { builtinCatalog } from '../catalog/builtin';
import { findInstanceType } from '../catalog/lookup';
import {
  applyNodeOverlays,
  overlayReachesPool,
  type NodeOverlayLike,
  type OverlaidPool,
} from './nodeOverlays';

const machine = (name: string) => findInstanceType(builtinCatalog, name)!;

/** A product pool of 1-GPU T4 machines and a team's pool of 4-GPU A10G machines. */
const pools: OverlaidPool[] = [
  {
    name: 'gpu-t4-ts4',
    templateLabels: { 'nvidia.com/device-plugin.config': 'ts-4' },
    machines: [machine('g4dn.xlarge')],
  },
  {
    name: 'team-a10g',
    templateLabels: { team: 'vision' },
    machines: [machine('g5.12xlarge')],
  },
];

const product: NodeOverlayLike = {
  name: 'gpu-t4-ts4-1gpu',
  requirements: [
    { key: 'karpenter.sh/nodepool', operator: 'In', values: ['gpu-t4-ts4'] },
    {
      key: 'karpenter.k8s.aws/instance-gpu-count',
      operator: 'In',
      values: ['1'],
    },
  ],
  capacity: { 'nvidia.com/gpu.shared': '4' },
};
/** A team's overlay for every NVIDIA node, as Bottlerocket time-slicing setups write it. */
const team = (over: Partial<NodeOverlayLike>): NodeOverlayLike => ({
  name: 'nvidia-time-slicing',
  requirements: [
    {
      key: 'karpenter.k8s.aws/instance-gpu-manufacturer',
      operator: 'In',
      values: ['nvidia'],
    },
  ],
  capacity: { 'nvidia.com/gpu.shared': '8' },
  ...over,
});

const t4 = (overlays: NodeOverlayLike[]) => {
  const outcome = applyNodeOverlays(overlays, pools);
  return {
    ...outcome,
    t4: outcome.machines.find(m => m.pool === 'gpu-t4-ts4')!,
  };
};

describe('the NodeOverlays Karpenter applies to a pool’s machines', () => {
  it('applies an overlay naming pools by karpenter.sh/nodepool to those pools’ machines only, each once, and to none when it names no pool there', () => {
    const named = (values: string[]): NodeOverlayLike => ({
      name: 'by-pool',
      requirements: [{ key: 'karpenter.sh/nodepool', operator: 'In', values }],
      capacity: { 'nvidia.com/gpu': '2' },
    });
    const capacityByPool = (overlay: NodeOverlayLike) => {
      const outcome = applyNodeOverlays([overlay], pools);
      return {
        conflicting: outcome.conflicting,
        pools: outcome.machines
          .filter(m => m.capacity['nvidia.com/gpu'])
          .map(m => m.pool),
      };
    };
    expect(capacityByPool(named(['team-a10g', 'team-a10g']))).toEqual({
      conflicting: [],
      pools: ['team-a10g'],
    });
    expect(capacityByPool(named(['gone', 'gpu-t4-ts4', 'team-a10g']))).toEqual({
      conflicting: [],
      pools: ['gpu-t4-ts4', 'team-a10g'],
    });
    expect(capacityByPool(named(['gone']))).toEqual({
      conflicting: [],
      pools: [],
    });
  });

  it('gives each resource the capacity of the highest weight', () => {
    const outcome = t4([product, team({ weight: 10 })]);
    expect(outcome.t4.capacity).toEqual({
      'nvidia.com/gpu.shared': { value: '8', overlay: 'nvidia-time-slicing' },
    });
    expect(outcome.conflicting).toEqual([]);
  });

  it('keeps the product’s capacity over a lower weight, and merges other resources', () => {
    const outcome = t4([
      { ...product, weight: 20 },
      team({
        weight: 10,
        capacity: { 'nvidia.com/gpu.shared': '8', 'example.com/nic': '1' },
      }),
    ]);
    expect(outcome.t4.capacity).toEqual({
      'nvidia.com/gpu.shared': { value: '4', overlay: 'gpu-t4-ts4-1gpu' },
      'example.com/nic': { value: '1', overlay: 'nvidia-time-slicing' },
    });
  });

  it('at equal weight takes the name later in the alphabet and rejects the other as conflicting', () => {
    const outcome = t4([product, team({})]);
    expect(outcome.t4.capacity['nvidia.com/gpu.shared']).toEqual({
      value: '8',
      overlay: 'nvidia-time-slicing',
    });
    expect(outcome.conflicting).toEqual(['gpu-t4-ts4-1gpu']);
    expect(outcome.t4.named).toEqual(['nvidia.com/gpu.shared']);
    const earlier = t4([product, team({ name: 'all-nvidia' })]);
    expect(earlier.t4.capacity['nvidia.com/gpu.shared'].overlay).toBe(
      'gpu-t4-ts4-1gpu',
    );
    expect(earlier.conflicting).toEqual(['all-nvidia']);
  });

  it('matches template labels and the pool name, not a custom label the NodePool does not define', () => {
    const byTeam = t4([
      team({
        requirements: [{ key: 'team', operator: 'In', values: ['vision'] }],
      }),
    ]);
    expect(byTeam.t4.capacity).toEqual({});
    expect(byTeam.machines.find(m => m.pool === 'team-a10g')!.capacity).toEqual(
      {
        'nvidia.com/gpu.shared': { value: '8', overlay: 'nvidia-time-slicing' },
      },
    );
    const byFamily = t4([
      team({
        requirements: [
          {
            key: 'karpenter.k8s.aws/instance-family',
            operator: 'In',
            values: ['g4dn'],
          },
        ],
        price: '0.10',
      }),
    ]);
    expect(byFamily.t4.price).toEqual({
      field: 'price',
      value: '0.10',
      overlay: 'nvidia-time-slicing',
    });
  });
});

describe('overlayReachesPool', () => {
  it('matches an overlay on the machines, name and template labels of a pool, as applyNodeOverlays does', () => {
    expect(overlayReachesPool(team({}).requirements, pools[1])).toBe(true);
    expect(overlayReachesPool(product.requirements, pools[1])).toBe(false);
    expect(
      overlayReachesPool(
        [{ key: 'team', operator: 'In', values: ['vision'] }],
        pools[1],
      ),
    ).toBe(true);
    // An instance family none of the pool's machines has.
    expect(
      overlayReachesPool(
        [
          {
            key: 'karpenter.k8s.aws/instance-family',
            operator: 'In',
            values: ['p5'],
          },
        ],
        pools[1],
      ),
    ).toBe(false);
  });

  it('matches a pool whose machines the catalog does not know on its name, any well-known label possible', () => {
    const unknown = { name: 'team-x', templateLabels: {}, machines: [] };
    expect(overlayReachesPool(team({}).requirements, unknown)).toBe(true);
    expect(overlayReachesPool(product.requirements, unknown)).toBe(false);
  });
});

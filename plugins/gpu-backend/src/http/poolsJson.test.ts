import type { IndexedPoolSummary } from '../allocation/poolSummaries';
import { poolsJsonPieces } from './poolsJson';
import type { PoolView } from './visiblePools';

/** An index pool with the fields a summary carries, a name that needs escaping, and one consumer. */
const indexed = {
  name: 'gpu-"t4"\\shared',
  cluster: 'prod-eu',
  gpuModel: 't4',
  sharingMode: 'time-slicing',
  resourceName: 'nvidia.com/gpu',
  instanceTypes: ['g4dn.xlarge'],
  unitsPerGpu: 4,
  capacity: 8,
  allocated: 3,
  cost: { nodes: 1, usdPerMonth: 383.98 },
  consumers: [
    {
      id: 'ml/trainer',
      namespace: 'ml',
      kubernetesId: 'trainer',
      units: 3,
      usdPerMonth: 287.99,
    },
  ],
} as unknown as IndexedPoolSummary;

const { consumers: _indexConsumers, ...indexFields } = indexed;

const named: PoolView['view'] = {
  consumers: [
    {
      id: 'ml/trainer',
      entityRef: 'component:default/trainer',
      units: 3,
      usdPerMonth: 287.99,
    },
  ],
  utilization: {
    window: '7d',
    gpusSeen: 1,
  } as unknown as PoolView['view']['utilization'],
};
const counted: PoolView['view'] = {
  consumers: [],
  otherConsumers: { count: 1, units: 3, usdPerMonth: 287.99 },
};

const poolsJson = (...args: Parameters<typeof poolsJsonPieces>) =>
  [...poolsJsonPieces(...args)].join('');

describe('poolsJsonPieces', () => {
  it("writes each pool as the index's fields with the caller's view in place of its consumers", () => {
    const text = poolsJson([{ indexed, view: named }], {
      revision: 'abc123',
    });
    expect(JSON.parse(text)).toEqual({
      pools: [{ ...indexFields, ...named }],
      revision: 'abc123',
    });
  });

  it("keeps no caller's view with the index's part: the next caller sees only its own", () => {
    poolsJson([{ indexed, view: named }], {});
    const text = poolsJson([{ indexed, view: counted }], {});
    expect(JSON.parse(text)).toEqual({
      pools: [{ ...indexFields, ...counted }],
    });
    expect(text).not.toContain('component:default/trainer');
  });

  it('writes a page of many pools in pieces that join into one document', () => {
    const pools = Array.from({ length: 600 }, (_, i) => ({
      indexed: { ...indexed, name: `gpu-${i}` } as IndexedPoolSummary,
      view: counted,
    }));
    const pieces = [...poolsJsonPieces(pools, { revision: 'abc123' })];
    expect(pieces.length).toBeGreaterThan(3);
    const page = JSON.parse(pieces.join(''));
    expect(page.pools.map((p: { name: string }) => p.name)).toEqual(
      pools.map(p => p.indexed.name),
    );
    expect(page.revision).toBe('abc123');
  });

  it('draws each view only as its piece is written: a slow reader holds one piece of views, not the page', () => {
    let drawn = 0;
    function* views() {
      for (let i = 0; i < 600; i++) {
        drawn += 1;
        yield {
          indexed: { ...indexed, name: `gpu-${i}` } as IndexedPoolSummary,
          view: counted,
        };
      }
    }
    const pieces = poolsJsonPieces(views(), {});
    pieces.next(); // the page's opening
    expect(drawn).toBe(0);
    const first = pieces.next().value as string;
    expect(drawn).toBeLessThan(600);
    const rest = [...pieces];
    expect(drawn).toBe(600);
    const page = JSON.parse(['{"pools":[', first, ...rest].join(''));
    expect(page.pools).toHaveLength(600);
  });

  it('writes a page without pools, and without the fields it does not have', () => {
    expect(JSON.parse(poolsJson([], {}))).toEqual({ pools: [] });
  });
});

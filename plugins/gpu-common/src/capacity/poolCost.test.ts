import type { InstanceType } from '../catalog/types';
import { findInstanceType } from '../catalog/lookup';
import { builtinCatalog } from '../catalog/builtin';
import {
  HOURS_PER_MONTH,
  monthlyCentsOf,
  poolCost,
  poolNodes,
  splitCents,
} from './poolCost';

const aws = (name: string): InstanceType =>
  findInstanceType(builtinCatalog, name)!;
const machine = (
  name: string,
  gpusPerNode: number,
  onDemandUsdPerHour: number,
  provider: InstanceType['provider'] = 'aws',
): InstanceType => ({
  name,
  family: 'f',
  provider,
  gpuModel: 'm',
  gpusPerNode,
  gpuMemoryMiB: 16384,
  vcpu: 4,
  memoryMiB: 16384,
  onDemandUsdPerHour,
});

const entry = (request: string, replicas: number, unitsPerReplica = 1) => ({
  request,
  replicas,
  unitsPerReplica,
});

describe('splitCents', () => {
  it('splits by units with the largest remainder, always summing to the total', () => {
    expect(splitCents(38398, [3, 1])).toEqual([28799, 9599]);
    expect(splitCents(100, [1, 1, 1])).toEqual([34, 33, 33]);
    expect(splitCents(0, [1, 2])).toEqual([0, 0]);
    expect(splitCents(500, [0, 0])).toEqual([0, 0]);
    const cases: [number, number[]][] = [
      [1602908, [4, 4, 0, 8]],
      [38398, [1, 1, 1, 1, 1, 1, 1]],
      [7, [5, 3, 2]],
    ];
    for (const [total, units] of cases) {
      const parts = splitCents(total, units);
      const sum = units.reduce((s, u) => s + u, 0);
      expect(parts.reduce((s, p) => s + p, 0)).toBe(total);
      // Each part is its exact share, rounded to one of the two nearest cents.
      parts.forEach((p, i) =>
        expect(Math.abs(p - (total * units[i]) / sum)).toBeLessThan(1),
      );
    }
  });
});

describe('poolCost', () => {
  const t4 = {
    unitsPerGpu: 4,
    staticPool: false,
    machines: [aws('g4dn.xlarge'), aws('g4dn.2xlarge')],
  };

  it('two requests sharing one T4 node pay the node once: shares + idle = the node price', () => {
    expect(HOURS_PER_MONTH).toBe(730);
    expect(monthlyCentsOf(aws('g4dn.xlarge'))).toBe(38398);
    const cost = poolCost([entry('ml/a', 2), entry('ml/b', 1)], t4);
    expect(cost).toMatchObject({
      nodes: 1,
      instanceType: 'g4dn.xlarge',
      unitsPerNode: 4,
      totalCents: 38398,
      capacityUnits: 4,
      allocatedUnits: 3,
      idleUnits: 1,
    });
    expect(cost.shares).toEqual([
      { request: 'ml/a', units: 2, cents: 19199 },
      { request: 'ml/b', units: 1, cents: 9600 },
    ]);
    expect(cost.idleCents).toBe(9599);
    expect(cost.shares.reduce((s, x) => s + x.cents, 0) + cost.idleCents).toBe(
      cost.totalCents,
    );
  });

  it('an 8-GPU MIG node holding 4 slices shows the other 12 instances as idle', () => {
    const cost = poolCost([entry('ml/bert', 4)], {
      unitsPerGpu: 2,
      staticPool: false,
      machines: [aws('p4d.24xlarge')],
    });
    expect(cost.nodes).toBe(1);
    expect(cost.totalCents).toBe(1602908);
    expect(cost.shares[0].cents).toBe(400727);
    expect(cost.idleUnits).toBe(12);
    expect(cost.idleCents).toBe(1202181);
  });

  it('prices the cheapest machine set within the limit the ledger derives', () => {
    const machines = [machine('x1', 1, 0.5), machine('x4', 4, 1.8)];
    const pricing = { unitsPerGpu: 1, staticPool: false, machines };
    // 4 whole GPUs: one x4 ($1.8/h) is cheaper than four x1 ($2/h).
    expect(poolNodes([entry('a/b', 4)], pricing)).toMatchObject({
      nodes: 1,
      instanceType: 'x4',
    });
    // 3 GPUs: the limit is 3, an x4 would exceed it.
    expect(poolNodes([entry('a/b', 3)], pricing)).toMatchObject({
      nodes: 3,
      instanceType: 'x1',
      totalCents: 3 * 36500,
    });
    expect(poolNodes([], pricing)).toMatchObject({ nodes: 0, totalCents: 0 });
  });

  it('prices unknown cloud prices at 0 and says so; owned machines are known and free', () => {
    expect(
      poolNodes([entry('a/b', 1)], {
        unitsPerGpu: 1,
        staticPool: false,
        machines: [machine('block', 8, 0)],
      }),
    ).toMatchObject({ nodes: 1, priceKnown: false, totalCents: 0 });
    expect(
      poolNodes([entry('a/b', 3)], {
        unitsPerGpu: 1,
        staticPool: true,
        machines: [machine('rack', 2, 0, 'static')],
      }),
    ).toMatchObject({ nodes: 2, priceKnown: true, totalCents: 0 });
    // No machine the catalog knows: nodes still counted, price unknown.
    expect(
      poolNodes([entry('a/b', 3, 2)], {
        unitsPerGpu: 1,
        staticPool: false,
        machines: [],
      }),
    ).toMatchObject({ nodes: 3, gpusPerNode: 2, priceKnown: false });
  });
});

import { poolUsage } from './poolUsage';

describe('poolUsage', () => {
  const pool = (
    allocated: number,
    capacity: number | undefined,
    nodes: number,
  ) => ({
    resourceName: 'nvidia.com/gpu.shared',
    allocated,
    capacity,
    cost: { nodes, capacityUnits: nodes * 4, idleUnits: nodes * 4 - allocated },
  });

  it('measures what is held against the nodes that run, as the cost does, and names the limit apart', () => {
    // The page once showed "4 of 8 allocated" at 50 % beside "0 of 4 free".
    const usage = poolUsage(pool(4, 8, 1));
    expect(usage).toEqual({
      allocated: 4,
      onNodes: 4,
      free: 0,
      limit: 8,
      fraction: 1,
      overLimit: false,
      text: '4 of 4 nvidia.com/gpu.shared held on 1 node, 0 free; the limit allows 8',
    });
    expect(usage.free).toBe(usage.onNodes - usage.allocated);
  });

  it('says when more is held than the limit allows, and when there is none', () => {
    expect(poolUsage(pool(8, 4, 2))).toMatchObject({
      fraction: 1,
      overLimit: true,
      text: '8 of 8 nvidia.com/gpu.shared held on 2 nodes, 0 free; the limit allows 4 — over it: the excess pods stay pending',
    });
    expect(poolUsage(pool(0, undefined, 0))).toEqual({
      allocated: 0,
      onNodes: 0,
      free: 0,
      fraction: 0,
      overLimit: false,
      text: '0 of 0 nvidia.com/gpu.shared held on 0 nodes, 0 free; no limit',
    });
  });
});

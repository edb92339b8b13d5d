import {
  gpusNeeded,
  referenceNodeShape,
  nodesNeeded,
  ReplicaTooLargeError,
  unitsOf,
} from './poolNeed';

describe('nodesNeeded', () => {
  it('packs one-unit replicas of several requests together (two requests of 3 at 5 per node need 2 nodes)', () => {
    const groups = [
      { replicas: 3, unitsPerReplica: 1 },
      { replicas: 3, unitsPerReplica: 1 },
    ];
    expect(nodesNeeded(groups, 5)).toBe(2);
    expect(nodesNeeded(groups, 6)).toBe(1);
    expect(nodesNeeded(groups, 4)).toBe(2);
  });

  it('never splits a replica across nodes', () => {
    // 3 replicas of 3 GPUs on 4-GPU nodes: one per node.
    expect(nodesNeeded([{ replicas: 3, unitsPerReplica: 3 }], 4)).toBe(3);
    // The free GPU of each node takes a one-GPU replica.
    expect(
      nodesNeeded(
        [
          { replicas: 3, unitsPerReplica: 3 },
          { replicas: 3, unitsPerReplica: 1 },
        ],
        4,
      ),
    ).toBe(3);
  });

  it('is 0 for nothing and refuses a replica larger than a node', () => {
    expect(nodesNeeded([], 4)).toBe(0);
    expect(nodesNeeded([{ replicas: 0, unitsPerReplica: 2 }], 4)).toBe(0);
    expect(() => nodesNeeded([{ replicas: 1, unitsPerReplica: 8 }], 4)).toThrow(
      ReplicaTooLargeError,
    );
  });

  it('is exact for one-unit replicas at any scale', () => {
    for (const [replicas, perNode] of [
      [1000, 7],
      [999, 3],
      [12, 4],
      [13, 4],
    ]) {
      expect(nodesNeeded([{ replicas, unitsPerReplica: 1 }], perNode)).toBe(
        Math.ceil(replicas / perNode),
      );
    }
  });
});

describe('gpusNeeded', () => {
  it('counts whole nodes of the reference shape', () => {
    const groups = [{ replicas: 6, unitsPerReplica: 1 }];
    expect(gpusNeeded(groups, { unitsPerNode: 5, gpusPerNode: 1 })).toBe(2);
    // A 4-GPU node with 5 slices per GPU holds all 6: 4 GPUs.
    expect(gpusNeeded(groups, { unitsPerNode: 20, gpusPerNode: 4 })).toBe(4);
    expect(unitsOf(groups)).toBe(6);
  });
});

describe('referenceNodeShape', () => {
  it('takes the machine with the fewest GPUs that holds the largest replica', () => {
    expect(referenceNodeShape([4, 1, 8], 5, 1)).toEqual({
      gpusPerNode: 1,
      unitsPerNode: 5,
    });
    expect(referenceNodeShape([4, 1, 8], 1, 3)).toEqual({
      gpusPerNode: 4,
      unitsPerNode: 4,
    });
    expect(referenceNodeShape([], 7, 1)).toEqual({
      gpusPerNode: 1,
      unitsPerNode: 7,
    });
    expect(referenceNodeShape([1, 2], 1, 4)).toBeUndefined();
  });
});

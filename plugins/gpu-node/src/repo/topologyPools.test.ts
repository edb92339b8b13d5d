/**
 * A managed topology's GPU worker, adopted (its entry carries the product's
 * pool annotations), is a pool of the cluster as a written
 * MachineDeployment is: the planner reuses it, the card counts on it, and
 * its workloads are placed on it (`test/fixtures/capo-topology-adopted-repo`).
 */
import { seedOpenStackCatalog } from '@gpu-gitops/plugin-gpu-common/src/providers/__testUtils__/openStackFlavors';
import { promises as fs } from 'node:fs';
import { checkoutShape } from '../changes/shapes/__testUtils__/shapeRound';
import { readRepoState } from './readRepoState';
import type { FsRepoTree } from './tree';

describe('readRepoState on a ClusterClass cluster', () => {
  let tree: FsRepoTree;

  beforeAll(async () => {
    tree = await checkoutShape('capo-topology-adopted-repo', 'gpu-topo-');
  });
  afterAll(() => fs.rm(tree.root, { recursive: true, force: true }));

  it('reads the adopted topology entry as a pool in its Cluster’s file, and places its workload on it', async () => {
    const state = await readRepoState(tree, undefined, 'ml-os', {
      catalog: seedOpenStackCatalog,
    });
    expect(
      state.pools.map(p => [p.name, p.path, p.gpuModel, p.sharingMode]),
    ).toEqual([['gpu-t4', 'clusters/ml-os/cluster.yaml', 't4', 'exclusive']]);
    expect(state.pools[0].limitFloor).toBe(2);
    expect(state.pools[0].ledger).toEqual([
      { request: 'ml/embedder', replicas: 2, unitsPerReplica: 1 },
    ]);
    // The CPU entry is a name a new pool must not take, not a pool.
    expect(state.otherNodePools).toContain('md-0');
    expect(
      state.workloads.map(w => [w.id, w.pool, w.replicas, w.placementWarning]),
    ).toEqual([['ml/embedder', 'gpu-t4', 2, undefined]]);
  });
});

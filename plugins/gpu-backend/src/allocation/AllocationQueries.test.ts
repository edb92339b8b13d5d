import {
  mergeCatalog,
  plan,
  type RepoState,
} from '@gpu-gitops/plugin-gpu-common';
import { gpuRequest } from '@gpu-gitops/plugin-gpu-common/src/planner/__testUtils__/fixtures';
import {
  poolStateOf,
  STATIC_RACK_MACHINES,
  staticCluster,
  staticRackCatalog,
} from '@gpu-gitops/plugin-gpu-common/src/providers/__testUtils__/staticRack';
import {
  emptySnapshot,
  type ClusterIndex,
  type IndexSnapshot,
} from '../repoIndex/indexSnapshot';
import {
  staticClusterIndex,
  staticIndexCatalog,
  staticPoolOf,
} from '../__testUtils__/staticClusterIndex';
import { AllocationQueries } from './AllocationQueries';

describe('AllocationQueries', () => {
  it('prices a pool with its cluster’s profile, as the planner does: a by-GPU static pool is every node of its model', () => {
    // A T4 rack node at $1.00 an hour; the inventory has three of them.
    const catalog = mergeCatalog(staticRackCatalog, {
      instanceTypes: STATIC_RACK_MACHINES.instanceTypes.map(t => ({
        ...t,
        onDemandUsdPerHour: t.name === 'rack-t4x2' ? 1 : 0,
      })),
    });
    const cluster = staticCluster('gpu');
    const thePlan = plan(
      gpuRequest({ model: 't4', sharing: 'exclusive', replicas: 1 }),
      catalog,
      cluster,
    );
    const repoState: RepoState = {
      pools: [poolStateOf(thePlan)],
      devicePluginConfigs: {},
      migConfigs: {},
      workloads: [],
    };
    const snapshot = emptySnapshot();
    snapshot.clusters.set(cluster.name, {
      profile: cluster,
      repoState,
      bootstrapped: true,
      kustomizationPath: `clusters/${cluster.name}/gpu/kustomization.yaml`,
    });

    const cost = new AllocationQueries(catalog)
      .context(snapshot)
      .poolCost(cluster.name, thePlan.pool.name)!;

    // The card and the tab show what the pull request showed.
    expect(cost.nodes).toBe(thePlan.cost.pool.nodes);
    expect(cost.nodes).toBe(3);
    expect(cost.capacityUnits).toBe(thePlan.cost.pool.capacityUnits);
    expect(cost.totalCents).toBe(
      Math.round(thePlan.cost.pool.usdPerMonth * 100),
    );
    expect(cost.idleCents).toBe(
      Math.round(thePlan.cost.pool.idleUsdPerMonth * 100),
    );
  });

  describe('pool summaries across snapshots', () => {
    const catalog = staticIndexCatalog;
    /** The next snapshot as a refresh builds it: `changed`'s pools replaced, the other clusters' parts the same objects. */
    const next = (
      previous: IndexSnapshot,
      changed: string,
      pools: ClusterIndex['repoState']['pools'],
    ): IndexSnapshot => {
      const snapshot = {
        ...previous,
        clusters: new Map<string, ClusterIndex>(),
      };
      for (const [name, cluster] of previous.clusters) {
        snapshot.clusters.set(name, {
          ...cluster,
          repoState: {
            ...cluster.repoState,
            ...(name === changed ? { pools } : {}),
          },
        });
      }
      return snapshot;
    };

    it("summarises again only the cluster whose parts changed; the other's summaries stay the same objects", () => {
      const first = emptySnapshot();
      const a = staticClusterIndex('rack-a');
      const b = staticClusterIndex('rack-b');
      first.clusters.set('rack-a', a);
      first.clusters.set('rack-b', b);
      const queries = new AllocationQueries(catalog);
      const before = queries.pools(first);
      expect(before.map(p => p.cluster)).toEqual(['rack-a', 'rack-b']);
      expect(before.map(p => p.allocated)).toEqual([1, 1]);

      // The request on rack-a resized to three GPUs.
      const second = next(first, 'rack-a', [staticPoolOf(a.profile, 3)]);
      const after = queries.pools(second);

      // The changed cluster's pool counts its new size...
      expect(after.find(p => p.cluster === 'rack-a')!.allocated).toBe(3);
      expect(after.find(p => p.cluster === 'rack-a')).not.toBe(before[0]);
      // ...and the other's is the very summary of the snapshot before.
      expect(after.find(p => p.cluster === 'rack-b')).toBe(before[1]);
      // Summarised afresh, the second snapshot's pools are the same.
      expect(new AllocationQueries(catalog).pools(second)).toEqual(after);
    });

    it("summarises every cluster again when the stored requests changed (the consumers' owners)", () => {
      const first = emptySnapshot();
      first.clusters.set('rack-a', staticClusterIndex('rack-a'));
      const queries = new AllocationQueries(catalog);
      const before = queries.pools(first);
      const second = { ...first, requests: new Map(first.requests) };
      expect(queries.pools(second)[0]).not.toBe(before[0]);
      expect(queries.pools(second)).toEqual(before);
    });

    it('prepares a snapshot’s pools ahead in turns of the event loop: the list pools() then gives, unchanged', async () => {
      const snapshot = emptySnapshot();
      snapshot.clusters.set('rack-a', staticClusterIndex('rack-a'));
      snapshot.clusters.set('rack-b', staticClusterIndex('rack-b'));
      const queries = new AllocationQueries(catalog);
      let turns = 0;
      const prepared = await queries.preparePools(snapshot, {
        turn: async () => {
          turns += 1;
        },
      });

      // One turn before each cluster's pool.
      expect(turns).toBe(2);
      expect(queries.pools(snapshot)).toBe(prepared);
      expect(prepared).toEqual(new AllocationQueries(catalog).pools(snapshot));

      // The next snapshot touched rack-a only: rack-b's summary is kept.
      const second = next(snapshot, 'rack-a', [
        staticPoolOf(snapshot.clusters.get('rack-a')!.profile, 3),
      ]);
      turns = 0;
      const again = await queries.preparePools(second, {
        turn: async () => {
          turns += 1;
        },
      });
      expect(turns).toBe(1);
      expect(again!.find(p => p.cluster === 'rack-b')).toBe(prepared![1]);
      expect(again!.find(p => p.cluster === 'rack-a')!.allocated).toBe(3);
    });

    it('gives a preparation up between clusters once it is no longer wanted, and keeps a summary a request made meanwhile', async () => {
      const snapshot = emptySnapshot();
      snapshot.clusters.set('rack-a', staticClusterIndex('rack-a'));
      snapshot.clusters.set('rack-b', staticClusterIndex('rack-b'));
      const queries = new AllocationQueries(catalog);
      let wanted = true;
      let served: ReturnType<AllocationQueries['pools']> | undefined;
      const prepared = await queries.preparePools(snapshot, {
        // A request arrives during rack-a's turn; a newer snapshot lands after it.
        turn: async () => {
          served ??= queries.pools(snapshot);
          wanted = false;
        },
        wanted: () => wanted,
      });

      expect(prepared).toBeUndefined();
      // The summaries the request computed are the ones kept.
      expect(queries.pools(snapshot)).toBe(served);
      const second = next(snapshot, 'rack-b', [
        staticPoolOf(snapshot.clusters.get('rack-b')!.profile, 2),
      ]);
      expect(queries.pools(second).find(p => p.cluster === 'rack-a')).toBe(
        served!.find(p => p.cluster === 'rack-a'),
      );
    });
  });
});

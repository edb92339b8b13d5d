import {
  builtinCatalog,
  resolveClusterProfile,
} from '@gpu-gitops/plugin-gpu-common';
import { IndexStore } from './indexStore';
import { RepoFolders } from './repoFolders';
import { SnapshotBuilder } from './snapshotBuilder';

describe('SnapshotBuilder.build', () => {
  it('gives the event loop a turn between workload folders, and hands out the snapshot whole', async () => {
    const profile = resolveClusterProfile({ name: 'prod' });
    const folders = new RepoFolders(undefined, [profile.name]);
    const store = new IndexStore(folders);
    const count = 40;
    for (let i = 0; i < count; i++) {
      const folder = `apps/ml/app-${i}`;
      store.workloadFolders.set(folder, {
        workloads: [
          {
            id: `ml/app-${i}`,
            namespace: 'ml',
            name: `app-${i}`,
            path: `${folder}/deployment.yaml`,
            pool: 'gpu-t4',
            resourceName: 'nvidia.com/gpu',
            replicas: 1,
            perReplica: 1,
          },
        ],
        objects: [],
        skipped: [],
      });
    }
    const builder = new SnapshotBuilder(
      store,
      folders,
      [profile],
      'prod',
      builtinCatalog,
    );
    let turns = 0;
    const snapshot = await builder.build('rev', async () => {
      turns++;
    });

    // Placing 100k workloads takes seconds: the backend must answer meanwhile.
    expect(turns).toBeGreaterThanOrEqual(count);
    expect(snapshot.workloads.map(w => w.id)).toHaveLength(count);
    expect(snapshot.clusters.get('prod')!.repoState.workloads).toHaveLength(
      count,
    );
  });

  it("gives the event loop a turn for each cluster's pools and each folder's workload objects (20k pools, 100k objects)", async () => {
    const profiles = ['dev', 'prod', 'eu'].map(name =>
      resolveClusterProfile({ name }),
    );
    const folders = new RepoFolders(
      undefined,
      profiles.map(p => p.name),
    );
    const store = new IndexStore(folders);
    const count = 40;
    for (let i = 0; i < count; i++) {
      const folder = `apps/web/app-${i}`;
      store.workloadFolders.set(folder, {
        workloads: [],
        objects: [
          {
            kind: 'Deployment',
            name: `app-${i}`,
            namespace: 'web',
            path: `${folder}/deployment.yaml`,
            containers: ['app'],
            replicas: 1,
          },
        ],
        skipped: [],
      });
    }
    const builder = new SnapshotBuilder(
      store,
      folders,
      profiles,
      'prod',
      builtinCatalog,
    );
    let turns = 0;
    const snapshot = await builder.build('rev', async () => {
      turns++;
    });

    // A turn per folder placing workloads, per folder of objects, per cluster.
    expect(turns).toBeGreaterThanOrEqual(2 * count + profiles.length);
    expect(snapshot.workloadObjectsByName.size).toBe(count);
    expect([...snapshot.clusters.keys()].sort()).toEqual(['dev', 'eu', 'prod']);
  });
});

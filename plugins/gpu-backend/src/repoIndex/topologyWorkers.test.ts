/**
 * A Cluster API cluster whose workers its ClusterClass owns: the adopted GPU
 * entry of its topology is a pool of the index (capacity, consumers, the
 * card and the GPU page), its workload counted on it, although its Cluster
 * and ClusterClass are two files the index parses each on its own (gpu-node
 * `repo/topologyPools.test.ts` reads `test/fixtures/capo-topology-adopted-repo` so).
 */
import { promises as fs } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { resolveClusterProfile } from '@gpu-gitops/plugin-gpu-common';
import { FsRepoTree, readRepoState } from '@gpu-gitops/plugin-gpu-node';
import { seedOpenStackCatalog } from '@gpu-gitops/plugin-gpu-common/src/providers/__testUtils__/openStackFlavors';
import { AllocationQueries } from '../allocation/AllocationQueries';
import {
  createFixtureRemote,
  type FixtureRemote,
} from '../__testUtils__/fixtureRemote';
import { GitFetchSource } from './gitSnapshot';
import { RepoIndex } from './RepoIndex';

jest.setTimeout(60_000);

const FIXTURE = path.resolve(
  __dirname,
  '../../../../test/fixtures/capo-topology-adopted-repo',
);

const cluster = resolveClusterProfile({
  name: 'ml-os',
  provider: 'cluster-api',
  migStrategy: 'single',
  clusterApi: {
    clusterName: 'ml-os',
    namespace: 'default',
    infrastructure: 'openstack',
    kubernetesVersion: 'v1.33.1',
    autoscaler: false,
    openStack: { imageName: 'node-image' },
  },
});

describe('the index reads a managed topology’s adopted GPU worker as a pool', () => {
  let remote: FixtureRemote;
  let cacheDir: string;
  let index: RepoIndex;

  beforeAll(async () => {
    remote = await createFixtureRemote({}, FIXTURE);
    cacheDir = await fs.mkdtemp(path.join(os.tmpdir(), 'gpu-index-cache-'));
    index = new RepoIndex(
      {
        clusters: [cluster],
        defaultCluster: 'ml-os',
        catalog: seedOpenStackCatalog,
      },
      new GitFetchSource({ repoUrl: remote.url, baseBranch: 'main', cacheDir }),
    );
    await index.refresh();
  });

  afterAll(async () => {
    await remote.cleanup();
    await fs.rm(cacheDir, { recursive: true, force: true });
  });

  it('the entry gpu-t4 is a pool in its Cluster’s file, and the team’s Deployment is counted on it', () => {
    const snapshot = index.snapshot();
    expect(
      snapshot.clusters
        .get('ml-os')
        ?.repoState.pools.map(p => [p.name, p.path, p.gpuModel, p.limitFloor]),
    ).toEqual([['gpu-t4', 'clusters/ml-os/cluster.yaml', 't4', 2]]);
    expect(snapshot.workloads.find(w => w.id === 'ml/embedder')).toMatchObject({
      cluster: 'ml-os',
      pool: 'gpu-t4',
    });
    const pool = new AllocationQueries(seedOpenStackCatalog)
      .pools(snapshot)
      .find(p => p.name === 'gpu-t4');
    // 2 replicas × 1 T4, held by the workload.
    expect(pool?.consumers.map(c => [c.id, c.units])).toEqual([
      ['ml/embedder', 2],
    ]);
  });

  it('reads the cluster’s pools as readRepoState reads them', async () => {
    const state = await readRepoState(
      new FsRepoTree(FIXTURE),
      undefined,
      'ml-os',
      {
        catalog: seedOpenStackCatalog,
      },
    );
    expect(index.snapshot().clusters.get('ml-os')?.repoState.pools).toEqual(
      state.pools,
    );
  });
});

import { execFileSync } from 'node:child_process';
import { promises as fs } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import {
  compareStrings,
  builtinCatalog,
  resolveClusterProfile,
} from '@gpu-gitops/plugin-gpu-common';
import {
  createFixtureRemote,
  FIXTURE_REPO,
  PLATFORM_FIXTURE_REPO,
  type FixtureRemote,
} from '../__testUtils__/fixtureRemote';
import { GitFetchSource, type RepoSource } from './gitSnapshot';
import { RepoIndex } from './RepoIndex';

jest.setTimeout(60_000);

const clusters = [
  resolveClusterProfile({ name: 'dev' }),
  resolveClusterProfile({ name: 'prod' }),
];

describe('RepoIndex', () => {
  let remote: FixtureRemote;
  let cacheDir: string;
  let index: RepoIndex;

  beforeEach(async () => {
    remote = await createFixtureRemote();
    cacheDir = await fs.mkdtemp(path.join(os.tmpdir(), 'gpu-index-cache-'));
    const options = {
      clusters,
      defaultCluster: 'dev',
      catalog: builtinCatalog,
    };
    index = new RepoIndex(
      options,
      new GitFetchSource({ repoUrl: remote.url, baseBranch: 'main', cacheDir }),
    );
  });

  afterEach(async () => {
    await remote.cleanup();
    await fs.rm(cacheDir, { recursive: true, force: true });
  });

  async function fixtureText(file: string) {
    return fs.readFile(path.join(FIXTURE_REPO, file), 'utf8');
  }

  it('reads the fixture repository: pools with their config, workloads and stored requests', async () => {
    const result = await index.refresh();
    expect(result.full).toBe(true);
    expect(result.parsedPaths).toEqual(
      expect.arrayContaining([
        'clusters/dev/gpu/nodepools/gpu-t4-ts4.yaml',
        'clusters/dev/gpu/device-plugin/ts-4.yaml',
        'clusters/dev/gpu/mig/config.yaml',
        'apps/ml/chat-assistant/deployment.yaml',
        'requests/ml/chat-assistant.yaml',
      ]),
    );
    // Files outside the index's folders are never read.
    expect(result.parsedPaths.some(p => p.startsWith('argocd/'))).toBe(false);

    const snapshot = index.snapshot();
    expect(snapshot.revision).toBe(result.revision);
    const dev = snapshot.clusters.get('dev')!.repoState;
    expect(dev.pools).toEqual([
      expect.objectContaining({
        name: 'gpu-t4-ts4',
        gpuModel: 't4',
        sharingMode: 'time-slicing',
        slicesPerGpu: 4,
        resourceName: 'nvidia.com/gpu.shared',
        deviceConfigName: 'ts-4',
        limits: { 'nvidia.com/gpu': 2 },
        instanceTypes: ['g4dn.xlarge', 'g4dn.2xlarge'],
      }),
    ]);
    expect(Object.keys(dev.devicePluginConfigs)).toEqual(['ts-4']);
    expect(Object.keys(dev.migConfigs)).toEqual(['all-disabled']);
    expect(snapshot.clusters.get('prod')!.repoState.pools).toEqual([]);

    expect(snapshot.workloads).toEqual([
      expect.objectContaining({
        id: 'ml/chat-assistant',
        cluster: 'dev',
        pool: 'gpu-t4-ts4',
        resourceName: 'nvidia.com/gpu.shared',
        replicas: 2,
        perReplica: 1,
        kubernetesId: 'chat-assistant',
      }),
    ]);
    expect(dev.workloads.map(w => w.id)).toEqual(['ml/chat-assistant']);
    expect(
      snapshot.workloadsByKubernetesId.get('chat-assistant')?.map(w => w.id),
    ).toEqual(['ml/chat-assistant']);
    expect(snapshot.requests.get('ml/chat-assistant')?.request.spec).toEqual(
      expect.objectContaining({ owner: 'group:default/ml-platform' }),
    );
  });

  it('reports each snapshot a refresh lands to its listeners, until they stop listening', async () => {
    const seen: ReturnType<RepoIndex['snapshot']>[] = [];
    const stop = index.onSnapshot(snapshot => seen.push(snapshot));
    await index.refresh();
    expect(seen).toEqual([index.snapshot()]);
    expect(seen[0].revision).toBeDefined();

    // Nothing new on main: no new snapshot.
    await index.refresh();
    expect(seen).toHaveLength(1);

    const deployment = await fixtureText(
      'apps/ml/chat-assistant/deployment.yaml',
    );
    const scaled = (replicas: number) => ({
      'apps/ml/chat-assistant/deployment.yaml': deployment.replace(
        'replicas: 2',
        `replicas: ${replicas}`,
      ),
    });
    await remote.commit(scaled(3), 'scale chat-assistant');
    await index.refresh();
    expect(seen).toHaveLength(2);
    expect(seen[1]).toBe(index.snapshot());
    expect(seen[1].workloads[0].replicas).toBe(3);

    stop();
    await remote.commit(scaled(4), 'scale chat-assistant again');
    await index.refresh();
    expect(index.snapshot().workloads[0].replicas).toBe(4);
    expect(seen).toHaveLength(2);
  });

  it('after one new commit re-reads only the changed workload folder', async () => {
    await index.refresh();
    const deployment = await fixtureText(
      'apps/ml/chat-assistant/deployment.yaml',
    );
    const revision = await remote.commit(
      {
        'apps/ml/chat-assistant/deployment.yaml': deployment.replace(
          'replicas: 2',
          'replicas: 3',
        ),
      },
      'scale chat-assistant',
    );

    const result = await index.refresh();
    expect(result).toEqual({
      revision,
      full: false,
      changedPaths: ['apps/ml/chat-assistant/deployment.yaml'],
      // The workload folder is one unit (a patch must meet its base).
      parsedPaths: [
        'apps/ml/chat-assistant/deployment.yaml',
        'apps/ml/chat-assistant/kustomization.yaml',
        'apps/ml/chat-assistant/service.yaml',
      ],
    });
    expect(index.snapshot().workloads[0].replicas).toBe(3);
    // The untouched pool is still indexed (kept from the earlier parse).
    expect(index.snapshot().clusters.get('dev')!.repoState.pools).toHaveLength(
      1,
    );
  });

  it('after the first fetch keeps the history it saw: later fetches bring only the new commits', async () => {
    const source = new GitFetchSource({
      repoUrl: remote.url,
      baseBranch: 'main',
      cacheDir,
    });
    const first = await source.sync();
    const deployment = await fixtureText(
      'apps/ml/chat-assistant/deployment.yaml',
    );
    const second = await remote.commit(
      {
        'apps/ml/chat-assistant/deployment.yaml': deployment.replace(
          'replicas: 2',
          'replicas: 3',
        ),
      },
      'scale chat-assistant',
    );
    expect((await source.sync()).revision).toBe(second);
    // Depth 1 on every fetch would cut the new tip from its parent (a
    // shallow negotiation and connectivity walk each time): the cache would
    // hold one commit.
    const history = execFileSync('git', ['rev-list', 'refs/heads/main'], {
      cwd: source.gitDir,
      encoding: 'utf8',
    });
    expect(history.trim().split('\n')).toEqual([second, first.revision]);
    const diff = await source.changedBlobs(first.revision, second, ['apps']);
    expect([...diff.changes.keys()]).toEqual([
      'apps/ml/chat-assistant/deployment.yaml',
    ]);
  });

  it('re-parses the pools that use a device-plugin config when that config changes', async () => {
    await index.refresh();
    const config = await fixtureText(
      'clusters/dev/gpu/device-plugin/ts-4.yaml',
    );
    const pool = await fixtureText(
      'clusters/dev/gpu/nodepools/gpu-t4-ts4.yaml',
    );
    await remote.commit(
      {
        'clusters/dev/gpu/device-plugin/ts-4.yaml': config.replace(
          'replicas: 4',
          'replicas: 8',
        ),
        // Without the slices label the reader takes the slices from the config.
        'clusters/dev/gpu/nodepools/gpu-t4-ts4.yaml': pool,
        'clusters/dev/gpu/kustomization.yaml': '# touched\n',
      },
      'eight slices',
    );
    // Only the config changed in git (the pool file is byte-identical).
    const noLabel = pool.replace(
      /\n\s*gpu\.backstage\.io\/slices-per-gpu: '4'/,
      '',
    );
    await remote.commit(
      { 'clusters/dev/gpu/nodepools/gpu-t4-ts4.yaml': noLabel },
      'drop slices label',
    );
    await index.refresh();
    expect(
      index.snapshot().clusters.get('dev')!.repoState.pools[0].slicesPerGpu,
    ).toBe(8);

    const restored = await remote.commit(
      { 'clusters/dev/gpu/device-plugin/ts-4.yaml': config },
      'back to four slices',
    );
    const result = await index.refresh();
    expect(result.revision).toBe(restored);
    expect(result.changedPaths).toEqual([
      'clusters/dev/gpu/device-plugin/ts-4.yaml',
    ]);
    expect(result.parsedPaths).toEqual([
      'clusters/dev/gpu/device-plugin/ts-4.yaml',
      'clusters/dev/gpu/nodepools/gpu-t4-ts4.yaml',
    ]);
    expect(
      index.snapshot().clusters.get('dev')!.repoState.pools[0].slicesPerGpu,
    ).toBe(4);
  });

  it('reads the pools the product adopted anywhere in a cluster folder and hand-written ConfigMaps; a changed key re-parses the pools using it', async () => {
    await index.refresh();
    const configMap = (replicas: number) => `apiVersion: v1
kind: ConfigMap
metadata: {name: nvidia-device-plugin, namespace: kube-system}
data: {team-ts: "version: v1\\nsharing:\\n  timeSlicing:\\n    renameByDefault: true\\n    resources:\\n      - {name: nvidia.com/gpu, replicas: ${replicas}}\\n"}
`;
    await remote.commit(
      {
        // Adopted by the import (pool annotations): read where it lives;
        // without a slices annotation its slices come from its config.
        'clusters/dev/karpenter/gpu-a10g.yaml': `apiVersion: karpenter.sh/v1
kind: NodePool
metadata:
  name: gpu-a10g
  annotations:
    gpu.backstage.io/sharing-mode: time-slicing
    gpu.backstage.io/resource-name: nvidia.com/gpu.shared
    gpu.backstage.io/requests: ""
spec:
  template:
    metadata:
      labels: {nvidia.com/device-plugin.config: team-ts}
    spec:
      requirements:
        - {key: node.kubernetes.io/instance-type, operator: In, values: [g5.xlarge]}
  limits: {nvidia.com/gpu: "2"}
---
# Written by hand, never adopted: only a name.
apiVersion: karpenter.sh/v1
kind: NodePool
metadata: {name: gpu-research}
spec:
  limits: {nvidia.com/gpu: "1"}
`,
        'clusters/dev/gpu-operator/device-plugin.yaml': configMap(2),
      },
      'adopted pool and the team ConfigMap',
    );
    await index.refresh();
    const dev = () => index.snapshot().clusters.get('dev')!.repoState;
    expect(dev().pools.map(p => [p.name, p.path, p.slicesPerGpu])).toEqual([
      ['gpu-a10g', 'clusters/dev/karpenter/gpu-a10g.yaml', 2],
      ['gpu-t4-ts4', 'clusters/dev/gpu/nodepools/gpu-t4-ts4.yaml', 4],
    ]);
    expect(dev().otherNodePools).toEqual(['default', 'gpu-research']);
    expect(dev().handWrittenConfigMaps).toEqual([
      {
        name: 'nvidia-device-plugin',
        namespace: 'kube-system',
        path: 'clusters/dev/gpu-operator/device-plugin.yaml',
        devicePluginConfigs: { 'team-ts': expect.any(Object) },
        migConfigs: {},
      },
    ]);
    expect(Object.keys(dev().devicePluginConfigs).sort()).toEqual([
      'team-ts',
      'ts-4',
    ]);

    await remote.commit(
      { 'clusters/dev/gpu-operator/device-plugin.yaml': configMap(3) },
      'three slices',
    );
    const result = await index.refresh();
    // The ConfigMap's name is the device-plugin chart's: what the GPU nodes
    // run is read again, from the few files that name a chart (no NodePool:
    // its nodeClassRef's `kind: EC2NodeClass` decides nothing of the stack).
    expect(result.parsedPaths).toEqual([
      'clusters/dev/gpu-operator/device-plugin.yaml',
      'clusters/dev/karpenter/gpu-a10g.yaml',
      'clusters/dev/gpu/kustomization.yaml',
    ]);
    expect(dev().pools[0].slicesPerGpu).toBe(3);

    // A file of the cluster folder that cannot hold a pool or a ConfigMap of
    // NVIDIA configs is read, never parsed, and changes no pool.
    await remote.commit(
      { 'clusters/dev/apps/broken.yaml': 'kind: Deployment\nspec: [\n' },
      'an app',
    );
    const app = await index.refresh();
    expect(app.parsedPaths).toEqual(['clusters/dev/apps/broken.yaml']);
    expect(index.snapshot().skipped.map(s => s.path)).not.toContain(
      'clusters/dev/apps/broken.yaml',
    );
  });

  it('drops deleted workloads and reads nothing when the branch did not move', async () => {
    await index.refresh();
    await remote.commit(
      {
        'apps/ml/chat-assistant/deployment.yaml': null,
        'apps/ml/chat-assistant/kustomization.yaml': null,
        'apps/ml/chat-assistant/service.yaml': null,
        'requests/ml/chat-assistant.yaml': null,
      },
      'remove chat-assistant',
    );
    const result = await index.refresh();
    expect(result.parsedPaths).toEqual([]);
    expect(index.snapshot().workloads).toEqual([]);
    expect(index.snapshot().requests.size).toBe(0);

    const again = await index.refresh();
    expect(again).toEqual({
      revision: result.revision,
      full: false,
      changedPaths: [],
      parsedPaths: [],
    });
  });

  it('indexes GPU Jobs and CronJobs as it does Deployments, placed on the pool they use', async () => {
    await index.refresh();
    await remote.commit(
      {
        'apps/ml/nightly-train/job.yaml': `apiVersion: batch/v1
kind: Job
metadata:
  name: nightly-train
spec:
  parallelism: 3
  template:
    metadata:
      labels: { backstage.io/kubernetes-id: nightly-train }
    spec:
      restartPolicy: Never
      tolerations: [{ key: nvidia.com/gpu, operator: Exists, effect: NoSchedule }]
      containers:
        - name: train
          image: trainer:1
          resources: { limits: { nvidia.com/gpu.shared: 2 } }
`,
        'apps/batch/embed/cronjob.yaml': `apiVersion: batch/v1
kind: CronJob
metadata:
  name: embed
spec:
  schedule: "0 3 * * *"
  jobTemplate:
    spec:
      template:
        spec:
          nodeSelector: { karpenter.sh/nodepool: gpu-t4-ts4 }
          tolerations: [{ key: nvidia.com/gpu, operator: Exists, effect: NoSchedule }]
          restartPolicy: OnFailure
          containers:
            - name: embed
              image: embed:1
              resources: { limits: { nvidia.com/gpu.shared: 1 } }
`,
      },
      'GPU batch workloads',
    );
    const result = await index.refresh();
    expect(result.full).toBe(false);
    const snapshot = index.snapshot();
    expect(
      snapshot.workloads.map(w => [
        w.id,
        w.cluster,
        w.pool,
        w.replicas,
        w.perReplica,
      ]),
    ).toEqual([
      // Its node selector names the pool; a CronJob's Job runs one pod.
      ['batch/embed', 'dev', 'gpu-t4-ts4', 1, 1],
      ['ml/chat-assistant', 'dev', 'gpu-t4-ts4', 2, 1],
      // No selector: the one pool serving its shared resource name; parallelism 3.
      ['ml/nightly-train', 'dev', 'gpu-t4-ts4', 3, 2],
    ]);
    expect(
      snapshot.clusters.get('dev')!.repoState.workloads.map(w => w.id),
    ).toEqual(['batch/embed', 'ml/chat-assistant', 'ml/nightly-train']);
    expect(
      snapshot.workloadsByKubernetesId.get('nightly-train')?.map(w => w.id),
    ).toEqual(['ml/nightly-train']);
  });

  it('reports files it cannot use instead of failing', async () => {
    await index.refresh();
    await remote.commit(
      {
        'requests/ml/broken.yaml': 'kind: GpuRequest\nspec: [',
        'apps/ml/broken/deployment.yaml': 'kind: Deployment\nmetadata: {',
      },
      'broken files',
    );
    await index.refresh();
    expect(index.snapshot().skipped.map(s => s.path)).toEqual([
      'apps/ml/broken/deployment.yaml',
      'requests/ml/broken.yaml',
    ]);
    expect(index.snapshot().workloads.map(w => w.id)).toEqual([
      'ml/chat-assistant',
    ]);
  });

  it('reports symbolic links where it reads as skipped files, never reading through them', async () => {
    await index.refresh();
    const pool = 'clusters/dev/gpu/nodepools/gpu-t4-ts4.yaml';
    const outside = path.join(remote.root, 'outside.yaml');
    await fs.writeFile(outside, await fixtureText(pool));
    await remote.commit(
      {
        // A pool file replaced by a link: its pool must disappear, not be read from outside.
        [pool]: { symlink: outside },
        'apps/ml/linked/deployment.yaml': { symlink: '../../../README.md' },
        'requests/ml/linked.yaml': { symlink: '/etc/passwd' },
        'docs/elsewhere.md': { symlink: outside },
      },
      'symbolic links',
    );
    const result = await index.refresh();
    expect(result.full).toBe(false);
    const skipped = index.snapshot().skipped;
    expect(skipped.map(s => s.path)).toEqual([
      'apps/ml/linked/deployment.yaml',
      pool,
      'requests/ml/linked.yaml',
    ]);
    expect(skipped.every(s => /symbolic link/.test(s.reason))).toBe(true);
    expect(result.parsedPaths).not.toContain(pool);
    const pools = index.snapshot().clusters.get('dev')!.repoState.pools;
    expect(pools.map(p => p.path)).not.toContain(pool);

    // A fresh (full) index of the same commit says the same.
    const freshCache = await fs.mkdtemp(
      path.join(os.tmpdir(), 'gpu-index-fresh-'),
    );
    try {
      const fresh = new RepoIndex(
        { clusters, defaultCluster: 'dev', catalog: builtinCatalog },
        new GitFetchSource({
          repoUrl: remote.url,
          baseBranch: 'main',
          cacheDir: freshCache,
        }),
      );
      await fresh.refresh();
      expect(fresh.snapshot().skipped).toEqual(skipped);
    } finally {
      await fs.rm(freshCache, { recursive: true, force: true });
    }

    // The links replaced by files again: read, and no longer skipped.
    await remote.commit(
      {
        [pool]: await fixtureText(pool),
        'apps/ml/linked/deployment.yaml': null,
        'requests/ml/linked.yaml': null,
      },
      'files again',
    );
    await index.refresh();
    expect(index.snapshot().skipped).toEqual([]);
    expect(
      index
        .snapshot()
        .clusters.get('dev')!
        .repoState.pools.map(p => p.path),
    ).toContain(pool);
  });

  it('after a series of commits holds exactly what a fresh index of the same commit holds', async () => {
    await index.refresh();
    const deployment = await fixtureText(
      'apps/ml/chat-assistant/deployment.yaml',
    );
    const request = await fixtureText('requests/ml/chat-assistant.yaml');
    const copy = (name: string, replicas: number) =>
      deployment
        .replace(/chat-assistant/g, name)
        .replace('replicas: 2', `replicas: ${replicas}`);
    await remote.commit(
      {
        'apps/ml/translator/deployment.yaml': copy('translator', 1),
        'requests/ml/translator.yaml': request.replace(
          /chat-assistant/g,
          'translator',
        ),
      },
      'add translator',
    );
    expect((await index.refresh()).full).toBe(false);
    await remote.commit(
      {
        'apps/ml/translator/deployment.yaml': copy('translator', 4),
        'apps/web/ocr/deployment.yaml': copy('ocr', 2).replace(
          'namespace: ml',
          'namespace: web',
        ),
        'apps/ml/chat-assistant/deployment.yaml': null,
      },
      'scale translator, add ocr, drop chat-assistant',
    );
    const last = await index.refresh();
    expect(last.full).toBe(false);

    const freshCache = await fs.mkdtemp(
      path.join(os.tmpdir(), 'gpu-index-fresh-'),
    );
    try {
      const fresh = new RepoIndex(
        { clusters, defaultCluster: 'dev', catalog: builtinCatalog },
        new GitFetchSource({
          repoUrl: remote.url,
          baseBranch: 'main',
          cacheDir: freshCache,
        }),
      );
      const full = await fresh.refresh();
      expect(full.full).toBe(true);
      expect(full.revision).toBe(last.revision);
      const a = index.snapshot();
      const b = fresh.snapshot();
      expect(a.workloads).toEqual(b.workloads);
      expect(a.workloadObjectsByName).toEqual(b.workloadObjectsByName);
      expect(a.workloads.map(w => [w.id, w.replicas])).toEqual([
        ['ml/translator', 4],
        ['web/ocr', 2],
      ]);
      expect([...a.workloadsByKubernetesId]).toEqual([
        ...b.workloadsByKubernetesId,
      ]);
      expect([...a.clusters.keys()]).toEqual([...b.clusters.keys()]);
      for (const name of a.clusters.keys()) {
        expect(a.clusters.get(name)!.repoState).toEqual(
          b.clusters.get(name)!.repoState,
        );
      }
      expect([...a.requests]).toEqual([...b.requests]);
      expect(a.skipped).toEqual(b.skipped);
    } finally {
      await fs.rm(freshCache, { recursive: true, force: true });
    }
  });

  it('reads and parses the workload folders a batch at a time, and knows what an index reading them at once knows', async () => {
    const git = new GitFetchSource({
      repoUrl: remote.url,
      baseBranch: 'main',
      cacheDir: path.join(cacheDir, 'batched'),
    });
    const reads: string[][] = [];
    const recording: RepoSource = {
      sync: () => git.sync(),
      listBlobs: (revision, folders) => git.listBlobs(revision, folders),
      changedBlobs: (from, to, folders) => git.changedBlobs(from, to, folders),
      readBlobs: shas => {
        reads.push(shas);
        return git.readBlobs(shas);
      },
    };
    const batched = new RepoIndex(
      {
        clusters,
        defaultCluster: 'dev',
        catalog: builtinCatalog,
        workloadFoldersPerRead: 1,
      },
      recording,
    );
    const [one, all] = [await batched.refresh(), await index.refresh()];
    expect(one.parsedPaths).toEqual(all.parsedPaths);
    const a = batched.snapshot();
    const b = index.snapshot();
    expect(a.workloads).toEqual(b.workloads);
    expect(a.workloadObjectsByName).toEqual(b.workloadObjectsByName);
    expect(a.skipped).toEqual(b.skipped);

    // Each workload's Deployment blob names its folder (their texts differ).
    const deployments = new Map(
      execFileSync('git', ['-C', remote.url, 'ls-tree', '-r', 'main', 'apps'], {
        encoding: 'utf8',
      })
        .split('\n')
        .filter(line => line.endsWith('/deployment.yaml'))
        .map(line => {
          const [meta, file] = line.split('\t');
          return [meta.split(' ')[2], path.posix.dirname(file)] as const;
        }),
    );
    expect(new Set(deployments.values()).size).toBeGreaterThan(1);
    const foldersPerRead = reads
      .map(shas => new Set(shas.flatMap(s => deployments.get(s) ?? [])).size)
      .filter(n => n > 0);
    // One read per folder, each holding that folder alone.
    expect(foldersPerRead).toEqual([...deployments.values()].map(() => 1));
  });

  it("asks git for the next batch's blobs before parsing this one, so git reads while the index parses", async () => {
    const git = new GitFetchSource({
      repoUrl: remote.url,
      baseBranch: 'main',
      cacheDir: path.join(cacheDir, 'pipelined'),
    });
    let inFlight = 0;
    let mostInFlight = 0;
    const counting: RepoSource = {
      sync: () => git.sync(),
      listBlobs: (revision, folders) => git.listBlobs(revision, folders),
      changedBlobs: (from, to, folders) => git.changedBlobs(from, to, folders),
      readBlobs: async shas => {
        inFlight++;
        mostInFlight = Math.max(mostInFlight, inFlight);
        try {
          return await git.readBlobs(shas);
        } finally {
          inFlight--;
        }
      },
    };
    const pipelined = new RepoIndex(
      {
        clusters,
        defaultCluster: 'dev',
        catalog: builtinCatalog,
        workloadFoldersPerRead: 1,
      },
      counting,
    );
    await pipelined.refresh();
    await index.refresh();
    expect(mostInFlight).toBe(2);
    expect(pipelined.snapshot().workloads).toEqual(index.snapshot().workloads);
  });

  it('a restarted index loads the saved parse results and re-reads only files changed since', async () => {
    const stateFile = path.join(cacheDir, 'index-state.json');
    const source = () =>
      new GitFetchSource({ repoUrl: remote.url, baseBranch: 'main', cacheDir });
    const options = {
      clusters,
      defaultCluster: 'dev',
      catalog: builtinCatalog,
    };
    const first = new RepoIndex({ ...options, stateFile }, source());
    expect((await first.refresh()).full).toBe(true);
    await first.whenSaved();

    const deployment = await fixtureText(
      'apps/ml/chat-assistant/deployment.yaml',
    );
    await remote.commit(
      {
        'apps/ml/chat-assistant/deployment.yaml': deployment.replace(
          'replicas: 2',
          'replicas: 6',
        ),
      },
      'scale while the backend was down',
    );

    const restarted = new RepoIndex({ ...options, stateFile }, source());
    const result = await restarted.refresh();
    expect(result.restored).toBe(true);
    expect(result.full).toBe(false);
    expect(result.parsedPaths).toEqual([
      'apps/ml/chat-assistant/deployment.yaml',
      'apps/ml/chat-assistant/kustomization.yaml',
      'apps/ml/chat-assistant/service.yaml',
    ]);
    const fresh = new RepoIndex(options, source());
    await fresh.refresh();
    expect(restarted.snapshot().workloads).toEqual(fresh.snapshot().workloads);
    expect(restarted.snapshot().workloads[0].replicas).toBe(6);
    expect(restarted.snapshot().clusters.get('dev')!.repoState).toEqual(
      fresh.snapshot().clusters.get('dev')!.repoState,
    );
    expect([...restarted.snapshot().requests]).toEqual([
      ...fresh.snapshot().requests,
    ]);
    expect([...restarted.snapshot().workloadObjectsByName]).toEqual([
      ...fresh.snapshot().workloadObjectsByName,
    ]);

    // Saved with other settings (here: other clusters): not trusted.
    const other = new RepoIndex(
      { ...options, clusters: [clusters[0]], stateFile },
      source(),
    );
    const otherResult = await other.refresh();
    expect(otherResult.restored).toBeUndefined();
    expect(otherResult.full).toBe(true);
  });

  it("reads what each cluster's GPU nodes run, and reads it again when a file it depends on changes (a values file the release names), not on a workload commit", async () => {
    const kustomization = 'clusters/dev/gpu-operator/kustomization.yaml';
    const values = 'clusters/dev/gpu-operator/values.yaml';
    const nodeClass = 'clusters/dev/karpenter/ec2nodeclass.yaml';
    await remote.commit(
      {
        [kustomization]: [
          'apiVersion: kustomize.config.k8s.io/v1beta1',
          'kind: Kustomization',
          'helmCharts:',
          '  - name: gpu-operator',
          '    repo: https://helm.ngc.nvidia.com/nvidia',
          '    version: v26.7.0',
          '    releaseName: gpu-operator',
          '    namespace: gpu-operator',
          '    valuesFile: values.yaml',
          '',
        ].join('\n'),
        [values]: 'migManager:\n  enabled: false\n',
      },
      'GPU Operator without its MIG manager',
    );
    await index.refresh();
    const stack = (cluster: string) =>
      index.snapshot().clusters.get(cluster)!.repoState.gpuStack;
    // The operator's own device plugin serves the GPU nodes.
    const operatorPlugin = {
      devicePlugins: [
        {
          kind: 'gpu-operator',
          readsNamedConfigs: true,
          // The operator's plugin runs where it labels GPU nodes to run it.
          placement: expect.objectContaining({
            nodeSelector: { 'nvidia.com/gpu.deploy.device-plugin': 'true' },
          }),
          file: kustomization,
          setting: expect.stringContaining("the GPU Operator's device plugin"),
        },
      ],
    };
    expect(stack('dev')).toEqual({
      migManagerOff: {
        file: kustomization,
        setting: expect.stringContaining('`migManager.enabled: false` in'),
      },
      ...operatorPlugin,
    });
    expect(stack('dev')!.migManagerOff!.setting).toContain(values);
    // prod's folder holds no release: its own stack.
    expect(stack('prod')).toEqual({});

    // Only the values file changes (it names no chart): the stack is read again.
    const on = await index.refresh().then(() =>
      remote.commit(
        {
          [values]:
            'migManager:\n  enabled: true\n  config: {name: custom-mig-parted-config}\n',
        },
        'MIG on',
      ),
    );
    const result = await index.refresh();
    expect(result.revision).toBe(on);
    expect(result.parsedPaths).toContain(values);
    expect(stack('dev')).toEqual(operatorPlugin);

    // A workload commit does not read the stack again.
    const deployment = await fixtureText(
      'apps/ml/chat-assistant/deployment.yaml',
    );
    await remote.commit(
      {
        'apps/ml/chat-assistant/deployment.yaml': deployment.replace(
          'replicas: 2',
          'replicas: 3',
        ),
      },
      'scale',
    );
    const scaled = await index.refresh();
    expect(scaled.parsedPaths).not.toContain(kustomization);
    expect(scaled.parsedPaths).not.toContain(values);

    // A new file naming a Bottlerocket node class of the GPU pools: read.
    await remote.commit(
      {
        [nodeClass]: [
          'apiVersion: karpenter.k8s.aws/v1',
          'kind: EC2NodeClass',
          'metadata:',
          '  name: gpu',
          'spec:',
          '  amiSelectorTerms:',
          '    - alias: bottlerocket@latest',
          '',
        ].join('\n'),
      },
      'Bottlerocket GPU nodes',
    );
    await index.refresh();
    expect(stack('dev')!.devicePlugin).toMatchObject({
      kind: 'bottlerocket',
      file: nodeClass,
    });
    // The same answer as a fresh index of the same commit.
    const fresh = new RepoIndex(
      { clusters, defaultCluster: 'dev', catalog: builtinCatalog },
      new GitFetchSource({ repoUrl: remote.url, baseBranch: 'main', cacheDir }),
    );
    await fresh.refresh();
    expect(fresh.snapshot().clusters.get('dev')!.repoState.gpuStack).toEqual(
      stack('dev'),
    );
  });

  it('keeps serving the last snapshot when the remote cannot be fetched', async () => {
    const { revision } = await index.refresh();
    await fs.rm(remote.url, { recursive: true, force: true });
    await expect(index.refresh()).rejects.toThrow(/git fetch failed/);
    expect(index.snapshot().revision).toBe(revision);
    expect(index.snapshot().workloads.map(w => w.id)).toEqual([
      'ml/chat-assistant',
    ]);
  });
});

describe('RepoIndex of a platform repository (every workload, GPU or not)', () => {
  const prodEu = [resolveClusterProfile({ name: 'prod-eu' })];
  let remote: FixtureRemote;
  let cacheDir: string;

  const indexOf = (dir: string) =>
    new RepoIndex(
      { clusters: prodEu, defaultCluster: 'prod-eu', catalog: builtinCatalog },
      new GitFetchSource({
        repoUrl: remote.url,
        baseBranch: 'main',
        cacheDir: dir,
      }),
    );

  /** Every workload object as [namespace, kind, name, containers, replicas]. */
  const listed = (index: RepoIndex) =>
    [...index.snapshot().workloadObjectsByName.values()]
      .flat()
      .map(w => [
        w.namespace,
        w.kind,
        w.name,
        w.containers.join(','),
        w.replicas,
      ])
      .sort((a, b) => compareStrings(a.join(' '), b.join(' ')));

  beforeEach(async () => {
    remote = await createFixtureRemote({}, PLATFORM_FIXTURE_REPO);
    cacheDir = await fs.mkdtemp(path.join(os.tmpdir(), 'gpu-index-cache-'));
  });

  afterEach(async () => {
    await remote.cleanup();
    await fs.rm(cacheDir, { recursive: true, force: true });
  });

  it('knows every Deployment, StatefulSet, Job and CronJob of the workload folders with its containers and replicas', async () => {
    const index = indexOf(cacheDir);
    await index.refresh();
    expect(listed(index)).toEqual([
      ['batch', 'CronJob', 'embeddings-refresh', 'embed', 1],
      ['batch', 'Job', 'train-nightly', 'trainer', 2],
      ['ml', 'Deployment', 'chat-assistant', 'chat-assistant', 2],
      // The model server second, behind its proxy, as written.
      ['ml', 'Deployment', 'llm-chat', 'oauth-proxy,vllm,log-shipper', 1],
      // The Kustomize base as its prod-eu overlay deploys it (3 replicas)…
      ['ml', 'Deployment', 'recommender', 'api,metrics-exporter', 3],
      ['ml', 'StatefulSet', 'vector-db', 'db,backup-agent', 2],
      // …and as its staging overlay does.
      ['ml-staging', 'Deployment', 'recommender', 'api,metrics-exporter', 1],
      ['tools', 'Deployment', 'notebook', 'jupyter', 1],
      ['web', 'Deployment', 'storefront', 'web', 4],
    ]);
    expect(
      index.snapshot().workloadObjectsByName.get('recommender')![0],
    ).toEqual({
      kind: 'Deployment',
      name: 'recommender',
      namespace: 'ml',
      path: 'apps/ml/recommender/base/deployment.yaml',
      containers: ['api', 'metrics-exporter'],
      replicas: 3,
      overlay: 'apps/ml/recommender/overlays/prod-eu',
    });
    // The GPU workloads (allocation, pools) are still only the GPU ones.
    expect(index.snapshot().workloads.map(w => w.id)).toEqual([
      'ml/chat-assistant',
    ]);
  });

  it('a refresh re-reads only the changed folder: a changed container list, a removed Job', async () => {
    const index = indexOf(cacheDir);
    await index.refresh();
    const before = index.snapshot().workloadObjectsByName;
    const base = await fs.readFile(
      path.join(
        PLATFORM_FIXTURE_REPO,
        'apps/ml/recommender/base/deployment.yaml',
      ),
      'utf8',
    );
    await remote.commit(
      {
        // The sidecar renamed: the form must offer the new name.
        'apps/ml/recommender/base/deployment.yaml': base.replace(
          'name: metrics-exporter',
          'name: otel-collector',
        ),
        'apps/batch/train-nightly/job.yaml': null,
        'apps/batch/train-nightly/kustomization.yaml': null,
      },
      'rename the sidecar, drop the nightly training',
    );
    const result = await index.refresh();
    expect(result.full).toBe(false);
    expect(
      result.parsedPaths.every(p => p.startsWith('apps/ml/recommender/')),
    ).toBe(true);
    const after = index.snapshot().workloadObjectsByName;
    expect(after.get('recommender')!.map(w => w.containers)).toEqual([
      ['api', 'otel-collector'],
      ['api', 'otel-collector'],
    ]);
    expect(after.has('train-nightly')).toBe(false);
    // Names whose folders did not change keep their entries as they were.
    expect(after.get('vector-db')).toBe(before.get('vector-db'));

    // Exactly what a fresh index of the same commit holds.
    const freshCache = await fs.mkdtemp(
      path.join(os.tmpdir(), 'gpu-index-fresh-'),
    );
    try {
      const fresh = indexOf(freshCache);
      expect((await fresh.refresh()).full).toBe(true);
      expect(after).toEqual(fresh.snapshot().workloadObjectsByName);
    } finally {
      await fs.rm(freshCache, { recursive: true, force: true });
    }
  });
});

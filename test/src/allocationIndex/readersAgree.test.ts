/**
 * The allocation index (gpu-backend `RepoIndex`) and the whole-tree reader
 * (gpu-node `readRepoState`) read a GitOps repository alike: the request
 * form's preview and the GPU card are planned on the index, the pull request
 * on `readRepoState`. Here on the trees an import and a request leave behind:
 * pools adopted where they live in the cluster's folder, and the configs of
 * ConfigMaps written by hand.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import {
  builtinCatalog,
  defaultClusterProfile,
  parseGpuRequest,
  plan,
  type ClusterProfile,
  type GpuRequest,
  type RepoState,
} from '@gpu-gitops/plugin-gpu-common';
import {
  buildRequestChange,
  FsRepoTree,
  readRepoState,
  writeChangeSet,
} from '@gpu-gitops/plugin-gpu-node';
import { buildImportChange } from '@gpu-gitops/plugin-gpu-node/onboarding';
import {
  importFixtureRepoFiles,
  type ImportFixtureShape,
} from '@gpu-gitops/plugin-gpu-node/testUtils';
import { GitFetchSource, RepoIndex } from '@gpu-gitops/plugin-gpu-backend';
import { removeTempDirs, seedBareRepo, tempDir } from '../gitopsFixtures';

jest.setTimeout(120_000);
afterAll(removeTempDirs);

const OWNER = 'group:default/ml-platform';

function request(name: string, gpu: Record<string, unknown>): GpuRequest {
  return parseGpuRequest({
    apiVersion: 'gpu.backstage.io/v1alpha1',
    kind: 'GpuRequest',
    metadata: { name, namespace: 'ml' },
    spec: {
      owner: OWNER,
      gpu,
      workload: { image: `ghcr.io/acme/${name}:1.0` },
      capacityTypes: ['on-demand'],
    },
  });
}

/** A fixture written to a temp folder, imported, with `extra` files and one request applied. */
async function importedAndRequested(
  shape: ImportFixtureShape,
  cluster: ClusterProfile,
  extra: (tree: FsRepoTree) => Promise<void>,
  gpuRequest: GpuRequest,
): Promise<FsRepoTree> {
  const dir = path.join(tempDir(), 'repo');
  for (const [file, text] of Object.entries(importFixtureRepoFiles(shape))) {
    mkdirSync(path.dirname(path.join(dir, file)), { recursive: true });
    writeFileSync(path.join(dir, file), text);
  }
  const tree = new FsRepoTree(dir);
  const imported = await buildImportChange({
    tree,
    dir,
    cluster,
    catalog: builtinCatalog,
    owner: OWNER,
  });
  await writeChangeSet(tree, imported.changeSet);
  await extra(tree);
  const change = await buildRequestChange({
    tree,
    dir,
    request: gpuRequest,
    cluster,
    catalog: builtinCatalog,
  });
  await writeChangeSet(tree, change.changeSet);
  return tree;
}

/** The cluster's state as the allocation index reads the tree, committed to a bare remote. */
async function indexed(
  tree: FsRepoTree,
  cluster: ClusterProfile,
): Promise<RepoState> {
  const index = new RepoIndex(
    {
      clusters: [cluster],
      defaultCluster: cluster.name,
      catalog: builtinCatalog,
    },
    new GitFetchSource({
      repoUrl: await seedBareRepo(tree.root),
      baseBranch: 'main',
      cacheDir: tempDir('gpu-index-cache-'),
    }),
  );
  await index.refresh();
  return index.snapshot().clusters.get(cluster.name)!.repoState;
}

async function expectSameState(tree: FsRepoTree, cluster: ClusterProfile) {
  const read = await readRepoState(tree, undefined, cluster.name, {
    profile: cluster,
  });
  const index = await indexed(tree, cluster);
  // What the GPU nodes run: the form's and the pull request's refusals agree.
  expect(index.gpuStack).toEqual(read.gpuStack);
  expect(index.pools).toEqual(read.pools);
  expect(index.devicePluginConfigs).toEqual(read.devicePluginConfigs);
  expect(index.migConfigs).toEqual(read.migConfigs);
  expect(index.otherNodePools).toEqual(read.otherNodePools);
  expect(index.handWrittenConfigMaps).toEqual(read.handWrittenConfigMaps);
  const placed = (state: RepoState) =>
    state.workloads.map(w => [w.id, w.pool, w.resourceName, w.replicas]);
  expect(placed(index)).toEqual(placed(read));
  return { read, index };
}

describe('the allocation index reads an imported repository as readRepoState does', () => {
  it('v0.31 setup: the adopted time-sliced pool where it lives, its hand-written key, and the plan a preview would make', async () => {
    const legacy: ClusterProfile = {
      ...defaultClusterProfile,
      name: 'legacy',
      nodeClass: { ...defaultClusterProfile.nodeClass },
      devicePluginConfigMap: {
        name: 'nvidia-device-plugin',
        namespace: 'kube-system',
      },
    };
    const tree = await importedAndRequested(
      'v1alpha5-repo',
      legacy,
      async t => {
        // The GPU folder requests need (no generator: the device plugin
        // reads the team's ConfigMap).
        await t.writeFile(
          'clusters/legacy/gpu/kustomization.yaml',
          'apiVersion: kustomize.config.k8s.io/v1beta1\nkind: Kustomization\nresources: []\n',
        );
        const root = 'clusters/legacy/kustomization.yaml';
        await t.writeFile(
          root,
          `${(await t.readFile(root))!.trimEnd()}\n  - gpu\n`,
        );
      },
      request('summarizer', {
        model: 't4',
        sharing: 'time-slicing',
        replicas: 1,
        vramGiB: 3,
      }),
    );
    const { index, read } = await expectSameState(tree, legacy);
    expect(index.pools.find(p => p.name === 'gpu-t4')).toMatchObject({
      path: 'clusters/legacy/karpenter/provisioners.yaml',
      gpuModel: 't4',
      sharingMode: 'time-slicing',
      slicesPerGpu: 4,
      resourceName: 'nvidia.com/gpu.shared',
      deviceConfigName: 't4-ts-4',
      limits: { cpu: 64, 'nvidia.com/gpu': 4 },
      ledger: [
        { request: 'ml/chat', replicas: 3, unitsPerReplica: 1 },
        { request: 'ml/summarizer', replicas: 1, unitsPerReplica: 1 },
      ],
    });
    // The preview (planned on the index) and the pull request (planned on
    // readRepoState) make the same plan.
    const next = request('tagger', {
      model: 't4',
      sharing: 'time-slicing',
      replicas: 1,
      vramGiB: 3,
    });
    const onIndex = plan(next, builtinCatalog, legacy, index);
    const onTree = plan(next, builtinCatalog, legacy, read);
    expect(onIndex.pool).toEqual(onTree.pool);
    expect(onIndex.sharing).toEqual(onTree.sharing);
    expect(onIndex.pool.name).toBe('gpu-t4');
    expect(onIndex.sharing.deviceConfigName).toBe('t4-ts-4');
  });

  it('v0.37 setup beside the GPU Operator’s own ConfigMaps: the adopted MIG pool and its hand-written mig-parted entry', async () => {
    const edge: ClusterProfile = {
      ...defaultClusterProfile,
      name: 'edge',
      nodeClass: { ...defaultClusterProfile.nodeClass },
      devicePluginConfigMap: {
        name: 'device-plugin-config',
        namespace: 'gpu-operator',
      },
      migPartedConfigMap: {
        name: 'mig-parted-config',
        namespace: 'gpu-operator',
      },
    };
    const tree = await importedAndRequested(
      'operator-configmaps-repo',
      edge,
      async () => undefined,
      request('segmenter', {
        model: 'a100-80gb',
        sharing: 'mig',
        replicas: 1,
        vramGiB: 30,
      }),
    );
    const { index } = await expectSameState(tree, edge);
    expect(index.pools).toEqual([
      expect.objectContaining({
        name: 'gpu-a100-mig',
        path: 'clusters/edge/nodepools/a100-mig.yaml',
        gpuModel: 'a100-80gb',
        sharingMode: 'mig',
        migProfile: '3g.40gb',
        migConfigName: 'all-3g.40gb',
        resourceName: 'nvidia.com/mig-3g.40gb',
        limits: { 'nvidia.com/gpu': 8 },
      }),
    ]);
  });

  it('a GPU Operator without its MIG manager and Bottlerocket GPU nodes: the same stack, and the preview refuses MIG as the pull request does', async () => {
    const edge: ClusterProfile = {
      ...defaultClusterProfile,
      name: 'edge',
      nodeClass: {
        ...defaultClusterProfile.nodeClass,
        name: 'gpu-bottlerocket',
      },
      devicePluginConfigMap: {
        name: 'device-plugin-config',
        namespace: 'gpu-operator',
      },
      migPartedConfigMap: {
        name: 'mig-parted-config',
        namespace: 'gpu-operator',
      },
    };
    const tree = await importedAndRequested(
      'operator-configmaps-repo',
      edge,
      async () => undefined,
      request('segmenter', {
        model: 'a100-80gb',
        sharing: 'mig',
        replicas: 1,
        vramGiB: 30,
      }),
    );
    // After the request: the team turned the MIG manager off, and the GPU
    // nodes moved to Bottlerocket.
    await tree.writeFile(
      'clusters/edge/infrastructure/gpu-operator.yaml',
      [
        'apiVersion: helm.toolkit.fluxcd.io/v2',
        'kind: HelmRelease',
        'metadata: {name: gpu-operator, namespace: gpu-operator}',
        'spec:',
        '  chart:',
        '    spec: {chart: gpu-operator, sourceRef: {kind: HelmRepository, name: nvidia}}',
        '  valuesFrom:',
        '    - {kind: ConfigMap, name: gpu-operator-values}',
        '---',
        'apiVersion: v1',
        'kind: ConfigMap',
        'metadata: {name: gpu-operator-values, namespace: gpu-operator}',
        'data:',
        '  values.yaml: |',
        '    migManager:',
        '      enabled: false',
        '',
      ].join('\n'),
    );
    await tree.writeFile(
      'clusters/edge/karpenter/bottlerocket.yaml',
      [
        'apiVersion: karpenter.k8s.aws/v1',
        'kind: EC2NodeClass',
        'metadata: {name: gpu-bottlerocket}',
        'spec:',
        '  amiSelectorTerms: [{alias: bottlerocket@latest}]',
        '',
      ].join('\n'),
    );
    const { index, read } = await expectSameState(tree, edge);
    expect(index.gpuStack).toEqual({
      devicePlugin: expect.objectContaining({ kind: 'bottlerocket' }),
      devicePlugins: [
        expect.objectContaining({ kind: 'gpu-operator' }),
        expect.objectContaining({
          kind: 'bottlerocket',
          nodeClass: 'gpu-bottlerocket',
        }),
      ],
      migManagerOff: expect.objectContaining({
        file: 'clusters/edge/infrastructure/gpu-operator.yaml',
      }),
    });
    const next = request('tagger', {
      model: 'a100-80gb',
      sharing: 'mig',
      replicas: 1,
      vramGiB: 30,
    });
    const refusal = (state: RepoState) => {
      try {
        plan(next, builtinCatalog, edge, state);
        return undefined;
      } catch (error) {
        return (error as Error).message;
      }
    };
    expect(refusal(index)).toContain('runs no MIG manager');
    expect(refusal(index)).toEqual(refusal(read));
  });
});

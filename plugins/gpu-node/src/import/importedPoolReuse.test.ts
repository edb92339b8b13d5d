/**
 * After an import, new requests really reuse what it adopted: the GPU pools
 * where they live in the cluster's folder, and the device-plugin and
 * mig-parted configs the cluster reads from ConfigMaps written by hand. Each
 * change is built with the real kustomize, validated, and planned again
 * from the tree it left (nothing more to do).
 */
import { promises as fs } from 'node:fs';
import path from 'node:path';
import {
  builtinCatalog,
  defaultClusterProfile,
  isGpuInputError,
  parseGpuRequest,
  type ClusterProfile,
  type GpuRequest,
} from '@gpu-gitops/plugin-gpu-common';
import { buildRequestChange } from '../changes/buildRequestChange';
import { kustomizeBuild } from '../kustomize';
import { writeChangeSet } from '../changes/stagedTree';
import { readRepoState } from '../repo/readRepoState';
import type { FsRepoTree } from '../repo/tree';
import { validateGitOpsTree } from '../validate/validateGitOpsTree';
import { snapshot } from './__testUtils__/fixtureCopies';
import {
  IMPORT_OWNER as OWNER,
  importedCopy,
  yamlDocs as docs,
} from './__testUtils__/importCluster';
import {
  EXPECTED_LEGACY_SELECTOR_FINDINGS,
  legacySelectorFindings,
} from './__testUtils__/legacySelectorFindings';

jest.setTimeout(60_000);

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

const imported = importedCopy;

/**
 * Plans and applies `gpuRequest`, proving the tree builds, validates (with
 * only the `findings` the fixture has before) and needs nothing more.
 */
async function fileRequest(
  tree: FsRepoTree,
  cluster: ClusterProfile,
  gpuRequest: GpuRequest,
  findings: unknown[] = [],
) {
  const before = await snapshot(tree);
  const change = await buildRequestChange({
    tree,
    dir: tree.root,
    request: gpuRequest,
    cluster,
    catalog: builtinCatalog,
  });
  expect(change.verification?.unverifiable).toEqual([]);
  expect(change.verification?.verified).toContain(`clusters/${cluster.name}`);
  await writeChangeSet(tree, change.changeSet);
  const after = await snapshot(tree);
  const changed = change.changeSet.changes.map(c => c.path);
  for (const [file, text] of Object.entries(before)) {
    if (!changed.includes(file)) expect(after[file]).toBe(text);
  }
  expect(
    legacySelectorFindings(await validateGitOpsTree(tree.root, { cluster })),
  ).toEqual(findings);
  // The real kustomize builds the cluster with the planned pool exactly once.
  const built = await kustomizeBuild(
    path.join(tree.root, 'clusters', cluster.name),
  );
  expect(
    built.filter(
      o => o.kind === 'NodePool' && o.metadata.name === change.plan.pool.name,
    ),
  ).toHaveLength(1);
  const again = await buildRequestChange({
    tree,
    dir: tree.root,
    request: gpuRequest,
    cluster,
    catalog: builtinCatalog,
  });
  expect(again.changeSet.changes).toEqual([]);
  return { change, before, after };
}

describe('after importing the v0.31 setup, whose device plugin reads its hand-written ConfigMap', () => {
  // The legacy cluster's GPU Operator reads the ConfigMap of named configs
  // in clusters/legacy/gpu-operator/ (the mig-parted one there has the
  // profile's default name already).
  const legacy: ClusterProfile = {
    ...defaultClusterProfile,
    name: 'legacy',
    nodeClass: { ...defaultClusterProfile.nodeClass },
    devicePluginConfigMap: {
      name: 'nvidia-device-plugin',
      namespace: 'kube-system',
    },
  };
  const poolFile = 'clusters/legacy/karpenter/provisioners.yaml';
  let tree: FsRepoTree;

  beforeAll(async () => {
    ({ tree } = await imported('v1alpha5-repo', legacy));
    // The GPU folder requests need, as a platform engineer adds it for a
    // cluster whose GPU Operator keeps its own ConfigMaps: no generator of
    // the product's (it would clash with them).
    await tree.writeFile(
      'clusters/legacy/gpu/kustomization.yaml',
      'apiVersion: kustomize.config.k8s.io/v1beta1\nkind: Kustomization\nresources: []\n',
    );
    const root = 'clusters/legacy/kustomization.yaml';
    await tree.writeFile(
      root,
      (await tree.readFile(root))!.replace(
        '  - gpu-operator\n',
        '  - gpu-operator\n  - gpu\n',
      ),
    );
  });
  afterAll(() => fs.rm(tree.root, { recursive: true, force: true }));

  it('reads the adopted pool where it lives and the hand-written configs', async () => {
    const state = await readRepoState(tree, undefined, 'legacy');
    expect(
      state.pools.map(p => [p.name, p.path, p.sharingMode, p.deviceConfigName]),
    ).toEqual([
      ['gpu-a100-mig', poolFile, 'mig', undefined],
      ['gpu-t4', poolFile, 'time-slicing', 't4-ts-4'],
    ]);
    expect(
      state.handWrittenConfigMaps?.map(m => [
        `${m.namespace}/${m.name}`,
        Object.keys(m.devicePluginConfigs).sort(),
        Object.keys(m.migConfigs).sort(),
      ]),
    ).toEqual([
      ['kube-system/nvidia-device-plugin', ['a100-mig', 'any', 't4-ts-4'], []],
      [
        'gpu-operator/custom-mig-parted-config',
        [],
        ['all-1g.10gb', 'all-disabled'],
      ],
    ]);
  });

  it('a time-sliced T4 request lands on the imported pool in its own file and keeps its hand-written key', async () => {
    const { change, before, after } = await fileRequest(
      tree,
      legacy,
      request('summarizer', {
        model: 't4',
        sharing: 'time-slicing',
        replicas: 1,
        vramGiB: 3,
      }),
      // The imported workloads' own legacy selectors, which the import reported.
      EXPECTED_LEGACY_SELECTOR_FINDINGS,
    );
    expect(change.plan.pool).toMatchObject({
      name: 'gpu-t4',
      reused: true,
      path: poolFile,
    });
    expect(change.plan.pool.labels['nvidia.com/device-plugin.config']).toBe(
      't4-ts-4',
    );
    expect(change.plan.sharing.handWrittenConfigMap).toEqual({
      name: 'nvidia-device-plugin',
      namespace: 'kube-system',
      path: 'clusters/legacy/gpu-operator/device-plugin-configs.yaml',
    });
    expect(change.manifests.devicePluginConfig).toBeUndefined();
    // The request's own files, and the pool's file: no config, no kustomization.
    expect(change.changeSet.changes.map(c => [c.path, c.action])).toEqual([
      ['apps/ml/summarizer/deployment.yaml', 'create'],
      ['apps/ml/summarizer/kustomization.yaml', 'create'],
      [poolFile, 'update'],
      ['requests/ml/summarizer.yaml', 'create'],
    ]);

    // In the pool's file: its ledger (its limit stays the floor of 4 GPUs),
    // and the NodeOverlay Karpenter needs to provision for its shared
    // resource, appended; the MIG pool beside it and the comments unchanged.
    expect(after[poolFile]).toMatch(
      /^# GPU capacity, written by hand for Karpenter v0\.31\.\n/,
    );
    const [t4Before, a100Before] = docs(before[poolFile]);
    const [t4After, a100After, ...appended] = docs(after[poolFile]);
    expect(a100After).toEqual(a100Before);
    const withoutLedger = (pool: any) => {
      const { ['gpu.backstage.io/requests']: _ledger, ...annotations } =
        pool.metadata.annotations;
      return { ...pool, metadata: { ...pool.metadata, annotations } };
    };
    expect(withoutLedger(t4After)).toEqual(withoutLedger(t4Before));
    expect(t4After.metadata.annotations['gpu.backstage.io/requests']).toBe(
      'ml/chat=3, ml/summarizer=1',
    );
    expect(t4After.spec.limits).toEqual({ cpu: '64', 'nvidia.com/gpu': '4' });
    expect(appended).toEqual([
      expect.objectContaining({
        kind: 'NodeOverlay',
        metadata: expect.objectContaining({ name: 'gpu-t4-1gpu' }),
        spec: expect.objectContaining({
          capacity: { 'nvidia.com/gpu.shared': '4' },
        }),
      }),
    ]);
  });

  it('refuses a request that needs a key the hand-written ConfigMap lacks, naming it, and writes nothing', async () => {
    const before = await snapshot(tree);
    const error = await buildRequestChange({
      tree,
      dir: tree.root,
      request: request('tagger', {
        model: 't4',
        sharing: 'time-slicing',
        replicas: 1,
        vramGiB: 3,
        slicesPerGpu: 2,
      }),
      cluster: legacy,
      catalog: builtinCatalog,
    }).catch(e => e);
    expect(isGpuInputError(error)).toBe(true);
    expect(error.issues).toEqual([
      expect.objectContaining({
        path: 'spec.gpu.sharing',
        rule: 'config-map-written-by-hand',
        message: expect.stringContaining(
          'the device plugin reads ConfigMap kube-system/nvidia-device-plugin, written by hand, and no key of it holds the time-slicing config of 2 slices per GPU',
        ),
      }),
    ]);
    expect(error.issues[0].message).toContain(
      'clusters/legacy/gpu-operator/device-plugin-configs.yaml',
    );
    expect(error.issues[0].message).toMatch(
      /Add the key "ts-2-[0-9a-f]{8}" to its data/,
    );
    expect(await snapshot(tree)).toEqual(before);
  });
});

describe('after importing a setup whose GPU Operator reads the team’s ConfigMaps, with a pool under infra/', () => {
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
  const poolFile = 'clusters/edge/nodepools/a100-mig.yaml';
  let tree: FsRepoTree;
  let importChange: Awaited<ReturnType<typeof imported>>['change'];

  beforeAll(async () => {
    ({ tree, change: importChange } = await imported(
      'operator-configmaps-repo',
      edge,
    ));
  });
  afterAll(() => fs.rm(tree.root, { recursive: true, force: true }));

  it('adopts the MIG pool of the cluster folder; the pool under infra/ is outside what it reads', async () => {
    expect(importChange.adoptedPools).toEqual([
      expect.objectContaining({
        name: 'gpu-a100-mig',
        path: poolFile,
        sharingMode: 'mig',
        resourceName: 'nvidia.com/mig-3g.40gb',
        ledger: 'ml/vision=2',
      }),
    ]);
    expect(importChange.findings).toContainEqual(
      expect.objectContaining({
        path: 'apps/ml/ocr/deployment.yaml',
        message: expect.stringContaining(
          'it runs on no GPU pool of the cluster the import adopted',
        ),
      }),
    );
    const state = await readRepoState(tree, undefined, 'edge');
    expect(state.pools.map(p => p.name)).toEqual(['gpu-a100-mig']);
    expect(state.otherNodePools).toEqual([]);
  });

  it('a MIG request lands on the imported pool and keeps its hand-written mig-parted entry', async () => {
    const { change, before, after } = await fileRequest(
      tree,
      edge,
      request('segmenter', {
        model: 'a100-80gb',
        sharing: 'mig',
        replicas: 1,
        vramGiB: 30,
      }),
    );
    expect(change.plan.pool).toMatchObject({
      name: 'gpu-a100-mig',
      reused: true,
      path: poolFile,
    });
    expect(change.plan.sharing).toMatchObject({
      migProfile: '3g.40gb',
      migConfigName: 'all-3g.40gb',
      handWrittenConfigMap: {
        name: 'mig-parted-config',
        namespace: 'gpu-operator',
        path: 'clusters/edge/gpu-operator/mig-parted.yaml',
      },
    });
    expect(change.manifests.migConfig).toBeUndefined();
    expect(change.changeSet.changes.map(c => [c.path, c.action])).toEqual([
      ['apps/ml/segmenter/deployment.yaml', 'create'],
      ['apps/ml/segmenter/kustomization.yaml', 'create'],
      [poolFile, 'update'],
      ['requests/ml/segmenter.yaml', 'create'],
    ]);
    const [poolBefore, nodeClassBefore] = docs(before[poolFile]);
    const [poolAfter, nodeClassAfter, ...appended] = docs(after[poolFile]);
    expect(nodeClassAfter).toEqual(nodeClassBefore);
    expect(poolAfter.spec).toEqual(poolBefore.spec);
    expect(poolAfter.metadata.annotations['gpu.backstage.io/requests']).toBe(
      'ml/segmenter=1, ml/vision=2',
    );
    expect(appended.map(o => [o.kind, o.spec.capacity])).toEqual([
      ['NodeOverlay', { 'nvidia.com/mig-3g.40gb': '16' }],
    ]);
  });

  it('a T4 request gets a new pool that takes the hand-written key holding its config; the pool under infra/ is not reused', async () => {
    const { change } = await fileRequest(
      tree,
      edge,
      request('reader', {
        model: 't4',
        sharing: 'time-slicing',
        replicas: 2,
        vramGiB: 3,
        slicesPerGpu: 4,
      }),
    );
    expect(change.plan.pool).toMatchObject({
      name: 'gpu-t4-ts4',
      reused: false,
    });
    expect(change.plan.pool.labels['nvidia.com/device-plugin.config']).toBe(
      't4-x4',
    );
    expect(change.changeSet.changes.map(c => [c.path, c.action])).toEqual([
      ['apps/ml/reader/deployment.yaml', 'create'],
      ['apps/ml/reader/kustomization.yaml', 'create'],
      ['clusters/edge/gpu/kustomization.yaml', 'update'],
      ['clusters/edge/gpu/nodepools/gpu-t4-ts4.yaml', 'create'],
      ['requests/ml/reader.yaml', 'create'],
    ]);
  });
});

/**
 * Importing pools whose GPUs are shared by something other than the pool's
 * own device-plugin label: the GPU Operator's default config, Bottlerocket's
 * device plugin settings in the node class's user data, and hand-written
 * NodeOverlays counting slices (`__fixtures__/shared-gpus-repo/README.md`).
 */
import { promises as fs } from 'node:fs';
import {
  builtinCatalog,
  isGpuInputError,
  parseGpuRequest,
  parseGpuRequestYaml,
} from '@gpu-gitops/plugin-gpu-common';
import { buildRequestChange } from '../changes/buildRequestChange';
import { writeChangeSet } from '../changes/stagedTree';
import { renderImportReport } from '../pr/renderImportReport';
import type { FsRepoTree } from '../repo/tree';
import { schemaError } from '../validate/schemas';
import { copyOf, snapshot } from './__testUtils__/fixtureCopies';
import {
  IMPORT_OWNER as OWNER,
  importCluster,
  importProfile,
  yamlDocs as docs,
} from './__testUtils__/importCluster';

// A hang guard, not a speed goal: each test runs the real kustomize (and git) several
// times, which on a loaded two-core CI machine takes far longer than the default 30 s.
jest.setTimeout(300_000);

const shared = importProfile('shared');
const POOLS = 'clusters/shared/karpenter/nodepools.yaml';

const importShared = (tree: FsRepoTree) => importCluster(tree, shared);

const annotationsOf = (text: string, pool: string) =>
  docs(text).find(o => o.metadata.name === pool).metadata.annotations;

describe('importing pools shared by the operator’s default config, Bottlerocket and NodeOverlays', () => {
  let tree: FsRepoTree;
  beforeAll(async () => {
    tree = await copyOf('shared-gpus-repo');
  });
  afterAll(() => fs.rm(tree.root, { recursive: true, force: true }));

  it('the fixture’s Karpenter objects are valid v1 objects', async () => {
    const before = await snapshot(tree);
    for (const file of [
      POOLS,
      'clusters/shared/karpenter/nodeclasses.yaml',
      'clusters/shared/karpenter/overlays.yaml',
    ]) {
      for (const o of docs(before[file]))
        expect(schemaError(o)).toBeUndefined();
    }
  });

  it('adopts each pool with the sharing its nodes really have, and counts in the right unit', async () => {
    const change = await importShared(tree);
    expect(change.verification?.verified).toEqual(['clusters/shared']);
    expect(
      change.adoptedPools.map(p => [
        p.name,
        p.sharingMode,
        p.slicesPerGpu,
        p.resourceName,
        p.ledger,
      ]),
    ).toEqual([
      ['gpu-a10g', 'time-slicing', 4, 'nvidia.com/gpu', 'ml/chat=3'],
      ['gpu-l4', 'time-slicing', 4, 'nvidia.com/gpu', 'ml/rag=8'],
      ['gpu-br-t4', 'time-slicing', 4, 'nvidia.com/gpu.shared', 'ml/vision=2'],
    ]);
    const [a10g, l4, t4] = change.adoptedPools;
    expect(a10g.sharingSource).toMatch(
      /default device-plugin config "any" of ConfigMap "time-slicing-config-all" \(devicePlugin\.config\.default in Flux HelmRelease/,
    );
    expect(t4.sharingSource).toMatch(
      /EC2NodeClass "gpu-bottlerocket" spec\.userData \(Bottlerocket's device plugin/,
    );
    // The limit of 40 counts the NodeOverlay's slices: 10 GPUs.
    expect(l4.counts).toEqual([
      'spec.limits nvidia.com/gpu: 40 counts slices (4 per GPU): 10 GPUs',
      'NodeOverlay "gpu-l4-4gpu" capacity nvidia.com/gpu: 16 counts slices (4 per GPU) on nodes of 4 GPUs',
    ]);
    expect(a10g.counts).toEqual(['spec.limits nvidia.com/gpu: 8 counts GPUs']);

    await writeChangeSet(tree, change.changeSet);
    const after = await snapshot(tree);
    for (const o of docs(after[POOLS])) expect(schemaError(o)).toBeUndefined();
    expect(annotationsOf(after[POOLS], 'gpu-a10g')).toEqual({
      'gpu.backstage.io/requests': 'ml/chat=3',
      'gpu.backstage.io/sharing-mode': 'time-slicing',
      'gpu.backstage.io/resource-name': 'nvidia.com/gpu',
      'gpu.backstage.io/gpu-model': 'a10g',
      'gpu.backstage.io/slices-per-gpu': '4',
      'gpu.backstage.io/limit-floor': '8',
    });
    expect(annotationsOf(after[POOLS], 'gpu-l4')).toMatchObject({
      'gpu.backstage.io/sharing-mode': 'time-slicing',
      'gpu.backstage.io/slices-per-gpu': '4',
      'gpu.backstage.io/limit-floor': '10',
    });
    expect(annotationsOf(after[POOLS], 'gpu-br-t4')).toMatchObject({
      'gpu.backstage.io/sharing-mode': 'time-slicing',
      'gpu.backstage.io/resource-name': 'nvidia.com/gpu.shared',
      'gpu.backstage.io/slices-per-gpu': '4',
    });
    // The records say what a replica gets: a slice, not a GPU.
    for (const [name, slices] of [
      ['chat', 4],
      ['rag', 4],
      ['vision', 4],
    ] as const) {
      const record = parseGpuRequestYaml(after[`requests/ml/${name}.yaml`]);
      expect(record.spec.gpu).toMatchObject({
        sharing: 'time-slicing',
        slicesPerGpu: slices,
      });
    }
    const report = renderImportReport({ change }).body;
    expect(report).toContain(
      '`gpu-l4`: spec.limits nvidia.com/gpu: 40 counts slices (4 per GPU): 10 GPUs',
    );
  });
});

describe('a request after the import, on the pool the operator’s default config shares', () => {
  let tree: FsRepoTree;
  beforeAll(async () => {
    tree = await copyOf('shared-gpus-repo');
    await writeChangeSet(tree, (await importShared(tree)).changeSet);
  });
  afterAll(() => fs.rm(tree.root, { recursive: true, force: true }));

  it('a later exclusive request is not promised memory isolation: a new pool’s unlabelled nodes would share too, so it is refused and nothing is written', async () => {
    // Bootstrapped since, reading the team's ConfigMap.
    await tree.writeFile(
      'clusters/shared/gpu/kustomization.yaml',
      'apiVersion: kustomize.config.k8s.io/v1beta1\nkind: Kustomization\nresources: []\n',
    );
    const request = parseGpuRequest({
      apiVersion: 'gpu.backstage.io/v1alpha1',
      kind: 'GpuRequest',
      metadata: { name: 'trainer', namespace: 'ml' },
      spec: {
        owner: OWNER,
        gpu: { model: 'a10g', sharing: 'exclusive', replicas: 1, vramGiB: 20 },
        workload: { image: 'ghcr.io/acme/trainer:1.0' },
        capacityTypes: ['on-demand'],
      },
    });
    const before = await snapshot(tree);
    const error = await buildRequestChange({
      tree,
      dir: tree.root,
      request,
      cluster: shared,
      catalog: builtinCatalog,
      verify: false,
    }).catch(e => e);
    expect(isGpuInputError(error)).toBe(true);
    expect(error.issues).toEqual([
      expect.objectContaining({
        path: 'spec.gpu.sharing',
        rule: 'device-plugin-shares-by-default',
        message: expect.stringContaining(
          '`devicePlugin.config.default: any` (key of ConfigMap `time-slicing-config-all`)',
        ),
      }),
    ]);
    expect(await snapshot(tree)).toEqual(before);
  });
});

describe('a pool whose only word on sharing is a hand-written NodeOverlay', () => {
  let tree: FsRepoTree;
  beforeAll(async () => {
    tree = await copyOf('shared-gpus-repo');
    // No GPU Operator release here: its device plugin is installed elsewhere.
    await tree.writeFile(
      'clusters/shared/gpu-operator/kustomization.yaml',
      'apiVersion: kustomize.config.k8s.io/v1beta1\nkind: Kustomization\nresources:\n  - time-slicing-config.yaml\n',
    );
    await tree.deleteFile('clusters/shared/gpu-operator/helmrelease.yaml');
  });
  afterAll(() => fs.rm(tree.root, { recursive: true, force: true }));

  it('is adopted as sharing its GPUs as the overlay counts them, and the report says the two disagree', async () => {
    const change = await importShared(tree);
    const pools = new Map(change.adoptedPools.map(p => [p.name, p]));
    expect(pools.get('gpu-a10g')).toMatchObject({ sharingMode: 'exclusive' });
    expect(pools.get('gpu-l4')).toMatchObject({
      sharingMode: 'time-slicing',
      slicesPerGpu: 4,
      resourceName: 'nvidia.com/gpu',
    });
    expect(change.findings).toContainEqual(
      expect.objectContaining({
        kind: 'note',
        object: 'NodePool "gpu-l4"',
        message: expect.stringMatching(
          /NodeOverlay "gpu-l4-4gpu" count 4 nvidia\.com\/gpu per GPU, but no device-plugin config the import found shares this pool's GPUs/,
        ),
      }),
    );
  });
});

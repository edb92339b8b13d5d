/**
 * Importing a GKE cluster whose team wrote its own GPU ComputeClass
 * (`test/fixtures/gke-computeclass-repo`, origins in its README): the class
 * is a GPU pool with its model (from `gpu.type`), its GPUs per node
 * (`gpu.count`) and GKE's sharing (`gpuSharing`), each count with its unit;
 * adoption adds annotations only, the team's lines and comments kept; the
 * CPU class and a class whose GPU rules disagree are left as they are.
 */
import { promises as fs } from 'node:fs';
import {
  builtinCatalog,
  resolveClusterProfile,
} from '@gpu-gitops/plugin-gpu-common';
import { writeChangeSet } from '../changes/stagedTree';
import {
  checkoutShape,
  snapshot,
} from '../changes/shapes/__testUtils__/shapeRound';
import { readRepoState } from '../repo/readRepoState';
import type { FsRepoTree } from '../repo/tree';
import { buildImportChange } from './buildImportChange';
import { IMPORT_OWNER } from './__testUtils__/importCluster';

// The real kustomize builds the cluster before and after.
jest.setTimeout(300_000);

const cluster = resolveClusterProfile({
  name: 'gke-ml',
  provider: 'gke',
  region: 'us-central1',
  kubernetesVersion: '1.35.2',
});
const CLASS = 'clusters/gke-ml/compute-classes/l4-inference.yaml';
const GENERAL = 'clusters/gke-ml/compute-classes/general.yaml';
const MIXED = 'clusters/gke-ml/compute-classes/mixed.yaml';

/** A class whose rules ask for two accelerators: which GPU a pod gets depends on availability. */
const MIXED_CLASS = `apiVersion: cloud.google.com/v1
kind: ComputeClass
metadata:
  name: any-gpu
spec:
  priorities:
    - machineType: g2-standard-8
      gpu: {type: nvidia-l4, count: 1}
    - machineType: n1-standard-8
      gpu: {type: nvidia-tesla-t4, count: 1}
  nodePoolAutoCreation:
    enabled: true
`;

const importGke = (tree: FsRepoTree) =>
  buildImportChange({
    tree,
    dir: tree.root,
    cluster,
    catalog: builtinCatalog,
    owner: IMPORT_OWNER,
  });

describe('importing a GKE cluster’s hand-written GPU ComputeClass', () => {
  let tree: FsRepoTree;
  let before: Record<string, string>;
  beforeAll(async () => {
    tree = await checkoutShape('gke-computeclass-repo', 'gpu-import-gke-');
    await tree.writeFile(MIXED, MIXED_CLASS);
    before = await snapshot(tree);
  });
  afterAll(() => fs.rm(tree.root, { recursive: true, force: true }));

  it('adopts the class as a GPU pool with its model, GPUs and GKE sharing, in their units', async () => {
    const change = await importGke(tree);
    expect(change.verification?.verified).toEqual(['clusters/gke-ml']);
    expect(change.adoptedPools).toEqual([
      {
        name: 'l4-inference',
        path: CLASS,
        gpuModel: 'l4',
        sharingMode: 'time-slicing',
        slicesPerGpu: 4,
        sharingSource: 'gpuSharing of ComputeClass "l4-inference"',
        resourceName: 'nvidia.com/gpu',
        ledger: '',
        counts: [
          '1 GPU(s) per node on g2-standard-8 (gpu.count)',
          '4 slices per GPU (gpuSharing.maxSharedClientsPerGPU of ComputeClass "l4-inference")',
        ],
      },
    ]);
    expect(change.findings).toContainEqual({
      kind: 'note',
      path: MIXED,
      object: 'ComputeClass "any-gpu"',
      message:
        'not adopted as a GPU pool: its GPU rules ask for nvidia-l4 and nvidia-tesla-t4: a pool has one GPU model',
    });
    expect(change.changeSet.changes.map(c => c.path)).toEqual([CLASS]);

    await writeChangeSet(tree, change.changeSet);
    const after = await snapshot(tree);
    // Annotations added, every line of the team's kept in its place.
    const added = after[CLASS].split('\n').filter(
      line => !before[CLASS].split('\n').includes(line),
    );
    expect(added).toEqual([
      '  annotations:',
      '    gpu.backstage.io/requests: ""',
      '    gpu.backstage.io/sharing-mode: time-slicing',
      '    gpu.backstage.io/resource-name: nvidia.com/gpu',
      '    gpu.backstage.io/gpu-model: l4',
      '    gpu.backstage.io/slices-per-gpu: "4"',
    ]);
    expect(
      after[CLASS].split('\n').filter(line => !added.includes(line)),
    ).toEqual(before[CLASS].split('\n'));
    for (const file of [GENERAL, MIXED]) expect(after[file]).toBe(before[file]);
  });

  it('leaves a pool new requests read as GKE shares it, and a second import changes nothing', async () => {
    const state = await readRepoState(tree, undefined, 'gke-ml', {
      catalog: builtinCatalog,
    });
    expect(
      state.pools.map(p => [
        p.name,
        p.gpuModel,
        p.sharingMode,
        p.slicesPerGpu,
        p.resourceName,
      ]),
    ).toEqual([['l4-inference', 'l4', 'time-slicing', 4, 'nvidia.com/gpu']]);
    const again = await importGke(tree);
    expect(again.changeSet.changes).toEqual([]);
  });
});

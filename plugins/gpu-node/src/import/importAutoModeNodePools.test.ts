/**
 * Importing an EKS Auto Mode cluster (`test/fixtures/eks-auto-mode-repo`,
 * origins in its README): a team's GPU NodePool in Auto Mode's labels only
 * (`eks.amazonaws.com/instance-gpu-name`, `instance-gpu-count`) is a GPU
 * pool with its model and its limit in GPUs; AWS's example pool of two
 * families (g6e, g6: L40S and L4) is a GPU pool of no one model; the CPU
 * pool and the NodeClasses are left byte for byte.
 */
import { promises as fs } from 'node:fs';
import {
  builtinCatalog,
  resolveClusterProfile,
} from '@gpu-gitops/plugin-gpu-common';
import {
  checkoutShape,
  snapshot,
} from '../changes/shapes/__testUtils__/shapeRound';
import { writeChangeSet } from '../changes/stagedTree';
import type { FsRepoTree } from '../repo/tree';
import { buildImportChange } from './buildImportChange';
import { IMPORT_OWNER } from './__testUtils__/importCluster';

// The real kustomize builds the cluster before and after.
jest.setTimeout(300_000);

const cluster = resolveClusterProfile({
  name: 'auto-ml',
  provider: 'eks-auto-mode',
  region: 'us-east-1',
  kubernetesVersion: '1.36',
});
const FOLDER = 'clusters/auto-ml/eks-automode-config';

describe('importing an EKS Auto Mode cluster’s hand-written GPU NodePools', () => {
  let tree: FsRepoTree;
  afterAll(() => fs.rm(tree.root, { recursive: true, force: true }));

  it('adopts them with their model and their limit in GPUs, annotations only', async () => {
    tree = await checkoutShape('eks-auto-mode-repo', 'gpu-import-auto-');
    const before = await snapshot(tree);
    const change = await buildImportChange({
      tree,
      dir: tree.root,
      cluster,
      catalog: builtinCatalog,
      owner: IMPORT_OWNER,
    });
    expect(change.verification?.verified).toEqual(['clusters/auto-ml']);
    expect(
      change.adoptedPools.map(p => [p.name, p.gpuModel, p.sharingMode, p.counts]),
    ).toEqual([
      ['gpu', undefined, 'exclusive', []],
      ['gpu-l40s', 'l40s', 'exclusive', ['spec.limits nvidia.com/gpu: 4 counts GPUs']],
    ]);
    await writeChangeSet(tree, change.changeSet);
    const after = await snapshot(tree);
    for (const file of [
      `${FOLDER}/nodepool-amd64.yaml`,
      `${FOLDER}/nodeclass-basic.yaml`,
      `${FOLDER}/nodeclass-ebs-optimized.yaml`,
    ]) {
      expect(after[file]).toBe(before[file]);
    }
    const pool = `${FOLDER}/nodepool-l40s.yaml`;
    const kept = after[pool]
      .split('\n')
      .filter(line => !/^  annotations:$|^    gpu\.backstage\.io\//.test(line));
    expect(kept).toEqual(before[pool].split('\n'));
  });
});

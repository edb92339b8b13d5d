/**
 * What every repository-shape test does: a writable copy of a fixture
 * repository from `test/fixtures/`, requests in the team's words, and one
 * request taken through the tree and released again (with the findings
 * `validate` has while it is merged).
 */
import { promises as fs } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import {
  builtinCatalog,
  parseGpuRequest,
  type ClusterProfile,
  type GpuRequest,
} from '@gpu-gitops/plugin-gpu-common';
import { FsRepoTree } from '../../../repo/tree';
import { validateGitOpsTree } from '../../../validate/validateGitOpsTree';
import { buildRequestChange } from '../../buildRequestChange';
import { buildReleaseChange } from '../../release/buildReleaseChange';
import { writeChangeSet } from '../../stagedTree';

export { snapshot } from '../../../import/__testUtils__/fixtureCopies';

export const SHAPE_OWNER = 'group:default/ml-platform';

/** `test/fixtures/<fixture>`, the shape's repository as its sources hold it. */
export const shapeFixture = (fixture: string) =>
  path.join(__dirname, '../../../../../../test/fixtures', fixture);

/** A copy of `test/fixtures/<fixture>` in a fresh temp folder. */
export async function checkoutShape(
  fixture: string,
  prefix: string,
): Promise<FsRepoTree> {
  const dir = await fs.mkdtemp(path.join(os.tmpdir(), prefix));
  await fs.cp(shapeFixture(fixture), dir, { recursive: true });
  return new FsRepoTree(dir);
}

/** A request of the ml team in namespace ml, on-demand unless `spec` says. */
export function shapeRequest(
  name: string,
  spec: Record<string, unknown>,
): GpuRequest {
  return parseGpuRequest({
    apiVersion: 'gpu.backstage.io/v1alpha1',
    kind: 'GpuRequest',
    metadata: { name, namespace: 'ml' },
    spec: { owner: SHAPE_OWNER, capacityTypes: ['on-demand'], ...spec },
  });
}

/**
 * Writes `gpuRequest`'s change, validates the tree (and runs `whileMerged`
 * on it), then writes its release.
 */
export async function requestThenRelease(
  tree: FsRepoTree,
  gpuRequest: GpuRequest,
  cluster: ClusterProfile,
  whileMerged: () => Promise<void> = async () => {},
) {
  const change = await buildRequestChange({
    tree,
    dir: tree.root,
    request: gpuRequest,
    cluster,
    catalog: builtinCatalog,
  });
  await writeChangeSet(tree, change.changeSet);
  const findings = await validateGitOpsTree(tree.root, { cluster });
  await whileMerged();
  const release = await buildReleaseChange({
    tree,
    dir: tree.root,
    request: gpuRequest.metadata,
    clusterProfile: () => cluster,
    catalog: builtinCatalog,
  });
  await writeChangeSet(tree, release.changeSet);
  return { change, findings };
}

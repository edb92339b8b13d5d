import type { ClusterProfile } from '@gpu-gitops/plugin-gpu-common';
import { FsRepoTree } from '../../repo/tree';
import { buildBootstrapChangeSet } from '../bootstrap/bootstrapChangeSet';
import { writeTempRepo } from '../__fixtures__/gitopsRepo';
import { writeChangeSet } from '../stagedTree';

/** `files` in a temp folder, with the bootstrap of `cluster` written as a merge would; `removeTempRepo(dir)` after. */
export async function bootstrappedTempRepo(
  files: Record<string, string>,
  cluster: ClusterProfile,
) {
  const dir = await writeTempRepo(files);
  const tree = new FsRepoTree(dir);
  await writeChangeSet(
    tree,
    await buildBootstrapChangeSet(tree, cluster, {
      operatorChartVersion: 'v26.7.0',
      binPacking: false,
    }),
  );
  return { dir, tree };
}

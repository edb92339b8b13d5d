/**
 * The files of a cluster `readGpuStack` can take anything from, read
 * without reading the rest: its candidates are the cluster's release files
 * (`isClusterReleaseFile`: its folder and every file outside all clusters'
 * folders) that git names holding a stack word (`GPU_STACK_NEEDLES`), or
 * that changed since the commit; of those, the files with a role, as the
 * allocation index hands the readers (`gpuStackFileRole`, a values
 * ConfigMap only when a release takes values from one). On a full checkout
 * of the scale repository, reading every release file (110k) took most of
 * an updater's re-render.
 */
import type { LayoutInput } from '../../layout/layout';
import { isClusterReleaseFile } from '../../changes/bootstrap/helmReleases/findHelmReleases';
import type { RepositoryFile } from '../../changes/bootstrap/helmReleases/valuesConfigMaps';
import { filesMentioning } from '../filesMentioning';
import { readFiles } from '../readFiles';
import type { RepoTree } from '../tree';
import {
  GPU_STACK_NEEDLES,
  gpuStackFileRole,
  releasesTakeValuesFrom,
} from './readGpuStack';

/** The files of `cluster` (in path order) `readGpuStack` can take anything from. */
export async function gpuStackFiles(
  tree: RepoTree,
  layout: LayoutInput,
  cluster: string,
): Promise<RepositoryFile[]> {
  const candidates = await filesMentioning(
    tree,
    (await tree.listFiles('')).filter(path =>
      isClusterReleaseFile(layout, cluster, path),
    ),
    GPU_STACK_NEEDLES,
  );
  const texts = await readFiles(tree, candidates);
  const withRoles = candidates.flatMap((path, i) => {
    const text = texts[i];
    return text === undefined
      ? []
      : [{ path, text, role: gpuStackFileRole(text) }];
  });
  const valuesFrom = releasesTakeValuesFrom(
    withRoles.filter(file => file.role === 'release').map(file => file.text),
  );
  return withRoles
    .filter(
      ({ role }) =>
        role === 'release' || (valuesFrom && role === 'valuesSource'),
    )
    .map(({ path, text }) => ({ path, text }));
}

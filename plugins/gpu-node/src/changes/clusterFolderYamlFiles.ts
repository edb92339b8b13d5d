import { posix } from 'node:path';
import {
  clusterKustomizationPath,
  clusterScopePath,
  layoutPrefix,
  resolveLayout,
  type LayoutInput,
} from '../layout/layout';

const isYaml = (path: string) => /\.ya?ml$/.test(path);

/**
 * The YAML files, sorted, of the folders a cluster's pools sit in or beside:
 * the cluster's folder, the pool folder and the GPU folder (the layout may
 * put the last two elsewhere). What a team wrote there by hand next to the
 * product's objects (NodeOverlays, node classes) is looked for in them.
 * `list` lists a folder: the repository's, or a change's staged view of it.
 */
export async function clusterFolderYamlFiles(
  list: (folder: string) => Promise<string[]>,
  layout: LayoutInput,
  cluster: string,
): Promise<string[]> {
  const resolved = resolveLayout(layout);
  const folders = new Set([
    clusterScopePath(resolved, cluster),
    layoutPrefix(resolved, 'nodePool', { cluster }, 'pool'),
    posix.dirname(clusterKustomizationPath(resolved, cluster)),
  ]);
  const paths = new Set<string>();
  for (const folder of folders) {
    for (const path of await list(folder)) paths.add(path);
  }
  return [...paths].filter(isYaml).sort();
}

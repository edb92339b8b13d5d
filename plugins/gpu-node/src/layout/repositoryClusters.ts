import type { RepoTree } from '../repo/tree';
import {
  clusterOwningPath,
  clusterScopePath,
  type LayoutInput,
} from './layout';

/** A cluster name no layout template can place by accident. */
const PROBE = 'gpu-gitops-cluster-probe';

/**
 * The clusters a repository has a folder for (`clusters/<cluster>/…` in the
 * default layout), found from its files: which clusters the repository
 * deploys to, whatever Backstage is configured with. Empty when the layout
 * gives every cluster the same folder (nothing can be told apart by path).
 */
export async function repositoryClusters(
  tree: RepoTree,
  layout: LayoutInput,
): Promise<string[]> {
  const scope = clusterScopePath(layout, PROBE).split('/');
  const at = scope.findIndex(segment => segment.includes(PROBE));
  if (at < 0) return [];
  const parent = scope.slice(0, at).join('/');
  const clusters = new Set<string>();
  for (const file of await tree.listFiles(parent)) {
    const cluster = clusterOwningPath(layout, file);
    if (cluster !== undefined) clusters.add(cluster);
  }
  return [...clusters].sort();
}

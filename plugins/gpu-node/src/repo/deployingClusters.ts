/**
 * The clusters whose folders deploy a workload's file, as the repository's
 * kustomizations say: the roots that reach a kustomization listing the file
 * (a resource, or the patch an overlay applies; `workloads/kustomizations.ts`), each owned by the cluster whose folder
 * holds it (`layout` `clusterOwningPath`, `clusters/<cluster>/…` by
 * default). A workload a team wrote by hand for prod carries no request
 * annotation; that prod's folder alone deploys it is what says it runs
 * there, not on dev.
 *
 * Nothing is told (undefined) when no kustomization lists the file (an
 * Argo CD or Flux object may apply its folder directly) or when a root
 * outside every cluster's folder deploys it: the workload may run anywhere.
 */
import { clusterOwningPath, type LayoutInput } from '../layout/layout';
import {
  chainsFromRoots,
  includersOfFile,
  type KustomizationIndex,
} from '../workloads/kustomizations';

/** The kustomization folders listing `file` as a resource or a patch. */
function listingFolders(index: KustomizationIndex, file: string): string[] {
  const patching = [...index.byFolder.values()]
    .filter(k => k.patches.includes(file))
    .map(k => k.folder);
  return [...includersOfFile(index, file), ...patching];
}

/** The clusters deploying `file`, or undefined when the folders do not tell. */
export function deployingClusters(
  index: KustomizationIndex,
  layout: LayoutInput,
  file: string,
): Set<string> | undefined {
  const roots = new Set(
    listingFolders(index, file).flatMap(folder =>
      chainsFromRoots(index, folder).map(chain => chain[0]),
    ),
  );
  if (roots.size === 0) return undefined;
  const clusters = new Set<string>();
  for (const root of roots) {
    const rootFile = index.byFolder.get(root)?.file ?? root;
    const cluster = clusterOwningPath(layout, rootFile);
    if (cluster === undefined) return undefined;
    clusters.add(cluster);
  }
  return clusters;
}

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
  type KustomizationIndex,
} from '../workloads/kustomizations';

/**
 * Each file's listing folders, built once per index: a repository's every
 * unrecorded workload asks, and scanning every kustomization per workload
 * made the pass quadratic (100k workloads × 100k kustomizations on the
 * scale bench).
 */
const listingsOfIndex = new WeakMap<
  KustomizationIndex,
  Map<string, string[]>
>();

/** The kustomization folders listing `file` as a resource or a patch. */
function listingFolders(index: KustomizationIndex, file: string): string[] {
  let byFile = listingsOfIndex.get(index);
  if (!byFile) {
    byFile = new Map();
    for (const k of index.byFolder.values()) {
      for (const listed of [...k.files, ...k.patches]) {
        const folders = byFile.get(listed) ?? [];
        folders.push(k.folder);
        byFile.set(listed, folders);
      }
    }
    listingsOfIndex.set(index, byFile);
  }
  return byFile.get(file) ?? [];
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

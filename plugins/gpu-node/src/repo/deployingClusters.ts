/**
 * The clusters whose folders deploy a workload's file, as the repository's
 * kustomizations say: the roots that reach a kustomization listing the file
 * (a resource, or the patch an overlay applies; `workloads/kustomizations.ts`), each owned by the cluster whose folder
 * holds it (`layout` `clusterOwningPath`, `clusters/<cluster>/…` by
 * default). A workload a team wrote by hand for prod carries no request
 * annotation; that prod's folder alone deploys it is what says it runs
 * there, not on dev.
 *
 * A root outside every cluster's folder, or the folder of a file no
 * kustomization lists, is deployed where the Argo CD Applications and Flux
 * Kustomizations applying it send it (`applierCluster`): a team's
 * Application for `apps/ml/foo` with `destination.name: prod` runs it on
 * prod only.
 *
 * Nothing is told (undefined) when nothing applies the file's root, or
 * an applier names a cluster by address only: the workload may run anywhere.
 */
import { posix } from 'node:path';
import { appliesFolder } from '../changes/bootstrap/wiring/appliesFolder';
import {
  holds,
  type ClusterApplier,
} from './clusterAppliers';
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

/**
 * The cluster an applier applies to: the one it names, else the one whose
 * folder holds its file (Argo CD or Flux applies to the cluster it runs in).
 */
function applierCluster(
  applier: ClusterApplier,
  layout: LayoutInput,
): string | undefined {
  if (applier.destinationUnknown) return undefined;
  return applier.destination ?? clusterOwningPath(layout, applier.file);
}

/**
 * Whether `applier` applies `root` (a kustomization no other includes, or
 * a folder of plain manifests): its own path, an Argo CD directory source
 * above it with `recurse` (plain manifests of every subfolder), or a Flux
 * path above it with no kustomization between (`appliesFolder`).
 */
function appliesRoot(
  applier: ClusterApplier,
  root: string,
  index: KustomizationIndex,
): boolean {
  if (applier.path === root) return true;
  if (!holds(applier.path, root)) return false;
  const hasKustomization = (folder: string) => index.byFolder.has(folder);
  if (applier.tool === 'argo') {
    return applier.recurse && !hasKustomization(applier.path);
  }
  // A root is included by no kustomization: one above reaches only itself.
  return appliesFolder('flux', applier.path, root, {
    hasKustomization,
    reaches: folder => new Set([folder]),
  });
}

/** The clusters deploying one root, or undefined when nothing says. */
function rootClusters(
  index: KustomizationIndex,
  layout: LayoutInput,
  root: string,
  appliers: readonly ClusterApplier[],
): string[] | undefined {
  const rootFile = index.byFolder.get(root)?.file;
  const owner =
    rootFile !== undefined ? clusterOwningPath(layout, rootFile) : undefined;
  if (owner !== undefined) return [owner];
  const applying = appliers.filter(a => appliesRoot(a, root, index));
  const clusters = applying.map(a => applierCluster(a, layout));
  return clusters.length > 0 && clusters.every(c => c !== undefined)
    ? (clusters as string[])
    : undefined;
}

/** The roots deploying `file`: those of the kustomizations listing it, else its folder when it has no kustomization. */
function rootsOf(index: KustomizationIndex, file: string): Set<string> {
  const listing = listingFolders(index, file);
  if (listing.length === 0) {
    const folder = posix.dirname(file);
    return new Set(index.byFolder.has(folder) ? [] : [folder]);
  }
  return new Set(
    listing.flatMap(folder =>
      chainsFromRoots(index, folder).map(chain => chain[0]),
    ),
  );
}

/**
 * The clusters deploying `file`, or undefined when the folders and
 * `appliers` (the repository's Argo CD / Flux objects) do not tell.
 */
export function deployingClusters(
  index: KustomizationIndex,
  layout: LayoutInput,
  file: string,
  appliers: readonly ClusterApplier[] = [],
): Set<string> | undefined {
  const roots = rootsOf(index, file);
  if (roots.size === 0) return undefined;
  const clusters = new Set<string>();
  for (const root of roots) {
    const found = rootClusters(index, layout, root, appliers);
    if (!found) return undefined;
    found.forEach(cluster => clusters.add(cluster));
  }
  return clusters;
}

/**
 * Whether a GitOps tool that applies `root` applies the kustomization in
 * `target`:
 *
 * - `root` has a kustomization: the folders it reaches through `resources`
 *   (`reaches`, kustomize's own walk);
 * - none, Flux: kustomize-controller generates one over the folder's
 *   manifests, taking a subfolder that has a kustomization as one (and not
 *   looking inside it), else descending (fluxcd/kustomize-controller docs,
 *   "Generating a kustomization.yaml file");
 * - none, Argo CD: a directory source applies plain manifests (of its
 *   subfolders too with `directory.recurse`), and never builds a
 *   kustomization below it, so a configMapGenerator there never runs
 *   (argo-cd docs, "Directory" and "Tool Detection").
 */
import { holds, type ClusterApplier } from '../../../repo/clusterAppliers';

export interface FolderGraph {
  hasKustomization(folder: string): boolean;
  /** The folders building `folder` applies: itself and every kustomization it reaches. */
  reaches(folder: string): ReadonlySet<string>;
}

export function appliesFolder(
  tool: ClusterApplier['tool'],
  root: string,
  target: string,
  graph: FolderGraph,
): boolean {
  if (graph.hasKustomization(root)) return graph.reaches(root).has(target);
  if (tool === 'argo' || !holds(root, target)) return false;
  const below = root === '.' ? target : target.slice(root.length + 1);
  let folder = root;
  for (const part of below.split('/').slice(0, -1)) {
    folder = folder === '.' ? part : `${folder}/${part}`;
    if (graph.hasKustomization(folder)) {
      return graph.reaches(folder).has(target);
    }
  }
  return true;
}

/**
 * The repository's Argo CD Applications (and ApplicationSets' generated
 * ones) and Flux Kustomizations, each with the folder it applies and the
 * cluster it names (`clusterAppliers.ts`, which
 * the bootstrap reads too): a team may apply a workload's folder with its own
 * Application rather than list it in a cluster's kustomization.
 */
import { posix } from 'node:path';
import {
  APPLIER_API_GROUPS,
  repositoryAppliers,
  type ClusterApplier,
} from './clusterAppliers';
import { readFiles } from './readFiles';
import type { RepoTree } from './tree';

/**
 * The YAML files that may declare one: of the files whose content the tree
 * names by blob id, only those it finds naming their API groups without reading
 * them (`filesContaining`); every other file is read. Reading every YAML
 * file of the tree took the whole repository's text for a few objects.
 */
async function candidateFiles(
  tree: RepoTree,
  yaml: readonly string[],
): Promise<string[]> {
  const ids = (await tree.blobIds?.()) ?? new Map<string, string>();
  const containing =
    ids.size > 0 ? await tree.filesContaining?.(APPLIER_API_GROUPS) : undefined;
  if (!containing) return [...yaml];
  return yaml.filter(path => !ids.has(path) || containing.has(path));
}

/** Every folder above each file: what an ApplicationSet's git generator matches. */
function foldersOf(files: readonly string[]): string[] {
  const folders = new Set<string>();
  for (const file of files) {
    for (
      let at = posix.dirname(file);
      at !== '.' && !folders.has(at);
      at = posix.dirname(at)
    ) {
      folders.add(at);
    }
  }
  return [...folders].sort();
}

/** The appliers every YAML file of `tree` declares. */
export async function readGitOpsAppliers(
  tree: RepoTree,
): Promise<ClusterApplier[]> {
  const files = await tree.listFiles('');
  const candidates = await candidateFiles(
    tree,
    files.filter(path => /\.ya?ml$/.test(path)),
  );
  const texts = await readFiles(tree, candidates);
  const declaring = candidates.flatMap((path, i) => {
    const text = texts[i];
    return text === undefined ? [] : [{ path, text }];
  });
  return repositoryAppliers(declaring, { folders: foldersOf(files), files });
}

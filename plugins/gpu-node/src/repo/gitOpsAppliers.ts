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
import { processTurns } from './eventLoopTurns';
import { filesMentioning } from './filesMentioning';
import { readFiles } from './readFiles';
import type { RepoTree } from './tree';

/**
 * Every folder above each file: what an ApplicationSet's git generator
 * matches. Files of one folder come together in git's listing, so each
 * folder's chain is walked once; a turn of the event loop every slice (a
 * scale checkout's 131k files held the backend 70 ms in one go).
 */
async function foldersOf(files: readonly string[]): Promise<string[]> {
  const folders = new Set<string>();
  let previous: string | undefined;
  for (const file of files) {
    await processTurns();
    const folder = posix.dirname(file);
    if (folder === previous) continue;
    previous = folder;
    for (let at = folder; at !== '.' && !folders.has(at);) {
      folders.add(at);
      at = posix.dirname(at);
    }
  }
  return [...folders].sort();
}

/** The appliers every YAML file of `tree` declares. */
export async function readGitOpsAppliers(
  tree: RepoTree,
): Promise<ClusterApplier[]> {
  const files = await tree.listFiles('');
  // Only the files git names mentioning their API groups (filesMentioning.ts).
  const candidates = await filesMentioning(
    tree,
    files.filter(path => /\.ya?ml$/.test(path)),
    APPLIER_API_GROUPS,
  );
  const texts = await readFiles(tree, candidates);
  const declaring = candidates.flatMap((path, i) => {
    const text = texts[i];
    return text === undefined ? [] : [{ path, text }];
  });
  return repositoryAppliers(declaring, {
    folders: await foldersOf(files),
    files,
  });
}

/**
 * A file a kustomization names (a helmCharts `valuesFile`, a
 * configMapGenerator's `files` entry), resolved as kustomize resolves its
 * entries (`entryPaths.ts`): read when it is a plain file of the
 * repository, otherwise why not, in the reviewer's words.
 */
import { isGpuInputError } from '@gpu-gitops/plugin-gpu-common';
import type { RepoTree } from '../repo/tree';
import { isRemoteEntry, resolveEntry } from './entryPaths';
import { kustomizationFolder } from './fileNames';

export type KustomizationFileText =
  { path: string; text: string } | { unread: string };

export async function readKustomizationFile(
  tree: RepoTree,
  kustomizationFile: string,
  name: string,
): Promise<KustomizationFileText> {
  const path = isRemoteEntry(name)
    ? undefined
    : resolveEntry(kustomizationFolder(kustomizationFile), name);
  if (path === undefined) return { unread: 'outside the repository' };
  let text: string | undefined;
  try {
    text = await tree.readFile(path);
  } catch (error) {
    // A symbolic link is never followed (repo/tree.ts).
    if (isGpuInputError(error)) return { unread: 'a symbolic link, not read' };
    throw error;
  }
  return text === undefined
    ? { unread: 'not in the repository' }
    : { path, text };
}

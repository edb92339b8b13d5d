/**
 * New files and folders are deployed only when a kustomization lists them:
 * these find the right kustomization and add the entry.
 */
import { posix } from 'path';
import { openKustomization, relativeTo } from '../kustomize/editKustomization';
import { addResource, removeResource } from '../kustomize/editResources';
import { readKustomization } from '../kustomize/kustomization';
import type { StagedTree } from './stagedTree';
import { YamlFile } from './yamlFile';

async function writeIfModified(
  staged: StagedTree,
  file: YamlFile,
): Promise<void> {
  const content = file.newContent();
  if (content !== undefined) await staged.write(file.path, content);
}

/**
 * Lists a file in the nearest kustomization between its folder and the
 * cluster kustomization (a `nodepools/kustomization.yaml` may own the pool
 * files), unless a listed folder already covers it.
 */
export async function listResource(
  staged: StagedTree,
  clusterKustomization: YamlFile,
  filePath: string,
): Promise<void> {
  const rootDir = posix.dirname(clusterKustomization.path);
  let dir = posix.dirname(filePath);
  while (dir !== rootDir && dir.startsWith(`${rootDir}/`)) {
    const candidate = posix.join(dir, 'kustomization.yaml');
    const text = await staged.read(candidate);
    if (text !== undefined) {
      const nested = openKustomization(candidate, text);
      addResource(nested, relativeTo(candidate, filePath));
      await writeIfModified(staged, nested);
      return;
    }
    dir = posix.dirname(dir);
  }
  const { resources } = readKustomization(
    clusterKustomization.path,
    clusterKustomization.firstMap().toJS(),
  );
  const covered = resources.some(listed => filePath.startsWith(`${listed}/`));
  if (!covered) {
    addResource(
      clusterKustomization,
      relativeTo(clusterKustomization.path, filePath),
    );
  }
}

/** Lists a newly created kustomization's folder in its parent's kustomization, when the parent has one. */
export async function listInParent(
  staged: StagedTree,
  kustomizationPath: string,
): Promise<void> {
  const dir = posix.dirname(kustomizationPath);
  const parentDir = posix.dirname(dir);
  if (parentDir === '.' || parentDir === dir) return;
  const parentPath = posix.join(parentDir, 'kustomization.yaml');
  const text = await staged.read(parentPath);
  if (text === undefined) return;
  const parent = openKustomization(parentPath, text);
  addResource(parent, posix.basename(dir));
  await writeIfModified(staged, parent);
}

/**
 * Removes a deleted file's entry from the nearest kustomization that lists
 * it (the inverse of `listResource`); a listed folder that covers it stays.
 */
export async function unlistResource(
  staged: StagedTree,
  rootKustomizationPath: string,
  filePath: string,
): Promise<void> {
  const rootDir = posix.dirname(rootKustomizationPath);
  let dir = posix.dirname(filePath);
  for (;;) {
    const candidate = posix.join(dir, 'kustomization.yaml');
    const text = await staged.read(candidate);
    if (text !== undefined) {
      const kustomization = YamlFile.parse(candidate, text);
      // The root (the GPU folder's) keeps its `resources: []`, as the bootstrap wrote it.
      removeResource(
        kustomization,
        relativeTo(candidate, filePath),
        candidate === rootKustomizationPath ? 'keep' : 'drop',
      );
      await writeIfModified(staged, kustomization);
      return;
    }
    if (dir === rootDir || !dir.startsWith(`${rootDir}/`)) return;
    dir = posix.dirname(dir);
  }
}

/** Removes a deleted kustomization's folder from its parent's `resources` (the inverse of `listInParent`). */
export async function unlistFromParent(
  staged: StagedTree,
  kustomizationPath: string,
): Promise<void> {
  const dir = posix.dirname(kustomizationPath);
  const parentDir = posix.dirname(dir);
  if (parentDir === '.' || parentDir === dir) return;
  const parentPath = posix.join(parentDir, 'kustomization.yaml');
  const text = await staged.read(parentPath);
  if (text === undefined) return;
  const parent = YamlFile.parse(parentPath, text);
  removeResource(parent, posix.basename(dir));
  await writeIfModified(staged, parent);
}

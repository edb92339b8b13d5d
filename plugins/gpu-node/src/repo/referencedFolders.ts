/**
 * The folders of the repository that some files say they depend on: the
 * folders their Argo CD Applications and Flux Kustomizations apply
 * (`clusterAppliers.ts`), and those their kustomizations build from
 * (`resources`, `bases`, `components`; a file entry by its folder, as a
 * cone-mode sparse checkout takes folders). Remote entries, and entries
 * that leave the repository, are not the repository's (`entryPaths.ts`);
 * an applier of the whole repository (`path: .`) or of a path outside it
 * names no folder.
 */
import { posix } from 'node:path';
import type { RepositoryFile } from '../changes/bootstrap/helmReleases/valuesConfigMaps';
import { isKustomizationFile } from '../kustomize/fileNames';
import {
  kustomizationValue,
  readKustomization,
} from '../kustomize/kustomization';
import { repositoryAppliers } from './clusterAppliers';

/** A kustomization entry naming a file (kustomize reads YAML or JSON resources), not a folder. */
const isFileEntry = (entry: string) => /\.(ya?ml|json)$/i.test(entry);

/** A folder inside the repository, not all of it (an applier's `path: ../x` leaves it). */
const isRepositoryFolder = (folder: string) =>
  folder !== '.' &&
  folder !== '' &&
  folder !== '..' &&
  !folder.startsWith('../');

/** The folders `files` depend on, sorted. */
export function referencedFolders(files: readonly RepositoryFile[]): string[] {
  const folders = new Set<string>();
  for (const applier of repositoryAppliers(files)) folders.add(applier.path);
  for (const { path, text } of files) {
    if (!isKustomizationFile(path)) continue;
    const kustomization = readKustomization(
      path,
      kustomizationValue(path, text),
    );
    for (const entry of kustomization.buildsFrom) {
      folders.add(isFileEntry(entry) ? posix.dirname(entry) : entry);
    }
  }
  return [...folders].filter(isRepositoryFolder).sort();
}

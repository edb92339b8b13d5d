/**
 * The folders of the repository that some files say they depend on: the
 * folders their Argo CD Applications and Flux Kustomizations apply
 * (`clusterAppliers.ts`; an Application's path may be a chart folder), those
 * their kustomizations build from (`resources`, `bases`, `components`; a
 * file entry by its folder, as a cone-mode sparse checkout takes folders),
 * the chart folders of the repository their Flux HelmReleases install and
 * their kustomize `helmCharts` entries inflate (`localChartReleases.ts`: an
 * umbrella chart's `values.yaml` decides what the GPU Operator runs), and
 * the folders their Argo CD ApplicationSets' git generators draw on
 * (`argoApplicationSets.ts`). Remote entries, and entries
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
import {
  fluxChartFolder,
  kustomizeChartFolders,
} from '../changes/bootstrap/helmReleases/localChartReleases';
import { isFluxHelmRelease } from '../changes/bootstrap/helmReleases/fluxHelmRelease';
import {
  generatedApplicationFolders,
  isArgoApplicationSet,
} from './argoApplicationSets';
import { mayDeclareApplier, objectAppliers } from './clusterAppliers';
import { asKubernetesObject, parseYamlDocuments } from './yamlObjects';

/**
 * The folders a file's objects name, each file parsed once: those its Argo
 * CD Applications and Flux Kustomizations apply, the chart folders its Flux
 * HelmReleases install, and the folders the Applications its
 * ApplicationSets generate apply lie in (a sparse checkout cannot list the
 * folders their globs match, so `objectAppliers` finds none there).
 */
function objectFolders({ path, text }: RepositoryFile): string[] {
  if (!mayDeclareApplier(text) && !text.includes('helm.toolkit.fluxcd.io')) {
    return [];
  }
  return parseYamlDocuments(path, text).documents.flatMap(doc => {
    const object = asKubernetesObject(doc.value);
    if (!object) return [];
    if (isFluxHelmRelease(object)) return fluxChartFolder(object) ?? [];
    if (isArgoApplicationSet(object)) {
      return generatedApplicationFolders(object);
    }
    return objectAppliers(path, object).map(applier => applier.path);
  });
}

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
  for (const file of files) {
    for (const folder of objectFolders(file)) folders.add(folder);
    if (!isKustomizationFile(file.path)) continue;
    const kustomization = readKustomization(
      file.path,
      kustomizationValue(file.path, file.text),
    );
    for (const entry of kustomization.buildsFrom) {
      folders.add(isFileEntry(entry) ? posix.dirname(entry) : entry);
    }
    for (const chart of kustomizeChartFolders(kustomization)) {
      folders.add(chart.dir);
    }
  }
  return [...folders].filter(isRepositoryFolder).sort();
}

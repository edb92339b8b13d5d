/**
 * The GitOps objects that apply a cluster's folder, or a part of it, from
 * this repository: Argo CD Applications (`spec.source.path`, or each
 * `spec.sources[].path`), the Applications an ApplicationSet's git
 * generator makes of the repository's folders (`argoApplicationSets.ts`)
 * and Flux Kustomizations (`spec.path`), in any file
 * of the cluster (`clusterReleaseFiles`): an app-of-apps keeps them beside
 * the cluster's folder, Flux in its `flux-system/`. One counts when its path
 * is the cluster's folder, above it or inside it.
 */
import { posix } from 'node:path';
import type { RepositoryFile } from '../helmReleases/valuesConfigMaps';
import {
  asKubernetesObject,
  getIn,
  parseYamlDocuments,
  type PlainObject,
} from '../../../repo/yamlObjects';
import {
  argoSources,
  isArgoApplication,
} from '../helmReleases/argoApplicationReleases';
import {
  generatedApplications,
  isArgoApplicationSet,
  type GitGenerator,
} from './argoApplicationSets';

/** An object that applies a folder of the repository. */
export interface ClusterApplier {
  tool: 'argo' | 'flux';
  /** Repository path of the file that declares it. */
  file: string;
  /** In the reviewer's words, e.g. "Argo CD Application `argocd/prod`". */
  object: string;
  /** The field that names the folder, e.g. `spec.source.path`. */
  field: string;
  /** The folder it applies, repository-relative ('.' for the top). */
  path: string;
  /** Argo CD directory source with `directory.recurse: true`. */
  recurse: boolean;
  /** An Application an ApplicationSet generates: the git generator that made it. */
  generator?: GitGenerator;
}

/** The repository's folders and files, for an ApplicationSet's globs. */
export interface RepositoryPaths {
  folders: readonly string[];
  files: readonly string[];
}

function isFluxKustomization(object: PlainObject): boolean {
  return (
    object.kind === 'Kustomization' &&
    typeof object.apiVersion === 'string' &&
    object.apiVersion.startsWith('kustomize.toolkit.fluxcd.io/')
  );
}

/** A path as written (`./clusters/prod/`) as a repository folder (`clusters/prod`). */
function folderOf(path: string): string {
  return posix.normalize(path.replace(/^\/+/, '')).replace(/\/+$/, '') || '.';
}

const nameOf = (object: PlainObject & { metadata: PlainObject }) =>
  [object.metadata.namespace, object.metadata.name]
    .filter(part => typeof part === 'string')
    .join('/');

function argoAppliers(
  file: string,
  object: PlainObject & { metadata: PlainObject },
): ClusterApplier[] {
  return argoSources(object).flatMap(([field, source]) => {
    const path = getIn(source, 'path');
    // A chart source has no path: it applies no folder of the repository.
    if (typeof path !== 'string' || getIn(source, 'chart') !== undefined) {
      return [];
    }
    return [
      {
        tool: 'argo' as const,
        file,
        object: `Argo CD Application \`${nameOf(object)}\``,
        field: `${field}.path`,
        path: folderOf(path),
        recurse: getIn(source, 'directory', 'recurse') === true,
      },
    ];
  });
}

function applicationSetAppliers(
  file: string,
  object: PlainObject & { metadata: PlainObject },
  paths: RepositoryPaths,
): ClusterApplier[] {
  const { applications } = generatedApplications(
    object,
    paths.folders,
    paths.files,
  );
  return applications.map(({ path, generator }) => ({
    tool: 'argo' as const,
    file,
    object: `Argo CD ApplicationSet \`${nameOf(object)}\``,
    field: `${generator.field} (its Application for \`${folderOf(path)}\`)`,
    path: folderOf(path),
    recurse: false,
    generator,
  }));
}

/** Whether folder `a` is `b` or holds it. */
export function holds(a: string, b: string): boolean {
  return a === '.' || a === b || b.startsWith(`${a}/`);
}

/** The appliers among `files` whose folder is `clusterFolder`, above it or inside it. */
export function clusterAppliers(
  files: RepositoryFile[],
  clusterFolder: string,
  paths: RepositoryPaths = { folders: [], files: [] },
): ClusterApplier[] {
  const found: ClusterApplier[] = [];
  for (const { path: file, text } of files) {
    if (!/argoproj\.io|kustomize\.toolkit\.fluxcd\.io/.test(text)) continue;
    for (const doc of parseYamlDocuments(file, text).documents) {
      const object = asKubernetesObject(doc.value);
      if (!object) continue;
      if (isArgoApplication(object)) {
        found.push(...argoAppliers(file, object));
      } else if (isArgoApplicationSet(object)) {
        found.push(...applicationSetAppliers(file, object, paths));
      } else if (isFluxKustomization(object)) {
        const path = getIn(object, 'spec', 'path');
        found.push({
          tool: 'flux',
          file,
          object: `Flux Kustomization \`${nameOf(object)}\``,
          field: 'spec.path',
          // Flux applies the source's root when spec.path is unset.
          path: folderOf(typeof path === 'string' ? path : '.'),
          recurse: false,
        });
      }
    }
  }
  return found.filter(
    a => holds(a.path, clusterFolder) || holds(clusterFolder, a.path),
  );
}

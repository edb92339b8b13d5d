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
import type { RepositoryFile } from '../changes/bootstrap/helmReleases/valuesConfigMaps';
import {
  asKubernetesObject,
  getIn,
  parseYamlDocuments,
  type PlainObject,
} from './yamlObjects';
import {
  argoSources,
  isArgoApplication,
} from '../changes/bootstrap/helmReleases/argoApplicationReleases';
import {
  generatedApplications,
  isArgoApplicationSet,
  type GitGenerator,
} from './argoApplicationSets';

/**
 * The GitOps applier a repository declares: `argo` (Argo CD) or `flux`.
 *
 * @public
 */
export type ApplierTool = 'argo' | 'flux';

/** An object that applies a folder of the repository. */
export interface ClusterApplier {
  tool: ApplierTool;
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
  /**
   * The cluster it applies to, when it names one (`destinationCluster`);
   * absent: the cluster it runs in, or one it names by address only.
   */
  destination?: string;
  /** It names another cluster by an address or a secret the repository cannot map to a cluster name. */
  destinationUnknown?: boolean;
}

/** Where an applier sends what it applies, as far as its object says. */
type Destination = Pick<ClusterApplier, 'destination' | 'destinationUnknown'>;

/**
 * Argo CD's own cluster, as `spec.destination` names it (argo-cd docs,
 * "Declarative Setup", Clusters: `in-cluster` is
 * `https://kubernetes.default.svc`).
 */
const ARGO_IN_CLUSTER_NAME = 'in-cluster';
const ARGO_IN_CLUSTER_SERVER = 'https://kubernetes.default.svc';

/**
 * Cluster API names a workload cluster's kubeconfig Secret
 * `<cluster>-kubeconfig` (cluster-api book, "Certificate Management" /
 * `util/secret` `Name(cluster, Kubeconfig)`), the Secret a Flux
 * Kustomization's `spec.kubeConfig.secretRef` names to apply there
 * (fluxcd kustomize-controller docs, "Remote Clusters / Cluster-API").
 */
const KUBECONFIG_SUFFIX = '-kubeconfig';

/** The cluster an Argo CD Application's `spec.destination` names (by name; a server address is another cluster, unnamed). */
function argoDestination(object: PlainObject): Destination {
  const name = getIn(object, 'spec', 'destination', 'name');
  if (typeof name === 'string' && name.includes('{{')) {
    // An ApplicationSet's template: each generated Application names its own.
    return { destinationUnknown: true };
  }
  if (typeof name === 'string' && name !== '') {
    return name === ARGO_IN_CLUSTER_NAME ? {} : { destination: name };
  }
  const server = getIn(object, 'spec', 'destination', 'server');
  return typeof server === 'string' &&
    server.replace(/\/+$/, '') !== ARGO_IN_CLUSTER_SERVER
    ? { destinationUnknown: true }
    : {};
}

/** The cluster a Flux Kustomization's `spec.kubeConfig` names (Cluster API's Secret name); none: Flux's own. */
function fluxDestination(object: PlainObject): Destination {
  const kubeConfig = getIn(object, 'spec', 'kubeConfig');
  if (kubeConfig === undefined) return {};
  const secret = getIn(kubeConfig, 'secretRef', 'name');
  return typeof secret === 'string' &&
    secret.endsWith(KUBECONFIG_SUFFIX) &&
    secret.length > KUBECONFIG_SUFFIX.length
    ? { destination: secret.slice(0, -KUBECONFIG_SUFFIX.length) }
    : { destinationUnknown: true };
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
        ...argoDestination(object),
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
    // The generated Application's destination is a template: which cluster it names is not read.
    ...argoDestination(getIn(object, 'spec', 'template') as PlainObject),
  }));
}

/** The API groups of the objects that apply folders: a file naming neither declares none. */
export const APPLIER_API_GROUPS = [
  'argoproj.io',
  'kustomize.toolkit.fluxcd.io',
];

/** Whether a file's text may declare an applier: it names one of their API groups. */
export const mayDeclareApplier = (text: string) =>
  APPLIER_API_GROUPS.some(group => text.includes(group));

/** Whether folder `a` is `b` or holds it. */
export function holds(a: string, b: string): boolean {
  return a === '.' || a === b || b.startsWith(`${a}/`);
}

/** The appliers one object of `file` declares: none unless it is an Argo CD Application or ApplicationSet or a Flux Kustomization. */
export function objectAppliers(
  file: string,
  object: NonNullable<ReturnType<typeof asKubernetesObject>>,
  paths: RepositoryPaths = { folders: [], files: [] },
): ClusterApplier[] {
  if (isArgoApplication(object)) return argoAppliers(file, object);
  if (isArgoApplicationSet(object)) {
    return applicationSetAppliers(file, object, paths);
  }
  if (!isFluxKustomization(object)) return [];
  const path = getIn(object, 'spec', 'path');
  return [
    {
      tool: 'flux',
      file,
      object: `Flux Kustomization \`${nameOf(object)}\``,
      field: 'spec.path',
      // Flux applies the source's root when spec.path is unset.
      path: folderOf(typeof path === 'string' ? path : '.'),
      recurse: false,
      ...fluxDestination(object),
    },
  ];
}

/** Every applier among `files`, whatever folder it applies. */
export function repositoryAppliers(
  files: readonly RepositoryFile[],
  paths: RepositoryPaths = { folders: [], files: [] },
): ClusterApplier[] {
  const found: ClusterApplier[] = [];
  for (const { path: file, text } of files) {
    if (!mayDeclareApplier(text)) continue;
    for (const doc of parseYamlDocuments(file, text).documents) {
      const object = asKubernetesObject(doc.value);
      if (object) found.push(...objectAppliers(file, object, paths));
    }
  }
  return found;
}

/** The appliers among `files` whose folder is `clusterFolder`, above it or inside it. */
export function clusterAppliers(
  files: RepositoryFile[],
  clusterFolder: string,
  paths: RepositoryPaths = { folders: [], files: [] },
): ClusterApplier[] {
  return repositoryAppliers(files, paths).filter(
    a => holds(a.path, clusterFolder) || holds(clusterFolder, a.path),
  );
}

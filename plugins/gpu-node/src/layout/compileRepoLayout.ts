/**
 * The repository layout compiled for reading: which layout entry a path
 * belongs to, and for which cluster, namespace and name. The whole-tree
 * reader (`readRepoState`) and the backend's allocation index both ask it,
 * so they agree on what every file of a GitOps repository is.
 */
import { posix } from 'path';
import {
  clusterScopePath,
  layoutEntryPattern,
  resolveLayout,
  type LayoutInput,
  type ResolvedRepoLayout,
} from './layout';
import type { EntryPattern } from './layoutPattern';

/**
 *  What a repository path holds, by the layout.
 *
 * @public
 */
export type LayoutPlace =
  /** The cluster's GPU kustomization: present once the cluster is bootstrapped. */
  | { entry: 'clusterKustomization'; cluster: string }
  | { entry: 'migConfig'; cluster: string }
  | { entry: 'devicePluginConfig'; cluster: string; config: string }
  /** Any YAML file of the cluster's pool folder (a NodePool file holds its NodeOverlays too). */
  | { entry: 'nodePool'; cluster: string }
  | { entry: 'request'; namespace: string; name: string }
  /**
   * Any YAML file below the workload folders: `folder` is the workload folder
   * it belongs to (one workload = one folder: manifests, patch and
   * kustomization), `namespace` the one the layout gives it.
   */
  | { entry: 'workloadDir'; folder: string; namespace?: string }
  /**
   * Any other YAML file of the cluster's folder (`clusterScopePath`): where
   * hand-written NodePools, pools the product adopted where they live, and
   * hand-written device-plugin / mig-parted ConfigMaps are.
   */
  | { entry: 'clusterFolder'; cluster: string };

/** @public */
export interface CompiledRepoLayout {
  readonly layout: ResolvedRepoLayout;
  /** The clusters whose folders `place` recognises, in the order it tries them. */
  readonly clusters: readonly string[];
  /** What `path` is in the layout, or undefined when the layout has no place for it. */
  place(path: string): LayoutPlace | undefined;
  /** The device-plugin config name `path` holds for `cluster`, if it is one. */
  devicePluginConfigName(cluster: string, path: string): string | undefined;
  /** The namespace a workload file's folder stands for (`apps/<namespace>/…`), if it is one. */
  workloadNamespace(path: string): string | undefined;
  /** The folder below which `cluster`'s NodePool files live (ending in `/`, or empty). */
  poolPrefix(cluster: string): string;
  /** `cluster`'s folder (`clusterScopePath`, ending in `/`, or empty): every file of it has a place. */
  clusterFolder(cluster: string): string;
  /** The folder below which every workload folder lives (ending in `/`, or empty). */
  readonly workloadsPrefix: string;
  /** The folder below which the stored requests live (ending in `/`, or empty). */
  readonly requestsPrefix: string;
}

const YAML_FILE = /\.ya?ml$/i;

interface ClusterPaths {
  name: string;
  /** The cluster's folder, ending in `/` (or empty when it is the repository). */
  scope: string;
  kustomization: string;
  migConfig: string;
  poolPrefix: string;
  devicePluginConfig: EntryPattern;
}

/** The patterns of the entries that lie outside every cluster's folder. */
interface SharedPatterns {
  workloadDir: EntryPattern;
  request: EntryPattern;
}

/**
 * Compiles `layout` for the clusters named (their folders are the only
 * cluster folders `place` recognises; the first cluster wins when two share
 * a folder).
 *
 * @public
 */
export function compileRepoLayout(
  layout: LayoutInput,
  clusters: readonly string[] = [],
): CompiledRepoLayout {
  const resolved = resolveLayout(layout);
  const clusterPaths = clusters.map(name =>
    compileClusterPaths(resolved, name),
  );
  const shared: SharedPatterns = {
    workloadDir: layoutEntryPattern(resolved, 'workloadDir', {}),
    request: layoutEntryPattern(resolved, 'request', {}),
  };
  const clusterOf = (name: string) => {
    const found = clusterPaths.find(c => c.name === name);
    if (!found) throw new Error(`cluster "${name}" was not compiled`);
    return found;
  };
  return {
    layout: resolved,
    clusters: [...clusters],
    workloadsPrefix: shared.workloadDir.prefix,
    requestsPrefix: shared.request.prefix,
    poolPrefix: cluster => clusterOf(cluster).poolPrefix,
    clusterFolder: cluster => clusterOf(cluster).scope,
    devicePluginConfigName: (cluster, path) =>
      clusterOf(cluster).devicePluginConfig.match(path)?.values.config,
    workloadNamespace: path =>
      shared.workloadDir.match(path, { folder: true })?.values.namespace,
    place: path => placeOf(path, clusterPaths, shared),
  };
}

/** The paths of one cluster's entries, rendered once. */
function compileClusterPaths(
  resolved: ResolvedRepoLayout,
  name: string,
): ClusterPaths {
  const known = { cluster: name };
  const scope = clusterScopePath(resolved, name);
  return {
    name,
    scope: scope === '.' ? '' : `${scope}/`,
    kustomization: resolved.render('clusterKustomization', known),
    migConfig: resolved.render('migConfig', known),
    // The pool folder: what the nodePool template renders to before {{pool}}.
    poolPrefix: layoutEntryPattern(resolved, 'nodePool', known).prefix,
    devicePluginConfig: layoutEntryPattern(
      resolved,
      'devicePluginConfig',
      known,
    ),
  };
}

/**
 * What `path` is: a cluster's own entry first, then a stored request or a
 * workload folder's file, and last any other file of a cluster's folder (so
 * a workload folder or request inside a cluster's folder stays one).
 */
function placeOf(
  path: string,
  clusterPaths: readonly ClusterPaths[],
  shared: SharedPatterns,
): LayoutPlace | undefined {
  for (const c of clusterPaths) {
    const found = placeInCluster(c, path);
    if (found) return found;
  }
  const outside = placeOutsideClusters(path, shared);
  if (outside) return outside;
  const folder = clusterPaths.find(
    c => path.startsWith(c.scope) && YAML_FILE.test(path),
  );
  return folder ? { entry: 'clusterFolder', cluster: folder.name } : undefined;
}

/** One of the cluster's GPU entries: its kustomization, mig-parted config, a device-plugin config, a pool file. */
function placeInCluster(
  c: ClusterPaths,
  path: string,
): LayoutPlace | undefined {
  if (path === c.migConfig) return { entry: 'migConfig', cluster: c.name };
  if (path === c.kustomization) {
    return { entry: 'clusterKustomization', cluster: c.name };
  }
  const config = c.devicePluginConfig.match(path)?.values.config;
  if (config !== undefined) {
    return { entry: 'devicePluginConfig', cluster: c.name, config };
  }
  if (path.startsWith(c.poolPrefix) && YAML_FILE.test(path)) {
    return { entry: 'nodePool', cluster: c.name };
  }
  return undefined;
}

/** A stored request, or a YAML file of a workload folder. */
function placeOutsideClusters(
  path: string,
  { workloadDir, request }: SharedPatterns,
): LayoutPlace | undefined {
  const stored = request.match(path)?.values;
  if (stored) {
    return { entry: 'request', namespace: stored.namespace, name: stored.name };
  }
  if (!path.startsWith(workloadDir.prefix) || !YAML_FILE.test(path)) {
    return undefined;
  }
  const folder = workloadDir.match(path, { folder: true });
  // A file outside any workload folder's shape stands for its own folder.
  return folder
    ? {
        entry: 'workloadDir',
        folder: folder.matched,
        namespace: folder.values.namespace,
      }
    : { entry: 'workloadDir', folder: posix.dirname(path) };
}

/**
 * Which part of the GitOps repository a path belongs to, by the repository
 * layout (gpu-node's path templates): a cluster's pools, device-plugin
 * configs or mig-parted config, a workload folder, or a stored request.
 * The templates are turned into regular expressions once (classifying 40k
 * paths on a cold start must not render templates per path).
 */
import { posix } from 'node:path';
import {
  clusterKustomizationPath,
  layoutPrefix,
  migConfigPath,
  resolveLayout,
  type LayoutEntry,
  type LayoutInput,
  type ResolvedRepoLayout,
} from '@gpu-gitops/plugin-gpu-node';

export type RepoFileKind =
  | { kind: 'pool'; cluster: string }
  | { kind: 'devicePluginConfig'; cluster: string; name: string }
  | { kind: 'migConfig'; cluster: string }
  /** The cluster's GPU kustomization: present once the cluster is bootstrapped. */
  | { kind: 'clusterSetup'; cluster: string }
  | { kind: 'workload'; folder: string }
  | { kind: 'request' };

const YAML = /\.ya?ml$/i;

function folderOf(prefix: string): string {
  return prefix.replace(/\/+$/, '');
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/** A valid name for every variable kind, unlikely in real paths. */
const sentinel = (variable: string) => `zz0${variable.toLowerCase()}0zz`;

/**
 * A regular expression matching the paths `entry` renders to with `known`
 * variables fixed; the others become capture groups named after them.
 */
function layoutPattern(
  layout: ResolvedRepoLayout,
  entry: LayoutEntry,
  variables: string[],
  known: Record<string, string>,
): string {
  const values: Record<string, string> = { ...known };
  for (const v of variables) values[v] ??= sentinel(v);
  let pattern = escapeRegExp(layout.render(entry, values));
  for (const v of variables) {
    if (known[v] !== undefined) continue;
    // A variable used twice must have one value: a backreference after the first.
    let first = true;
    pattern = pattern.replace(
      new RegExp(escapeRegExp(sentinel(v)), 'g'),
      () => {
        const group = first ? `(?<${v}>[^/]+)` : `\\k<${v}>`;
        first = false;
        return group;
      },
    );
  }
  return pattern;
}

export class RepoFolders {
  readonly layout: ResolvedRepoLayout;
  private readonly clusters: {
    name: string;
    poolPrefix: string;
    migPath: string;
    kustomizationPath: string;
    devicePluginConfig: RegExp;
  }[];
  private readonly appsPrefix: string;
  private readonly workloadDir: RegExp;
  private readonly request: RegExp;
  /** Folders the index reads ('' = the whole repository). */
  readonly folders: string[];

  constructor(layout: LayoutInput, clusterNames: string[]) {
    this.layout = resolveLayout(layout);
    this.clusters = clusterNames.map(name => ({
      name,
      poolPrefix: layoutPrefix(
        this.layout,
        'nodePool',
        { cluster: name },
        'pool',
      ),
      migPath: migConfigPath(this.layout, name),
      kustomizationPath: clusterKustomizationPath(this.layout, name),
      devicePluginConfig: new RegExp(
        `^${layoutPattern(
          this.layout,
          'devicePluginConfig',
          ['cluster', 'config'],
          { cluster: name },
        )}$`,
      ),
    }));
    this.appsPrefix = layoutPrefix(this.layout, 'workloadDir', {}, 'namespace');
    // The folder is the matched part; files may sit below it.
    this.workloadDir = new RegExp(
      `^(?<folder>${layoutPattern(
        this.layout,
        'workloadDir',
        ['namespace', 'component'],
        {},
      )})(?:/.*)?$`,
    );
    this.request = new RegExp(
      `^${layoutPattern(this.layout, 'request', ['namespace', 'name'], {})}$`,
    );
    const folders = new Set<string>([
      folderOf(this.appsPrefix),
      folderOf(layoutPrefix(this.layout, 'request', {}, 'namespace')),
    ]);
    for (const c of this.clusters) {
      folders.add(folderOf(c.poolPrefix));
      folders.add(
        folderOf(
          layoutPrefix(
            this.layout,
            'devicePluginConfig',
            { cluster: c.name },
            'config',
          ),
        ),
      );
      folders.add(posix.dirname(c.migPath));
      // A file, not a folder: only whether it exists matters.
      folders.add(c.kustomizationPath);
    }
    this.folders = folders.has('') ? [''] : [...folders].sort();
  }

  devicePluginConfigPath(cluster: string, name: string): string {
    return this.layout.render('devicePluginConfig', { cluster, config: name });
  }

  /** The GPU kustomization of `cluster`, which exists once the cluster is bootstrapped. */
  clusterKustomizationPath(cluster: string): string {
    return this.clusters.find(c => c.name === cluster)!.kustomizationPath;
  }

  migConfigPath(cluster: string): string {
    return this.clusters.find(c => c.name === cluster)!.migPath;
  }

  /** The namespace a workload file's folder stands for in the layout (`apps/<namespace>/…`), if it matches. */
  workloadNamespace(path: string): string | undefined {
    return this.workloadDir.exec(path)?.groups?.namespace;
  }

  /** What `path` holds for the index, or undefined when the index ignores it. */
  classify(path: string): RepoFileKind | undefined {
    for (const c of this.clusters) {
      if (path === c.migPath) return { kind: 'migConfig', cluster: c.name };
      if (path === c.kustomizationPath) {
        return { kind: 'clusterSetup', cluster: c.name };
      }
      const config = c.devicePluginConfig.exec(path)?.groups?.config;
      if (config !== undefined) {
        return { kind: 'devicePluginConfig', cluster: c.name, name: config };
      }
      if (path.startsWith(c.poolPrefix) && YAML.test(path)) {
        return { kind: 'pool', cluster: c.name };
      }
    }
    if (this.request.test(path)) return { kind: 'request' };
    if (path.startsWith(this.appsPrefix) && YAML.test(path)) {
      // One workload = one folder (its manifests, patch and kustomization).
      const folder =
        this.workloadDir.exec(path)?.groups?.folder ?? posix.dirname(path);
      return { kind: 'workload', folder };
    }
    return undefined;
  }
}

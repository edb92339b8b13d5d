/**
 * Which part of the GitOps repository a path belongs to, by the repository
 * layout (gpu-node's path templates): a cluster's pools, device-plugin
 * configs or mig-parted config, a workload folder, or a stored request.
 */
import { posix } from 'node:path';
import {
  devicePluginConfigPath,
  layoutPrefix,
  matchLayoutPath,
  matchLayoutValues,
  migConfigPath,
  resolveLayout,
  type LayoutInput,
  type ResolvedRepoLayout,
} from '@gpu-gitops/plugin-gpu-node';

export type RepoFileKind =
  | { kind: 'pool'; cluster: string }
  | { kind: 'devicePluginConfig'; cluster: string; name: string }
  | { kind: 'migConfig'; cluster: string }
  | { kind: 'workload'; folder: string }
  | { kind: 'request' };

const YAML = /\.ya?ml$/i;

function folderOf(prefix: string): string {
  return prefix.replace(/\/+$/, '');
}

export class RepoFolders {
  readonly layout: ResolvedRepoLayout;
  private readonly clusters: {
    name: string;
    poolPrefix: string;
    migPath: string;
  }[];
  private readonly appsPrefix: string;
  private readonly requestPrefix: string;
  /** Folders the index checks out and diffs ('' = the whole repository). */
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
    }));
    this.appsPrefix = layoutPrefix(this.layout, 'workloadDir', {}, 'namespace');
    this.requestPrefix = layoutPrefix(this.layout, 'request', {}, 'namespace');
    const folders = new Set<string>([
      folderOf(this.appsPrefix),
      folderOf(this.requestPrefix),
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
    }
    this.folders = folders.has('') ? [''] : [...folders].sort();
  }

  devicePluginConfigPath(cluster: string, name: string): string {
    return devicePluginConfigPath(this.layout, cluster, name);
  }

  migConfigPath(cluster: string): string {
    return this.clusters.find(c => c.name === cluster)!.migPath;
  }

  /** What `path` holds for the index, or undefined when the index ignores it. */
  classify(path: string): RepoFileKind | undefined {
    for (const c of this.clusters) {
      if (path === c.migPath) return { kind: 'migConfig', cluster: c.name };
      const config = matchLayoutPath(
        this.layout,
        'devicePluginConfig',
        { cluster: c.name },
        'config',
        path,
      );
      if (config !== undefined) {
        return { kind: 'devicePluginConfig', cluster: c.name, name: config };
      }
      if (path.startsWith(c.poolPrefix) && YAML.test(path)) {
        return { kind: 'pool', cluster: c.name };
      }
    }
    if (matchLayoutValues(this.layout, 'request', {}, path)) {
      return { kind: 'request' };
    }
    if (path.startsWith(this.appsPrefix) && YAML.test(path)) {
      // One workload = one folder (its manifests, patch and kustomization).
      const values = matchLayoutValues(this.layout, 'workloadDir', {}, path, {
        folder: true,
      });
      let folder = posix.dirname(path);
      if (values?.namespace && values.component) {
        try {
          folder = this.layout.render('workloadDir', {
            namespace: values.namespace,
            component: values.component,
          });
        } catch {
          // Not a valid name for our layout: keep the file's own folder.
        }
      }
      return { kind: 'workload', folder };
    }
    return undefined;
  }
}

/**
 * The allocation index of the GitOps repository: pools (with their
 * device-plugin and MIG configs), GPU workloads and the stored GpuRequests,
 * kept per file (or per workload folder) with the blob sha it was parsed
 * from. A refresh asks git which files changed since the last indexed commit
 * (`git diff --raw`) and re-parses only those, plus the pools whose
 * device-plugin / MIG config entry changed.
 */
import {
  type ClusterProfile,
  type GpuCatalog,
  type GpuRequest,
  type PoolState,
  type RepoState,
  type WorkloadState,
} from '@gpu-gitops/plugin-gpu-common';
import {
  FsRepoTree,
  type LayoutInput,
  type SkippedFile,
} from '@gpu-gitops/plugin-gpu-node';
import {
  parseDevicePluginConfigFile,
  parseMigConfigFile,
  parsePoolFile,
  parseRequestFile,
  parseWorkloadFolder,
  type ParseContext,
} from './fileParsers';
import type { BlobChanges, RepoSource } from './gitSnapshot';
import { RepoFolders } from './repoFolders';
import { compareText } from '../compareText';

export interface RepoIndexOptions {
  clusters: ClusterProfile[];
  defaultCluster: string;
  catalog: GpuCatalog;
  layout?: LayoutInput;
}

/** A GPU workload with the cluster its pool belongs to. */
export interface IndexedWorkload extends WorkloadState {
  cluster: string;
}

export interface StoredRequest {
  path: string;
  request: GpuRequest;
}

export interface ClusterIndex {
  profile: ClusterProfile;
  /** The cluster's pools and configs plus the workloads on its pools, as the planner reads them. */
  repoState: RepoState;
}

/** One consistent, immutable view of the repository at `revision`. */
export interface IndexSnapshot {
  revision?: string;
  clusters: Map<string, ClusterIndex>;
  workloads: IndexedWorkload[];
  /** Workloads by their `backstage.io/kubernetes-id` label. */
  workloadsByKubernetesId: Map<string, IndexedWorkload[]>;
  /** Stored requests by `<namespace>/<name>`. */
  requests: Map<string, StoredRequest>;
  /** Files the reader could not use, and why. */
  skipped: SkippedFile[];
}

export interface RefreshResult {
  revision: string;
  /** True when every file was listed (first refresh, or the old commit is gone). */
  full: boolean;
  /** Files git reported as changed (all files on a full refresh). */
  changedPaths: string[];
  /** Files read and parsed by this refresh. */
  parsedPaths: string[];
}

interface PoolFile {
  cluster: string;
  pools: PoolState[];
  devicePluginConfigs: string[];
  migConfigs: string[];
  skipped: SkippedFile[];
}

interface ConfigFile {
  cluster: string;
  text: string;
  configs: Record<string, unknown>;
  skipped: SkippedFile[];
}

const DEVICE_PLUGIN_LABEL =
  /nvidia\.com\/device-plugin\.config['"]?\s*:\s*['"]?([A-Za-z0-9._-]+)/g;
const MIG_LABEL =
  /nvidia\.com\/mig\.config['"]?\s*:\s*['"]?([A-Za-z0-9._+-]+)/g;

function labelValues(text: string, pattern: RegExp): string[] {
  return [...new Set([...text.matchAll(pattern)].map(m => m[1]))];
}

function byKey<T>(key: (value: T) => string) {
  return (a: T, b: T) => compareText(key(a), key(b));
}

export const emptySnapshot = (): IndexSnapshot => ({
  clusters: new Map(),
  workloads: [],
  workloadsByKubernetesId: new Map(),
  requests: new Map(),
  skipped: [],
});

export class RepoIndex {
  private readonly folders: RepoFolders;
  private readonly ctx: ParseContext;
  private readonly profiles: ClusterProfile[];
  private readonly defaultCluster: string;
  private revision?: string;
  private blobs = new Map<string, string>();
  private readonly poolFiles = new Map<string, PoolFile>();
  private readonly devicePluginFiles = new Map<string, ConfigFile>();
  private readonly migFiles = new Map<string, ConfigFile>();
  /** Workload folder -> its YAML files. */
  private readonly folderFiles = new Map<string, Set<string>>();
  private readonly workloadFolders = new Map<
    string,
    { workloads: WorkloadState[]; skipped: SkippedFile[] }
  >();
  private readonly requestFiles = new Map<
    string,
    { request?: GpuRequest; skipped: SkippedFile[] }
  >();
  private current: IndexSnapshot = emptySnapshot();
  private running: Promise<unknown> = Promise.resolve();

  private readonly source: RepoSource;

  /**
   * `source` may be a function of the folders the index reads, so a sparse
   * checkout can be limited to them.
   */
  constructor(
    options: RepoIndexOptions,
    source: RepoSource | ((folders: string[]) => RepoSource),
  ) {
    this.profiles = [...options.clusters];
    this.defaultCluster = options.defaultCluster;
    this.folders = new RepoFolders(
      options.layout,
      this.profiles.map(c => c.name),
    );
    this.ctx = { layout: this.folders.layout, catalog: options.catalog };
    this.source =
      typeof source === 'function' ? source(this.folders.folders) : source;
  }

  /** Folders the index reads (for a sparse checkout). */
  get repoFolders(): string[] {
    return this.folders.folders;
  }

  snapshot(): IndexSnapshot {
    return this.current;
  }

  /** Fetches the repository and re-reads what changed. Calls never overlap. */
  refresh(): Promise<RefreshResult> {
    const next = this.running.then(() => this.refreshNow());
    this.running = next.catch(() => undefined);
    return next;
  }

  private async refreshNow(): Promise<RefreshResult> {
    const { workDir, revision } = await this.source.sync();
    if (revision === this.revision) {
      return { revision, full: false, changedPaths: [], parsedPaths: [] };
    }
    const folders = this.folders.folders;
    let changes: BlobChanges | undefined;
    let full = this.revision === undefined;
    if (!full) {
      try {
        changes = await this.source.changedBlobs(
          this.revision!,
          revision,
          folders,
        );
      } catch {
        // The old commit is gone (history rewritten, cache re-cloned): list everything.
        full = true;
      }
    }
    if (!changes) {
      const listed = await this.source.listBlobs(revision, folders);
      changes = new Map();
      for (const [path, sha] of listed) {
        if (this.blobs.get(path) !== sha) changes.set(path, sha);
      }
      for (const path of this.blobs.keys()) {
        if (!listed.has(path)) changes.set(path, undefined);
      }
    }

    const tree = new FsRepoTree(workDir);
    const parsedPaths: string[] = [];
    const read = async (path: string) => {
      parsedPaths.push(path);
      return (await tree.readFile(path)) ?? '';
    };

    const dirtyDevicePlugin = new Set<string>();
    const dirtyMig = new Set<string>();
    const dirtyPools = new Set<string>();
    const dirtyFolders = new Set<string>();
    const dirtyRequests = new Set<string>();
    for (const [path, sha] of changes) {
      if (sha === undefined) this.blobs.delete(path);
      else this.blobs.set(path, sha);
      const kind = this.folders.classify(path);
      switch (kind?.kind) {
        case 'devicePluginConfig':
          dirtyDevicePlugin.add(path);
          break;
        case 'migConfig':
          dirtyMig.add(kind.cluster);
          break;
        case 'pool':
          dirtyPools.add(path);
          break;
        case 'workload': {
          const files = this.folderFiles.get(kind.folder) ?? new Set();
          if (sha === undefined) files.delete(path);
          else files.add(path);
          this.folderFiles.set(kind.folder, files);
          dirtyFolders.add(kind.folder);
          break;
        }
        case 'request':
          dirtyRequests.add(path);
          break;
        default:
      }
    }

    // Device-plugin configs first: pools infer sharing details from them.
    const changedConfigs = new Set<string>();
    for (const path of dirtyDevicePlugin) {
      const kind = this.folders.classify(path) as {
        cluster: string;
        name: string;
      };
      const before = this.devicePluginFiles.get(path);
      if (!this.blobs.has(path)) {
        this.devicePluginFiles.delete(path);
      } else {
        const text = await read(path);
        const parsed = await parseDevicePluginConfigFile(
          this.ctx,
          kind.cluster,
          path,
          text,
        );
        this.devicePluginFiles.set(path, {
          cluster: kind.cluster,
          text,
          ...parsed,
        });
      }
      const after = this.devicePluginFiles.get(path);
      if (JSON.stringify(before?.configs) !== JSON.stringify(after?.configs)) {
        changedConfigs.add(`${kind.cluster}/dp/${kind.name}`);
      }
    }
    for (const cluster of dirtyMig) {
      const path = this.folders.migConfigPath(cluster);
      const before = this.migFiles.get(cluster)?.configs ?? {};
      if (!this.blobs.has(path)) {
        this.migFiles.delete(cluster);
      } else {
        const text = await read(path);
        const parsed = await parseMigConfigFile(this.ctx, cluster, path, text);
        this.migFiles.set(cluster, { cluster, text, ...parsed });
      }
      const after = this.migFiles.get(cluster)?.configs ?? {};
      for (const name of new Set([
        ...Object.keys(before),
        ...Object.keys(after),
      ])) {
        if (JSON.stringify(before[name]) !== JSON.stringify(after[name])) {
          changedConfigs.add(`${cluster}/mig/${name}`);
        }
      }
    }

    if (changedConfigs.size > 0) {
      for (const [path, file] of this.poolFiles) {
        if (
          file.devicePluginConfigs.some(n =>
            changedConfigs.has(`${file.cluster}/dp/${n}`),
          ) ||
          file.migConfigs.some(n =>
            changedConfigs.has(`${file.cluster}/mig/${n}`),
          )
        ) {
          dirtyPools.add(path);
        }
      }
    }
    for (const path of dirtyPools) {
      if (!this.blobs.has(path)) {
        this.poolFiles.delete(path);
        continue;
      }
      const kind = this.folders.classify(path) as { cluster: string };
      const text = await read(path);
      this.poolFiles.set(path, await this.parsePool(kind.cluster, path, text));
    }

    for (const folder of dirtyFolders) {
      const files = [...(this.folderFiles.get(folder) ?? [])].sort();
      if (files.length === 0) {
        this.folderFiles.delete(folder);
        this.workloadFolders.delete(folder);
        continue;
      }
      const texts: Record<string, string> = {};
      for (const file of files) texts[file] = await read(file);
      this.workloadFolders.set(
        folder,
        await parseWorkloadFolder(this.ctx, folder, texts),
      );
    }

    for (const path of dirtyRequests) {
      if (!this.blobs.has(path)) this.requestFiles.delete(path);
      else
        this.requestFiles.set(path, parseRequestFile(path, await read(path)));
    }

    this.revision = revision;
    this.current = this.buildSnapshot(revision);
    return {
      revision,
      full,
      changedPaths: [...changes.keys()].sort(),
      parsedPaths,
    };
  }

  /**
   * Parses a NodePool file with just the config entries its labels name. The
   * labels are found by a quick text scan and checked against the parse; a
   * miss (unusual YAML) is parsed again with the right entries.
   */
  private async parsePool(
    cluster: string,
    path: string,
    text: string,
  ): Promise<PoolFile> {
    const guessedDp = labelValues(text, DEVICE_PLUGIN_LABEL);
    const guessedMig = labelValues(text, MIG_LABEL);
    const parse = (dpNames: string[], migNames: string[]) =>
      parsePoolFile(
        this.ctx,
        cluster,
        path,
        text,
        this.configFilesFor(cluster, dpNames, migNames),
      );
    let parsed = await parse(guessedDp, guessedMig);
    const dpNames = [
      ...new Set([
        ...guessedDp,
        ...parsed.pools.flatMap(p => p.deviceConfigName ?? []),
      ]),
    ];
    const migNames = [
      ...new Set([
        ...guessedMig,
        ...parsed.pools.flatMap(p => p.migConfigName ?? []),
      ]),
    ];
    if (
      dpNames.length !== guessedDp.length ||
      migNames.length !== guessedMig.length
    ) {
      parsed = await parse(dpNames, migNames);
    }
    return {
      cluster,
      pools: parsed.pools,
      devicePluginConfigs: dpNames,
      migConfigs: migNames,
      skipped: parsed.skipped,
    };
  }

  /** The config files a pool's parse needs: its device-plugin configs, and its MIG entries only. */
  private configFilesFor(
    cluster: string,
    dpNames: string[],
    migNames: string[],
  ): Record<string, string> {
    const files: Record<string, string> = {};
    for (const name of dpNames) {
      const path = this.folders.devicePluginConfigPath(cluster, name);
      const file = this.devicePluginFiles.get(path);
      if (file) files[path] = file.text;
    }
    const mig = this.migFiles.get(cluster)?.configs;
    const entries = Object.fromEntries(
      migNames.filter(n => mig && n in mig).map(n => [n, mig![n]]),
    );
    if (Object.keys(entries).length > 0) {
      // JSON is YAML: a one-entry mig-parted config, far cheaper than the whole file.
      files[this.folders.migConfigPath(cluster)] = JSON.stringify({
        version: 'v1',
        'mig-configs': entries,
      });
    }
    return files;
  }

  private buildSnapshot(revision: string): IndexSnapshot {
    const skipped: SkippedFile[] = [];
    const clusters = new Map<string, ClusterIndex>();
    // The default cluster first: a pool name found in several clusters maps there.
    const ordered = [
      ...this.profiles.filter(p => p.name === this.defaultCluster),
      ...this.profiles.filter(p => p.name !== this.defaultCluster),
    ];
    const poolCluster = new Map<string, string>();
    const sharedPoolByResource = new Map<string, string>();
    for (const profile of ordered) {
      const pools: PoolState[] = [];
      const devicePluginConfigs: Record<string, unknown> = {};
      for (const file of this.poolFiles.values()) {
        if (file.cluster === profile.name) pools.push(...file.pools);
      }
      for (const file of this.devicePluginFiles.values()) {
        if (file.cluster === profile.name) {
          Object.assign(devicePluginConfigs, file.configs);
        }
      }
      pools.sort(byKey(p => p.path));
      for (const pool of pools) {
        if (!poolCluster.has(pool.name))
          poolCluster.set(pool.name, profile.name);
        if (
          pool.resourceName !== 'nvidia.com/gpu' &&
          !sharedPoolByResource.has(pool.resourceName)
        ) {
          sharedPoolByResource.set(pool.resourceName, pool.name);
        }
      }
      pools.sort(byKey(p => p.name));
      clusters.set(profile.name, {
        profile,
        repoState: {
          pools,
          devicePluginConfigs,
          migConfigs: { ...(this.migFiles.get(profile.name)?.configs ?? {}) },
          workloads: [],
        },
      });
    }
    for (const file of [
      ...this.poolFiles.values(),
      ...this.devicePluginFiles.values(),
      ...this.migFiles.values(),
    ]) {
      skipped.push(...file.skipped);
    }

    const workloads: IndexedWorkload[] = [];
    const seen = new Set<string>();
    for (const folder of this.workloadFolders.values()) {
      skipped.push(...folder.skipped);
      for (const workload of folder.workloads) {
        if (seen.has(workload.id)) continue;
        seen.add(workload.id);
        // Same fallback as readRepoState: a shared resource name names its pool.
        const pool =
          workload.pool ?? sharedPoolByResource.get(workload.resourceName);
        const cluster = (pool && poolCluster.get(pool)) ?? this.defaultCluster;
        const indexed: IndexedWorkload = { ...workload, cluster };
        if (pool) indexed.pool = pool;
        workloads.push(indexed);
      }
    }
    workloads.sort(byKey(w => w.id));
    const workloadsByKubernetesId = new Map<string, IndexedWorkload[]>();
    for (const workload of workloads) {
      clusters.get(workload.cluster)?.repoState.workloads.push(workload);
      if (workload.kubernetesId) {
        const list = workloadsByKubernetesId.get(workload.kubernetesId) ?? [];
        list.push(workload);
        workloadsByKubernetesId.set(workload.kubernetesId, list);
      }
    }

    const requests = new Map<string, StoredRequest>();
    for (const [path, file] of this.requestFiles) {
      skipped.push(...file.skipped);
      if (!file.request) continue;
      const { namespace, name } = file.request.metadata;
      requests.set(`${namespace}/${name}`, { path, request: file.request });
    }
    skipped.sort(byKey(s => s.path));
    return {
      revision,
      clusters,
      workloads,
      workloadsByKubernetesId,
      requests,
      skipped,
    };
  }
}

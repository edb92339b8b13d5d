/**
 * The allocation index of the GitOps repository: pools (with their
 * device-plugin and MIG configs), GPU workloads, every workload object (GPU
 * or not: what a request can give GPUs to) and the stored GpuRequests, kept
 * per file (or per workload folder) with the blob sha it was parsed
 * from. A refresh asks git which files changed since the last indexed commit
 * (`git diff --raw`) and re-parses only those, plus the pools whose
 * device-plugin / MIG config entry changed.
 */
import { createHash } from 'node:crypto';
import { promises as fs } from 'node:fs';
import { dirname } from 'node:path';
import {
  compareStrings,
  type ClusterProfile,
  type GpuCatalog,
  type GpuRequest,
  type PoolState,
  type RepoState,
  type RepositoryWorkload,
  type WorkloadState,
} from '@gpu-gitops/plugin-gpu-common';
import type { LayoutInput, SkippedFile } from '@gpu-gitops/plugin-gpu-node';
import {
  parseClusterConfigFile,
  parsePoolFiles,
  parseRequestFile,
  parseWorkloadFolders,
  type ParseContext,
  type ParsedWorkloadFolder,
} from './fileParsers';
import type { BlobChanges, RepoSource } from './gitSnapshot';
import { RepoFolders } from './repoFolders';

export interface RepoIndexOptions {
  clusters: ClusterProfile[];
  defaultCluster: string;
  catalog: GpuCatalog;
  layout?: LayoutInput;
  /**
   * A file for the per-file parse results. A restarted backend loads it and
   * re-reads only the files whose blob changed since, instead of parsing the
   * whole repository again. Ignored when written with other clusters,
   * catalog or layout.
   */
  stateFile?: string;
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
  /**
   * The cluster's GPU kustomization exists: requests for it can be written.
   * The actions refuse a cluster without it (gpu-node clusterNotBootstrapped),
   * and so does the preview.
   */
  bootstrapped: boolean;
  /** Where that kustomization is (the repository layout's `clusterKustomization`). */
  kustomizationPath: string;
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
  /**
   * Every Deployment, StatefulSet, Job and CronJob of the workload folders
   * (GPU or not) by name, sorted by namespace, kind and overlay.
   */
  workloadObjectsByName: Map<string, RepositoryWorkload[]>;
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
  /** True when this refresh started from the parse results saved by an earlier run. */
  restored?: boolean;
}

/** Bump when the saved state's shape or the parse rules change. */
const STATE_VERSION = 4;

/** Why a symbolic link at a path the index reads is skipped. */
export const SYMLINK_SKIP_REASON =
  'a symbolic link: never read (it could lead outside the repository); replace it with the file itself';

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
  return (a: T, b: T) => compareStrings(key(a), key(b));
}

/** The workload objects' order within one name: where they run, then which object. */
const byPlacement = (a: RepositoryWorkload, b: RepositoryWorkload) =>
  compareStrings(a.namespace, b.namespace) ||
  compareStrings(a.kind, b.kind) ||
  compareStrings(a.overlay ?? '', b.overlay ?? '') ||
  compareStrings(a.path, b.path);

/** Adds `objects` to the by-name lists (new lists: a snapshot never changes). */
function addWorkloadObjects(
  byName: Map<string, RepositoryWorkload[]>,
  objects: RepositoryWorkload[],
): void {
  const added = new Map<string, RepositoryWorkload[]>();
  for (const object of objects) {
    added.set(object.name, [...(added.get(object.name) ?? []), object]);
  }
  for (const [name, list] of added) {
    byName.set(name, [...(byName.get(name) ?? []), ...list].sort(byPlacement));
  }
}

export const emptySnapshot = (): IndexSnapshot => ({
  clusters: new Map(),
  workloads: [],
  workloadsByKubernetesId: new Map(),
  requests: new Map(),
  workloadObjectsByName: new Map(),
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
  private readonly workloadFolders = new Map<string, ParsedWorkloadFolder>();
  private readonly requestFiles = new Map<
    string,
    { request?: GpuRequest; skipped: SkippedFile[] }
  >();
  /** Symbolic links at paths the index would read: reported as skipped, never read. */
  private symlinks = new Set<string>();
  /** Workloads of each folder with their cluster resolved; dropped when the folder or any pool changes. */
  private readonly indexedFolders = new Map<string, IndexedWorkload[]>();
  private current: IndexSnapshot = emptySnapshot();
  /** From the last full snapshot build: pool name -> cluster, shared resource name -> pool. */
  private poolCluster = new Map<string, string>();
  private sharedPoolByResource = new Map<string, string>();
  /** Whether two folders define a workload with the same id (then only full builds are exact). */
  private duplicateIds = false;
  private running: Promise<unknown> = Promise.resolve();
  private readonly stateFile?: string;
  private readonly fingerprint: string;
  private lastSaved?: number;
  private saving: Promise<void> = Promise.resolve();

  constructor(
    options: RepoIndexOptions,
    private readonly source: RepoSource,
  ) {
    this.profiles = [...options.clusters];
    this.defaultCluster = options.defaultCluster;
    this.folders = new RepoFolders(
      options.layout,
      this.profiles.map(c => c.name),
    );
    this.ctx = {
      layout: this.folders.layout,
      catalog: options.catalog,
      workloadNamespace: path => this.folders.workloadNamespace(path),
    };
    this.stateFile = options.stateFile;
    this.fingerprint = createHash('sha256')
      .update(
        JSON.stringify({
          version: STATE_VERSION,
          clusters: this.profiles,
          defaultCluster: this.defaultCluster,
          layout: this.folders.layout.templates,
          catalog: options.catalog,
        }),
      )
      .digest('hex');
  }

  /** Resolves when the latest state save (if any) has finished. */
  whenSaved(): Promise<void> {
    return this.saving;
  }

  /** Everything parsed so far, keyed by path and valid for `revision` (blob shas included). */
  private serializeState(): string {
    return JSON.stringify({
      fingerprint: this.fingerprint,
      revision: this.revision,
      blobs: [...this.blobs],
      poolFiles: [...this.poolFiles],
      devicePluginFiles: [...this.devicePluginFiles],
      migFiles: [...this.migFiles],
      folderFiles: [...this.folderFiles].map(([f, files]) => [f, [...files]]),
      workloadFolders: [...this.workloadFolders],
      requestFiles: [...this.requestFiles],
      symlinks: [...this.symlinks],
    });
  }

  /**
   * Saves the parse results in the background (after a full read, then at
   * most every 10 minutes): stringifying a big index costs tens of ms, which
   * a refresh should not wait for.
   */
  private scheduleSave(full: boolean): void {
    const file = this.stateFile;
    if (!file) return;
    const now = Date.now();
    if (
      !full &&
      this.lastSaved !== undefined &&
      now - this.lastSaved < 600_000
    ) {
      return;
    }
    this.lastSaved = now;
    this.saving = this.saving.then(async () => {
      try {
        await fs.mkdir(dirname(file), { recursive: true });
        const temp = `${file}.${process.pid}.tmp`;
        await fs.writeFile(temp, this.serializeState(), 'utf8');
        await fs.rename(temp, file);
      } catch {
        // Only a cache: the next start parses again.
      }
    });
  }

  /** Loads saved parse results made with the same settings; false when there are none. */
  private async restoreState(): Promise<boolean> {
    if (!this.stateFile) return false;
    let saved;
    try {
      saved = JSON.parse(await fs.readFile(this.stateFile, 'utf8'));
    } catch {
      return false;
    }
    if (saved?.fingerprint !== this.fingerprint || !saved.revision) {
      return false;
    }
    this.revision = saved.revision;
    this.blobs = new Map(saved.blobs);
    const fill = <T>(target: Map<string, T>, entries: [string, T][]) => {
      target.clear();
      for (const [key, value] of entries) target.set(key, value);
    };
    fill(this.poolFiles, saved.poolFiles);
    fill(this.devicePluginFiles, saved.devicePluginFiles);
    fill(this.migFiles, saved.migFiles);
    fill(
      this.folderFiles,
      (saved.folderFiles as [string, string[]][]).map(([f, files]) => [
        f,
        new Set(files),
      ]),
    );
    fill(this.workloadFolders, saved.workloadFolders);
    fill(this.requestFiles, saved.requestFiles);
    this.symlinks = new Set(saved.symlinks);
    return true;
  }

  /** Folders the index reads. */
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
    const { revision } = await this.source.sync();
    const restored =
      this.current.revision === undefined && (await this.restoreState());
    if (revision === this.revision && !restored) {
      return { revision, full: false, changedPaths: [], parsedPaths: [] };
    }
    const folders = this.folders.folders;
    let changes: BlobChanges | undefined;
    let full = this.revision === undefined;
    if (!full) {
      try {
        const diff = await this.source.changedBlobs(
          this.revision!,
          revision,
          folders,
        );
        changes = diff.changes;
        for (const path of changes.keys()) this.symlinks.delete(path);
        this.addSymlinks(diff.symlinks);
      } catch {
        // The old commit is gone (history rewritten, cache re-created): list everything.
        full = true;
      }
    }
    if (!changes) {
      const listed = await this.source.listBlobs(revision, folders);
      changes = new Map();
      for (const [path, sha] of listed.blobs) {
        if (this.blobs.get(path) !== sha) changes.set(path, sha);
      }
      for (const path of this.blobs.keys()) {
        if (!listed.blobs.has(path)) changes.set(path, undefined);
      }
      this.symlinks.clear();
      this.addSymlinks(listed.symlinks);
    }

    const parsedPaths: string[] = [];
    /** Reads the current blobs of `paths` (one git process) and counts them as parsed. */
    const read = async (paths: string[]): Promise<Map<string, string>> => {
      const shas = paths.map(p => this.blobs.get(p)!);
      const blobs = await this.source.readBlobs(shas);
      parsedPaths.push(...paths);
      return new Map(paths.map((p, i) => [p, blobs.get(shas[i]) ?? '']));
    };

    const dirtyConfigs: { path: string; cluster: string; name?: string }[] = [];
    const dirtyPools = new Set<string>();
    const dirtyFolders = new Set<string>();
    const dirtyRequests: string[] = [];
    let setupChanged = false;
    for (const [path, sha] of changes) {
      if (sha === undefined) this.blobs.delete(path);
      else this.blobs.set(path, sha);
      const kind = this.folders.classify(path);
      switch (kind?.kind) {
        case 'devicePluginConfig':
          dirtyConfigs.push({ path, cluster: kind.cluster, name: kind.name });
          break;
        case 'migConfig':
          dirtyConfigs.push({ path, cluster: kind.cluster });
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
          dirtyRequests.push(path);
          break;
        case 'clusterSetup':
          setupChanged = true;
          break;
        default:
      }
    }

    // Configs first: pools infer sharing details from them.
    const changedConfigs = new Set<string>();
    const configTexts = await read(
      dirtyConfigs.map(c => c.path).filter(p => this.blobs.has(p)),
    );
    for (const { path, cluster, name } of dirtyConfigs) {
      const files = name === undefined ? this.migFiles : this.devicePluginFiles;
      const key = name === undefined ? cluster : path;
      const before = files.get(key);
      const text = configTexts.get(path);
      if (text === undefined) {
        files.delete(key);
      } else {
        const parsed = await parseClusterConfigFile(
          this.ctx,
          cluster,
          path,
          text,
        );
        files.set(key, {
          cluster,
          text,
          configs:
            name === undefined ? parsed.migConfigs : parsed.devicePluginConfigs,
          skipped: parsed.skipped,
        });
      }
      const old = before?.configs ?? {};
      const now = files.get(key)?.configs ?? {};
      const kind = name === undefined ? 'mig' : 'dp';
      for (const entry of new Set([...Object.keys(old), ...Object.keys(now)])) {
        if (JSON.stringify(old[entry]) !== JSON.stringify(now[entry])) {
          changedConfigs.add(`${cluster}/${kind}/${entry}`);
        }
      }
      if (name !== undefined) changedConfigs.add(`${cluster}/dp/${name}`);
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
    // Pools decide each workload's cluster (and pool, by resource name).
    if (dirtyPools.size > 0) this.indexedFolders.clear();
    const poolTexts = await read(
      [...dirtyPools].filter(p => this.blobs.has(p)).sort(),
    );
    for (const path of dirtyPools) {
      if (!poolTexts.has(path)) this.poolFiles.delete(path);
    }
    for (const profile of this.profiles) {
      const mine = new Map(
        [...poolTexts].filter(
          ([path]) =>
            (this.folders.classify(path) as { cluster: string }).cluster ===
            profile.name,
        ),
      );
      if (mine.size === 0) continue;
      for (const [path, file] of await this.parsePools(profile.name, mine)) {
        this.poolFiles.set(path, file);
      }
    }

    // What the changed folders held before, for the incremental snapshot update.
    const replaced = [...dirtyFolders].flatMap(
      folder => this.indexedFolders.get(folder) ?? [],
    );
    const replacedObjects = [...dirtyFolders].flatMap(
      folder => this.workloadFolders.get(folder)?.objects ?? [],
    );
    const folderPaths = [...dirtyFolders].sort().flatMap(folder => {
      const files = this.folderFiles.get(folder);
      if (!files || files.size === 0) {
        this.folderFiles.delete(folder);
        this.workloadFolders.delete(folder);
        this.indexedFolders.delete(folder);
        return [];
      }
      return [...files].sort();
    });
    const folderTexts = await read(folderPaths);
    const byFolder = new Map<string, Map<string, string>>();
    for (const folder of [...dirtyFolders].sort()) {
      const files = this.folderFiles.get(folder);
      if (!files) continue;
      byFolder.set(
        folder,
        new Map([...files].sort().map(p => [p, folderTexts.get(p) ?? ''])),
      );
    }
    if (byFolder.size > 0) {
      for (const [folder, parsed] of await parseWorkloadFolders(
        this.ctx,
        byFolder,
      )) {
        this.workloadFolders.set(folder, parsed);
        this.indexedFolders.delete(folder);
      }
    }

    const requestTexts = await read(
      dirtyRequests.filter(p => this.blobs.has(p)).sort(),
    );
    for (const path of dirtyRequests) {
      const text = requestTexts.get(path);
      if (text === undefined) this.requestFiles.delete(path);
      else this.requestFiles.set(path, parseRequestFile(path, text));
    }

    this.revision = revision;
    const onlyWorkloads =
      !full &&
      dirtyConfigs.length === 0 &&
      dirtyPools.size === 0 &&
      !setupChanged &&
      this.current.revision !== undefined;
    this.current =
      (onlyWorkloads &&
        this.updateSnapshot(
          revision,
          dirtyFolders,
          replaced,
          replacedObjects,
          dirtyRequests,
        )) ||
      this.buildSnapshot(revision);
    this.scheduleSave(full);
    const result: RefreshResult = {
      revision,
      full,
      changedPaths: [...changes.keys()].sort(),
      parsedPaths,
    };
    if (restored) result.restored = true;
    return result;
  }

  /** Remembers the symbolic links among `paths` that sit where the index reads. */
  private addSymlinks(paths: string[]): void {
    for (const path of paths) {
      if (this.folders.classify(path)) this.symlinks.add(path);
    }
  }

  private symlinkSkips(): SkippedFile[] {
    return [...this.symlinks].map(path => ({
      path,
      reason: SYMLINK_SKIP_REASON,
    }));
  }

  /**
   * Parses NodePool files of one cluster with just the config entries their
   * labels name. The labels are found by a quick text scan and checked
   * against the parse; a miss (unusual YAML) is parsed again with the
   * entries the pools really name.
   */
  private async parsePools(
    cluster: string,
    texts: Map<string, string>,
  ): Promise<Map<string, PoolFile>> {
    const guessed = new Map(
      [...texts].map(([path, text]) => [
        path,
        {
          dp: labelValues(text, DEVICE_PLUGIN_LABEL),
          mig: labelValues(text, MIG_LABEL),
        },
      ]),
    );
    const union = (pick: (g: { dp: string[]; mig: string[] }) => string[]) => [
      ...new Set([...guessed.values()].flatMap(pick)),
    ];
    // One reader call per file: the reader pairs every NodePool with every
    // NodeOverlay it is given (quadratic), and a pool's overlays live in its file.
    const parse = async (dp: string[], mig: string[]) => {
      const configs = this.configFilesFor(cluster, dp, mig);
      const out = new Map<
        string,
        { pools: PoolState[]; skipped: SkippedFile[] }
      >();
      for (const [path, text] of texts) {
        const parsed = await parsePoolFiles(
          this.ctx,
          cluster,
          new Map([[path, text]]),
          configs,
        );
        out.set(path, parsed.get(path)!);
      }
      return out;
    };
    const dpNames = union(g => g.dp);
    const migNames = union(g => g.mig);
    let parsed = await parse(dpNames, migNames);
    const usedDp = [...parsed.values()].flatMap(f =>
      f.pools.flatMap(p => p.deviceConfigName ?? []),
    );
    const usedMig = [...parsed.values()].flatMap(f =>
      f.pools.flatMap(p => p.migConfigName ?? []),
    );
    if (
      usedDp.some(n => !dpNames.includes(n)) ||
      usedMig.some(n => !migNames.includes(n))
    ) {
      parsed = await parse(
        [...new Set([...dpNames, ...usedDp])],
        [...new Set([...migNames, ...usedMig])],
      );
    }
    const out = new Map<string, PoolFile>();
    for (const [path, file] of parsed) {
      const labels = guessed.get(path)!;
      out.set(path, {
        cluster,
        pools: file.pools,
        devicePluginConfigs: [
          ...new Set([
            ...labels.dp,
            ...file.pools.flatMap(p => p.deviceConfigName ?? []),
          ]),
        ],
        migConfigs: [
          ...new Set([
            ...labels.mig,
            ...file.pools.flatMap(p => p.migConfigName ?? []),
          ]),
        ],
        skipped: file.skipped,
      });
    }
    return out;
  }

  /** The config files a pool's parse needs: its device-plugin configs, and its MIG entries only. */
  private configFilesFor(
    cluster: string,
    dpNames: string[],
    migNames: string[],
  ): Map<string, string> {
    const files = new Map<string, string>();
    for (const name of dpNames) {
      const path = this.folders.devicePluginConfigPath(cluster, name);
      const file = this.devicePluginFiles.get(path);
      if (file) files.set(path, file.text);
    }
    const mig = this.migFiles.get(cluster)?.configs;
    const entries = Object.fromEntries(
      migNames.filter(n => mig && n in mig).map(n => [n, mig![n]]),
    );
    if (Object.keys(entries).length > 0) {
      // JSON is YAML: a one-entry mig-parted config, far cheaper than the whole file.
      files.set(
        this.folders.migConfigPath(cluster),
        JSON.stringify({ version: 'v1', 'mig-configs': entries }),
      );
    }
    return files;
  }

  /** A folder's workloads with their pool and cluster resolved (cached until the folder or a pool changes). */
  private indexFolder(name: string): IndexedWorkload[] {
    let indexed = this.indexedFolders.get(name);
    if (!indexed) {
      const folder = this.workloadFolders.get(name);
      indexed = (folder?.workloads ?? []).map(workload => {
        // Same fallback as readRepoState: a shared resource name names its pool.
        const pool =
          workload.pool ?? this.sharedPoolByResource.get(workload.resourceName);
        const cluster =
          (pool && this.poolCluster.get(pool)) ?? this.defaultCluster;
        const entry: IndexedWorkload = { ...workload, cluster };
        if (pool) entry.pool = pool;
        return entry;
      });
      this.indexedFolders.set(name, indexed);
    }
    return indexed;
  }

  /**
   * The next snapshot when a commit changed only workload folders and
   * requests: the previous snapshot's pools are reused and only the changed
   * workloads are swapped, so a refresh costs O(changes), not O(repository).
   * Undefined when that would not be exact (then a full build runs).
   */
  private updateSnapshot(
    revision: string,
    folders: Set<string>,
    replaced: IndexedWorkload[],
    replacedObjects: RepositoryWorkload[],
    changedRequests: string[],
  ): IndexSnapshot | undefined {
    if (this.duplicateIds) return undefined;
    const previous = this.current;
    const removed = new Set(replaced.map(w => w.id));
    const kept = previous.workloads.filter(w => !removed.has(w.id));
    const keptIds = new Set<string>();
    const added = [...folders].flatMap(folder => this.indexFolder(folder));
    for (const workload of added) {
      if (keptIds.has(workload.id)) return undefined;
      keptIds.add(workload.id);
    }
    if (kept.some(w => keptIds.has(w.id))) return undefined;
    const workloads = [...kept, ...added].sort(byKey(w => w.id));

    const workloadsByKubernetesId = new Map(previous.workloadsByKubernetesId);
    for (const workload of replaced) {
      if (!workload.kubernetesId) continue;
      const rest = (
        workloadsByKubernetesId.get(workload.kubernetesId) ?? []
      ).filter(w => w.id !== workload.id);
      if (rest.length > 0)
        workloadsByKubernetesId.set(workload.kubernetesId, rest);
      else workloadsByKubernetesId.delete(workload.kubernetesId);
    }
    for (const workload of added) {
      if (!workload.kubernetesId) continue;
      workloadsByKubernetesId.set(
        workload.kubernetesId,
        [
          ...(workloadsByKubernetesId.get(workload.kubernetesId) ?? []),
          workload,
        ].sort(byKey(w => w.id)),
      );
    }

    const clusters = new Map<string, ClusterIndex>();
    for (const [name, cluster] of previous.clusters) {
      clusters.set(name, {
        profile: cluster.profile,
        repoState: { ...cluster.repoState, workloads: [] },
        bootstrapped: cluster.bootstrapped,
        kustomizationPath: cluster.kustomizationPath,
      });
    }
    for (const workload of workloads) {
      clusters.get(workload.cluster)?.repoState.workloads.push(workload);
    }

    const workloadObjectsByName = new Map(previous.workloadObjectsByName);
    const gone = new Set(replacedObjects);
    for (const name of new Set(replacedObjects.map(o => o.name))) {
      const rest = (workloadObjectsByName.get(name) ?? []).filter(
        o => !gone.has(o),
      );
      if (rest.length > 0) workloadObjectsByName.set(name, rest);
      else workloadObjectsByName.delete(name);
    }
    addWorkloadObjects(
      workloadObjectsByName,
      [...folders].flatMap(f => this.workloadFolders.get(f)?.objects ?? []),
    );

    const changedPaths = new Set(changedRequests);
    const requests =
      changedRequests.length === 0 ? previous.requests : this.collectRequests();
    const skipped = [
      ...previous.skipped.filter(
        s =>
          s.reason !== SYMLINK_SKIP_REASON &&
          !changedPaths.has(s.path) &&
          ![...folders].some(f => s.path.startsWith(`${f}/`)),
      ),
      ...this.symlinkSkips(),
      ...[...folders].flatMap(f => this.workloadFolders.get(f)?.skipped ?? []),
      ...changedRequests.flatMap(p => this.requestFiles.get(p)?.skipped ?? []),
    ].sort(byKey(s => s.path));
    return {
      revision,
      clusters,
      workloads,
      workloadsByKubernetesId,
      requests,
      workloadObjectsByName,
      skipped,
    };
  }

  private collectRequests(): Map<string, StoredRequest> {
    const requests = new Map<string, StoredRequest>();
    for (const [path, file] of this.requestFiles) {
      if (!file.request) continue;
      const { namespace, name } = file.request.metadata;
      requests.set(`${namespace}/${name}`, { path, request: file.request });
    }
    return requests;
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
    this.poolCluster = poolCluster;
    this.sharedPoolByResource = sharedPoolByResource;
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
      const kustomizationPath = this.folders.clusterKustomizationPath(
        profile.name,
      );
      clusters.set(profile.name, {
        profile,
        bootstrapped: this.blobs.has(kustomizationPath),
        kustomizationPath,
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
    this.duplicateIds = false;
    for (const [name, folder] of this.workloadFolders) {
      if (folder.skipped.length > 0) skipped.push(...folder.skipped);
      for (const workload of this.indexFolder(name)) {
        if (seen.has(workload.id)) {
          this.duplicateIds = true;
          continue;
        }
        seen.add(workload.id);
        workloads.push(workload);
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

    const workloadObjectsByName = new Map<string, RepositoryWorkload[]>();
    addWorkloadObjects(
      workloadObjectsByName,
      [...this.workloadFolders.values()].flatMap(folder => folder.objects),
    );

    for (const file of this.requestFiles.values()) {
      if (file.skipped.length > 0) skipped.push(...file.skipped);
    }
    skipped.push(...this.symlinkSkips());
    const requests = this.collectRequests();
    skipped.sort(byKey(s => s.path));
    return {
      revision,
      clusters,
      workloads,
      workloadsByKubernetesId,
      requests,
      workloadObjectsByName,
      skipped,
    };
  }
}

/**
 * The allocation index of the GitOps repository: pools (with their
 * device-plugin and MIG configs; the product's pools anywhere in a cluster's
 * folder and the hand-written ConfigMaps of NVIDIA configs there, as
 * `readRepoState` reads them), GPU workloads, every workload object (GPU
 * or not: what a request can give GPUs to) and the stored GpuRequests, kept
 * per file (or per workload folder) with the blob sha it was parsed
 * from (`indexStore.ts`). A refresh asks git which files changed since the
 * last indexed commit (`git diff --raw`) and re-parses only those, plus the
 * pools whose device-plugin / MIG config entry changed, then builds the next
 * immutable snapshot (`snapshotBuilder.ts`).
 */
import { setImmediate as nextTurn } from 'node:timers/promises';
import {
  compareStrings,
  type ClusterProfile,
  type GpuCatalog,
  type HandWrittenConfigMap,
} from '@gpu-gitops/plugin-gpu-common';
import { clusterFolderFileHolds } from '@gpu-gitops/plugin-gpu-node';
import type { LayoutInput } from '@gpu-gitops/plugin-gpu-node';
import {
  parseClusterFolderPoolFile,
  parseConfigMapFile,
  parseDevicePluginConfigFile,
  parseMigConfigFile,
  parsePoolFile,
  parseRequestFile,
  parseWorkloadFolders,
  type ParseContext,
} from './fileParsers';
import type { BlobChanges, RepoSource } from './gitSnapshot';
import {
  isStackFile,
  noGpuStackFiles,
  noteChangedFiles,
  readGpuStacks,
} from './gpuStacks';
import { emptySnapshot, type IndexSnapshot } from './indexSnapshot';
import { IndexStore } from './indexStore';
import { RepoFolders } from './repoFolders';
import { SavedIndexState } from './savedIndexState';
import { SnapshotBuilder } from './snapshotBuilder';

/** @public */
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
  /**
   * How many workload folders are read and parsed at a time (default
   * `WORKLOAD_FOLDERS_PER_READ`): a first index of 100k workloads must not
   * hold the parsed documents of every file at once, and lets the event
   * loop answer between batches.
   */
  workloadFoldersPerRead?: number;
}

/** The default of `RepoIndexOptions.workloadFoldersPerRead`. */
const WORKLOAD_FOLDERS_PER_READ = 2_000;

/** @public */
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

/** @public */
export class RepoIndex {
  private readonly folders: RepoFolders;
  private readonly ctx: ParseContext;
  private readonly profiles: ClusterProfile[];
  private readonly layout: LayoutInput;
  private readonly store: IndexStore;
  private readonly snapshots: SnapshotBuilder;
  private readonly savedState: SavedIndexState;
  private readonly workloadFoldersPerRead: number;
  private current: IndexSnapshot = emptySnapshot();
  private running: Promise<unknown> = Promise.resolve();

  constructor(
    options: RepoIndexOptions,
    private readonly source: RepoSource,
  ) {
    this.profiles = [...options.clusters];
    this.folders = new RepoFolders(
      options.layout,
      this.profiles.map(c => c.name),
    );
    // Compiled once: the GPU stacks ask the layout about every indexed path,
    // and an override object given as is would be compiled on each question.
    this.layout = this.folders.layout.layout;
    this.ctx = { layout: this.folders.layout, catalog: options.catalog };
    this.workloadFoldersPerRead = Math.max(
      1,
      options.workloadFoldersPerRead ?? WORKLOAD_FOLDERS_PER_READ,
    );
    this.store = new IndexStore(this.folders);
    this.snapshots = new SnapshotBuilder(
      this.store,
      this.folders,
      this.profiles,
      options.defaultCluster,
    );
    this.savedState = new SavedIndexState(options.stateFile, {
      clusters: this.profiles,
      defaultCluster: options.defaultCluster,
      layout: this.folders.layout.layout.templates,
      catalog: options.catalog,
    });
  }

  /** Resolves when the latest state save (if any) has finished. */
  whenSaved(): Promise<void> {
    return this.savedState.whenSaved();
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
      this.current.revision === undefined &&
      (await this.savedState.restore(this.store));
    if (revision === this.store.revision && !restored) {
      return { revision, full: false, changedPaths: [], parsedPaths: [] };
    }
    const folders = this.folders.folders;
    let changes: BlobChanges | undefined;
    let full = this.store.revision === undefined;
    if (!full) {
      try {
        const diff = await this.source.changedBlobs(
          this.store.revision!,
          revision,
          folders,
        );
        changes = diff.changes;
        for (const path of changes.keys()) this.store.symlinks.delete(path);
        this.store.addSymlinks(diff.symlinks);
      } catch {
        // The old commit is gone (history rewritten, cache re-created): list everything.
        full = true;
      }
    }
    if (!changes) {
      const listed = await this.source.listBlobs(revision, folders);
      changes = new Map();
      for (const [path, sha] of listed.blobs) {
        if (this.store.blobs.get(path) !== sha) changes.set(path, sha);
      }
      for (const path of this.store.blobs.keys()) {
        if (!listed.blobs.has(path)) changes.set(path, undefined);
      }
      this.store.symlinks.clear();
      this.store.addSymlinks(listed.symlinks);
    }

    const parsedPaths: string[] = [];
    /** Reads the current blobs of `paths` (one git process) and counts them as parsed. */
    /**
     * Every text this refresh read, by path: the GPU stacks read them again
     * (a workload file outside every cluster's folder may declare a release).
     */
    const readTexts = new Map<string, string>();
    const read = async (paths: string[]): Promise<Map<string, string>> => {
      const shas = paths.map(p => this.store.blobs.get(p)!);
      const blobs = await this.source.readBlobs(shas);
      parsedPaths.push(...paths);
      const texts = new Map(paths.map((p, i) => [p, blobs.get(shas[i]) ?? '']));
      for (const [p, text] of texts) readTexts.set(p, text);
      return texts;
    };

    const dirtyConfigs: { path: string; cluster: string; name?: string }[] = [];
    /** NodePool file -> its cluster. */
    const dirtyPools = new Map<string, string>();
    /** Another file of a cluster's folder -> its cluster. */
    const dirtyClusterFiles = new Map<string, string>();
    const dirtyFolders = new Set<string>();
    const dirtyRequests: string[] = [];
    let setupChanged = false;
    for (const [path, sha] of changes) {
      if (sha === undefined) this.store.blobs.delete(path);
      else this.store.blobs.set(path, sha);
      const place = this.folders.classify(path);
      switch (place?.entry) {
        case 'devicePluginConfig':
          dirtyConfigs.push({
            path,
            cluster: place.cluster,
            name: place.config,
          });
          break;
        case 'migConfig':
          dirtyConfigs.push({ path, cluster: place.cluster });
          break;
        case 'nodePool':
          dirtyPools.set(path, place.cluster);
          break;
        case 'workloadDir': {
          const files = this.store.folderFiles.get(place.folder) ?? new Set();
          if (sha === undefined) files.delete(path);
          else files.add(path);
          this.store.folderFiles.set(place.folder, files);
          dirtyFolders.add(place.folder);
          break;
        }
        case 'request':
          dirtyRequests.push(path);
          break;
        case 'clusterKustomization':
          setupChanged = true;
          break;
        case 'clusterFolder':
          dirtyClusterFiles.set(path, place.cluster);
          break;
        default:
      }
    }

    // Configs first: pools infer sharing details from them.
    const changedConfigs = new Set<string>();
    // The other files of the clusters' folders, read once: hand-written
    // ConfigMaps of NVIDIA configs, and the pools the product manages there
    // (gpu-node's clusterFolderFiles.ts, the rule readRepoState applies).
    const clusterTexts = await read(
      [...dirtyClusterFiles.keys()].filter(p => this.store.blobs.has(p)).sort(),
    );
    let configMapsChanged = false;
    for (const [path, cluster] of dirtyClusterFiles) {
      const before = this.store.configMapFiles.get(path);
      const text = clusterTexts.get(path);
      const parsed =
        text === undefined ? undefined : parseConfigMapFile(path, text);
      if (
        parsed &&
        (parsed.configMaps.length > 0 || parsed.skipped.length > 0)
      ) {
        this.store.configMapFiles.set(path, { cluster, ...parsed });
      } else {
        this.store.configMapFiles.delete(path);
      }
      if (before || this.store.configMapFiles.has(path)) {
        configMapsChanged = true;
        const entries = (
          configMaps: readonly HandWrittenConfigMap[] | undefined,
          kind: 'devicePluginConfigs' | 'migConfigs',
        ) => Object.assign({}, ...(configMaps ?? []).map(m => m[kind]));
        for (const [kind, tag] of [
          ['devicePluginConfigs', 'dp'],
          ['migConfigs', 'mig'],
        ] as const) {
          const old = entries(before?.configMaps, kind);
          const now = entries(parsed?.configMaps, kind);
          for (const entry of new Set([
            ...Object.keys(old),
            ...Object.keys(now),
          ])) {
            if (JSON.stringify(old[entry]) !== JSON.stringify(now[entry])) {
              changedConfigs.add(`${cluster}/${tag}/${entry}`);
            }
          }
        }
      }
      // Re-parsed as a pool file when it holds a pool now or did before.
      if (
        this.store.poolFiles.has(path) ||
        (text !== undefined && clusterFolderFileHolds(text).pools)
      ) {
        dirtyPools.set(path, cluster);
      }
    }
    const configTexts = await read(
      dirtyConfigs.map(c => c.path).filter(p => this.store.blobs.has(p)),
    );
    for (const { path, cluster, name } of dirtyConfigs) {
      const files =
        name === undefined ? this.store.migFiles : this.store.devicePluginFiles;
      const key = name === undefined ? cluster : path;
      const before = files.get(key);
      const text = configTexts.get(path);
      if (text === undefined) {
        files.delete(key);
      } else {
        const parsed =
          name === undefined
            ? parseMigConfigFile(path, text)
            : parseDevicePluginConfigFile(path, name, text);
        files.set(key, { cluster, ...parsed });
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
      for (const [path, file] of this.store.poolFiles) {
        if (
          file.devicePluginConfigs.some(n =>
            changedConfigs.has(`${file.cluster}/dp/${n}`),
          ) ||
          file.migConfigs.some(n =>
            changedConfigs.has(`${file.cluster}/mig/${n}`),
          )
        ) {
          dirtyPools.set(path, file.cluster);
        }
      }
    }
    // Pools decide each workload's cluster (and pool, by resource name).
    if (dirtyPools.size > 0) this.snapshots.forgetAllFolders();
    const poolTexts = await read(
      [...dirtyPools.keys()]
        .filter(p => this.store.blobs.has(p) && !clusterTexts.has(p))
        .sort(),
    );
    for (const [path, text] of clusterTexts) poolTexts.set(path, text);
    const poolConfigs = new Map(
      this.profiles.map(p => [p.name, this.store.poolConfigs(p.name)]),
    );
    for (const [path, cluster] of [...dirtyPools].sort(([a], [b]) =>
      compareStrings(a, b),
    )) {
      const text = poolTexts.get(path);
      if (text === undefined) {
        this.store.poolFiles.delete(path);
        continue;
      }
      const inClusterFolder =
        this.folders.classify(path)?.entry === 'clusterFolder';
      const { pools, shapes, otherNodePools, skipped } = (
        inClusterFolder ? parseClusterFolderPoolFile : parsePoolFile
      )(this.ctx, path, text, poolConfigs.get(cluster)!);
      if (
        inClusterFolder &&
        pools.length + otherNodePools.length + skipped.length === 0
      ) {
        this.store.poolFiles.delete(path);
        continue;
      }
      this.store.poolFiles.set(path, {
        cluster,
        pools,
        shapes,
        otherNodePools,
        devicePluginConfigs: [
          ...new Set(pools.flatMap(p => p.deviceConfigName ?? [])),
        ],
        migConfigs: [...new Set(pools.flatMap(p => p.migConfigName ?? []))],
        skipped,
      });
    }

    // What the changed folders held before, for the incremental snapshot update.
    const replaced = [...dirtyFolders].flatMap(folder =>
      this.snapshots.cachedWorkloads(folder),
    );
    const replacedObjects = [...dirtyFolders].flatMap(
      folder => this.store.workloadFolders.get(folder)?.objects ?? [],
    );
    const liveFolders = [...dirtyFolders].sort().filter(folder => {
      const files = this.store.folderFiles.get(folder);
      if (files && files.size > 0) return true;
      this.store.folderFiles.delete(folder);
      this.store.workloadFolders.delete(folder);
      this.snapshots.forgetFolder(folder);
      return false;
    });
    for (let i = 0; i < liveFolders.length; i += this.workloadFoldersPerRead) {
      await this.parseWorkloadFolders(
        liveFolders.slice(i, i + this.workloadFoldersPerRead),
        read,
      );
      await nextTurn();
    }

    const requestTexts = await read(
      dirtyRequests.filter(p => this.store.blobs.has(p)).sort(),
    );
    for (const path of dirtyRequests) {
      const text = requestTexts.get(path);
      if (text === undefined) this.store.requestFiles.delete(path);
      else this.store.requestFiles.set(path, parseRequestFile(path, text));
    }

    const stacksChanged = await this.refreshGpuStacks(
      changes,
      full,
      parsedPaths,
      readTexts,
    );

    this.store.revision = revision;
    const onlyWorkloads =
      !stacksChanged &&
      !full &&
      dirtyConfigs.length === 0 &&
      !configMapsChanged &&
      dirtyPools.size === 0 &&
      !setupChanged &&
      this.current.revision !== undefined;
    this.current =
      (onlyWorkloads &&
        this.snapshots.update(this.current, revision, {
          folders: dirtyFolders,
          replaced,
          replacedObjects,
          changedRequests: dirtyRequests,
        })) ||
      this.snapshots.build(revision);
    this.savedState.scheduleSave(this.store, full);
    const result: RefreshResult = {
      revision,
      full,
      changedPaths: [...changes.keys()].sort(),
      parsedPaths,
    };
    if (restored) result.restored = true;
    return result;
  }

  /** Reads and parses `folders` (each holds files) into the store. */
  private async parseWorkloadFolders(
    folders: string[],
    read: (paths: string[]) => Promise<Map<string, string>>,
  ): Promise<void> {
    const filesOf = (folder: string) =>
      [...this.store.folderFiles.get(folder)!].sort();
    const texts = await read(folders.flatMap(filesOf));
    const byFolder = new Map(
      folders.map(folder => [
        folder,
        new Map(filesOf(folder).map(p => [p, texts.get(p) ?? ''])),
      ]),
    );
    for (const [folder, parsed] of await parseWorkloadFolders(
      this.ctx,
      byFolder,
    )) {
      this.store.workloadFolders.set(folder, parsed);
      this.snapshots.forgetFolder(folder);
    }
  }

  /**
   * Notes what each changed file is to the GPU stacks and reads them again
   * when they were never read or one of those files can change them; true
   * when a stack changed. The files it reads join `parsedPaths`.
   */
  private async refreshGpuStacks(
    changes: BlobChanges,
    full: boolean,
    parsedPaths: string[],
    alreadyRead: Map<string, string>,
  ): Promise<boolean> {
    const { store } = this;
    const counted = new Set(parsedPaths);
    /** Texts of indexed files: those this refresh read already, the rest from git (counted as parsed). */
    const readTexts = async (paths: string[]) => {
      const texts = new Map<string, string>();
      const missing: string[] = [];
      for (const p of paths) {
        const known = alreadyRead.get(p);
        if (known !== undefined) texts.set(p, known);
        else if (store.blobs.has(p)) missing.push(p);
      }
      for (const p of missing) {
        if (!counted.has(p)) {
          counted.add(p);
          parsedPaths.push(p);
        }
      }
      const blobs = await this.source.readBlobs(
        missing.map(p => store.blobs.get(p)!),
      );
      for (const p of missing) {
        const text = blobs.get(store.blobs.get(p)!);
        if (text !== undefined) texts.set(p, text);
      }
      return texts;
    };
    // Sorting every indexed path costs more than the rest of a one-file
    // refresh: done only when every file is scanned or a stack is read again.
    const indexedPaths = () =>
      [...store.blobs.keys()]
        .filter(p => !store.symlinks.has(p))
        .sort(compareStrings);
    const readAll = full || !store.gpuStacks;
    if (readAll) store.gpuStackFiles = noGpuStackFiles();
    const paths = readAll ? indexedPaths() : undefined;
    // Every file on a first or full read, the changed ones otherwise.
    const scanned = (paths ?? [...changes.keys()])
      .filter(p => isStackFile(this.layout, this.profiles, p))
      .sort(compareStrings);
    const present = scanned.filter(p => store.blobs.has(p));
    const matters = noteChangedFiles(
      store.gpuStackFiles,
      await readTexts(present),
      scanned.filter(p => !store.blobs.has(p)),
    );
    if (store.gpuStacks && !matters) return false;
    const before = store.gpuStacks;
    store.gpuStacks = await readGpuStacks(
      this.layout,
      this.profiles,
      paths ?? indexedPaths(),
      store.gpuStackFiles,
      readTexts,
    );
    return (
      !before ||
      this.profiles.some(
        p =>
          JSON.stringify(before.get(p.name)) !==
          JSON.stringify(store.gpuStacks!.get(p.name)),
      )
    );
  }
}

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
import {
  compareStrings,
  type ClusterProfile,
  type GpuCatalog,
} from '@gpu-gitops/plugin-gpu-common';
import {
  eventLoopTurns,
  type LayoutInput,
  type PoolConfigs,
} from '@gpu-gitops/plugin-gpu-node';
import {
  markPoolsOfChangedConfigs,
  refreshClusterFiles,
  refreshConfigFiles,
  type ChangedConfigs,
} from './configFileRefresh';
import { recordChanges, type DirtyFiles } from './dirtyFiles';
import {
  parseClusterFolderPoolFile,
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
  stackFilesAmong,
} from './gpuStacks';
import { emptySnapshot, type IndexSnapshot } from './indexSnapshot';
import { IndexStore, type PoolFile } from './indexStore';
import { RefreshReader } from './refreshReader';
import { RepoFolders } from './repoFolders';
import { SavedIndexState } from './savedIndexState';
import { SnapshotBuilder, type WorkloadChanges } from './snapshotBuilder';

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
  private readonly snapshotListeners = new Set<
    (snapshot: IndexSnapshot) => void
  >();

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
      options.catalog,
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

  /**
   * Calls `listener` with each snapshot a refresh lands (not with the
   * current one), until the returned function is called. The listener
   * must not throw: it runs inside the refresh, whose caller would see
   * the error.
   */
  onSnapshot(listener: (snapshot: IndexSnapshot) => void): () => void {
    this.snapshotListeners.add(listener);
    return () => this.snapshotListeners.delete(listener);
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
    const { changes, full } = await this.changesSince(revision);
    const dirty = await recordChanges(this.store, this.folders, changes);
    const reader = new RefreshReader(this.source, this.store, path =>
      isStackFile(this.layout, this.profiles, path),
    );
    const { configMapsChanged } = await this.refreshConfigsAndPools(
      dirty,
      reader,
    );
    const replacedFolders = await this.refreshWorkloadFolders(
      dirty.folders,
      reader,
    );
    await this.refreshRequests(dirty.requests, reader);
    const stacksChanged = await this.refreshGpuStacks(
      changes,
      full,
      reader.parsedPaths,
      reader.texts,
    );

    this.store.revision = revision;
    const onlyWorkloads =
      !stacksChanged &&
      !full &&
      dirty.configs.length === 0 &&
      !configMapsChanged &&
      dirty.pools.size === 0 &&
      !dirty.setupChanged &&
      this.current.revision !== undefined;
    this.current =
      (onlyWorkloads &&
        this.snapshots.update(this.current, revision, {
          folders: dirty.folders,
          ...replacedFolders,
          changedRequests: dirty.requests,
        })) ||
      (await this.snapshots.build(revision));
    for (const listener of this.snapshotListeners) listener(this.current);
    this.savedState.scheduleSave(this.store, full);
    const result: RefreshResult = {
      revision,
      full,
      changedPaths: [...changes.keys()].sort(),
      parsedPaths: reader.parsedPaths,
    };
    if (restored) result.restored = true;
    return result;
  }

  /**
   * The files changed since the indexed commit (git's diff); every file
   * whose blob differs from the store's when there is none (`full`).
   */
  private async changesSince(
    revision: string,
  ): Promise<{ changes: BlobChanges; full: boolean }> {
    if (this.store.revision !== undefined) {
      try {
        const diff = await this.source.changedBlobs(
          this.store.revision,
          revision,
          this.folders.folders,
        );
        for (const path of diff.changes.keys())
          this.store.symlinks.delete(path);
        this.store.addSymlinks(diff.symlinks);
        return { changes: diff.changes, full: false };
      } catch {
        // The old commit is gone (history rewritten, cache re-created): list everything.
      }
    }
    const listed = await this.source.listBlobs(revision, this.folders.folders);
    const changes: BlobChanges = new Map();
    // Every file of the repository (130k on the scale bench), with turns.
    const yieldTurn = eventLoopTurns();
    for (const [path, sha] of listed.blobs) {
      await yieldTurn();
      if (this.store.blobs.get(path) !== sha) changes.set(path, sha);
    }
    for (const path of this.store.blobs.keys()) {
      await yieldTurn();
      if (!listed.blobs.has(path)) changes.set(path, undefined);
    }
    this.store.symlinks.clear();
    this.store.addSymlinks(listed.symlinks);
    return { changes, full: true };
  }

  /** Configs first (pools infer sharing details from them), then the pools. */
  private async refreshConfigsAndPools(
    dirty: DirtyFiles,
    reader: RefreshReader,
  ): Promise<{ configMapsChanged: boolean }> {
    const changedConfigs: ChangedConfigs = new Set();
    const clusterFiles = await refreshClusterFiles(
      this.store,
      dirty.clusterFiles,
      reader,
      changedConfigs,
      dirty.pools,
    );
    await refreshConfigFiles(this.store, dirty.configs, reader, changedConfigs);
    markPoolsOfChangedConfigs(this.store, changedConfigs, dirty.pools);
    await this.refreshPools(dirty.pools, clusterFiles.texts, reader);
    return { configMapsChanged: clusterFiles.configMapsChanged };
  }

  /** Parses `dirtyPools` (the cluster-folder files among them already read, `clusterTexts`) into the store. */
  private async refreshPools(
    dirtyPools: Map<string, string>,
    clusterTexts: Map<string, string>,
    reader: RefreshReader,
  ): Promise<void> {
    // Pools decide each workload's cluster (and pool, by resource name).
    if (dirtyPools.size > 0) this.snapshots.forgetAllFolders();
    const poolTexts = await reader.readPresent(
      [...dirtyPools.keys()].filter(p => !clusterTexts.has(p)).sort(),
    );
    for (const [path, text] of clusterTexts) poolTexts.set(path, text);
    const poolConfigs = new Map(
      this.profiles.map(p => [p.name, this.store.poolConfigs(p.name)]),
    );
    const yieldTurn = eventLoopTurns();
    for (const [path, cluster] of [...dirtyPools].sort(([a], [b]) =>
      compareStrings(a, b),
    )) {
      await yieldTurn();
      const file = this.parsePoolFile(
        path,
        cluster,
        poolTexts.get(path),
        poolConfigs.get(cluster)!,
      );
      if (file) this.store.poolFiles.set(path, file);
      else this.store.poolFiles.delete(path);
    }
  }

  /** The pool file `text` makes; undefined when deleted, or a cluster-folder file without a pool object or NodeOverlay. */
  private parsePoolFile(
    path: string,
    cluster: string,
    text: string | undefined,
    poolConfigs: PoolConfigs,
  ): PoolFile | undefined {
    if (text === undefined) return undefined;
    const inClusterFolder =
      this.folders.classify(path)?.entry === 'clusterFolder';
    const {
      pools,
      shapes,
      handWrittenShapes,
      nodeFeatureRules,
      overlays,
      otherNodePools,
      skipped,
      topologyDocuments = [],
    } = (inClusterFolder ? parseClusterFolderPoolFile : parsePoolFile)(
      this.ctx,
      path,
      text,
      poolConfigs,
    );
    const held =
      pools.length +
      otherNodePools.length +
      overlays.length +
      skipped.length +
      topologyDocuments.length;
    if (inClusterFolder && held === 0) return undefined;
    return {
      cluster,
      pools,
      shapes,
      handWrittenShapes,
      nodeFeatureRules,
      overlays,
      otherNodePools,
      devicePluginConfigs: [
        ...new Set(pools.flatMap(p => p.deviceConfigName ?? [])),
      ],
      migConfigs: [...new Set(pools.flatMap(p => p.migConfigName ?? []))],
      skipped,
      ...(topologyDocuments.length > 0 ? { topologyDocuments } : {}),
    };
  }

  /**
   * Parses the changed workload folders in batches (dropping the emptied
   * ones); returns what they held before, for the incremental snapshot update.
   */
  private async refreshWorkloadFolders(
    dirtyFolders: Set<string>,
    reader: RefreshReader,
  ): Promise<Pick<WorkloadChanges, 'replaced' | 'replacedObjects'>> {
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
    const batches: string[][] = [];
    for (let i = 0; i < liveFolders.length; i += this.workloadFoldersPerRead) {
      batches.push(liveFolders.slice(i, i + this.workloadFoldersPerRead));
    }
    const yieldTurn = eventLoopTurns();
    let i = 0;
    for await (const texts of this.batchTexts(batches, reader)) {
      await this.parseWorkloadFolders(batches[i++], texts, yieldTurn);
    }
    return { replaced, replacedObjects };
  }

  private async refreshRequests(
    dirtyRequests: string[],
    reader: RefreshReader,
  ): Promise<void> {
    const texts = await reader.readPresent([...dirtyRequests].sort());
    // 10k requests take a second to validate: the backend answers meanwhile.
    const yieldTurn = eventLoopTurns();
    for (const path of dirtyRequests) {
      await yieldTurn();
      const text = texts.get(path);
      if (text === undefined) this.store.requestFiles.delete(path);
      else this.store.requestFiles.set(path, parseRequestFile(path, text));
    }
  }

  /**
   * The texts of each batch's files, in order. Two batches are asked of git
   * at a time: it reads the next one's blobs while this one arrives and is
   * parsed, and never waits to be asked.
   */
  private async *batchTexts(
    batches: string[][],
    reader: RefreshReader,
  ): AsyncGenerator<Map<string, string>> {
    const read = (folders: string[]) => {
      const texts = reader.read(folders.flatMap(f => this.filesOf(f)));
      // Awaited in turn; a refresh that fails first must not leave it unhandled.
      texts.catch(() => undefined);
      return texts;
    };
    const reads = batches.slice(0, 2).map(read);
    for (let i = 0; i < batches.length; i++) {
      const texts = await reads[i];
      if (i + 2 < batches.length) reads.push(read(batches[i + 2]));
      yield texts;
    }
  }

  /** The files of a workload folder, in path order. */
  private filesOf(folder: string): string[] {
    return [...this.store.folderFiles.get(folder)!].sort();
  }

  /** Parses `folders` (each holds files; `texts`: their files' texts) into the store. */
  private async parseWorkloadFolders(
    folders: string[],
    texts: Map<string, string>,
    yieldTurn: () => Promise<void>,
  ): Promise<void> {
    const byFolder = new Map(
      folders.map(folder => [
        folder,
        new Map(this.filesOf(folder).map(p => [p, texts.get(p) ?? ''])),
      ]),
    );
    for (const [folder, parsed] of await parseWorkloadFolders(
      this.ctx,
      byFolder,
      yieldTurn,
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
    const scanned = await stackFilesAmong(
      this.layout,
      this.profiles,
      paths ?? changes.keys(),
    );
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

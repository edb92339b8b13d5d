/**
 * Builds the immutable snapshots from the store: a full build after pool,
 * config or cluster setup changes, and an incremental update (only the
 * changed workload folders and requests swapped) otherwise.
 */
import {
  clusterLandingModel,
  compareStrings,
  landingModel,
  placedWorkload,
  type ClusterProfile,
  type GpuCatalog,
  type PlacementModel,
  type RepositoryWorkload,
  type WorkloadState,
} from '@gpu-gitops/plugin-gpu-common';
import { eventLoopTurns, type SkippedFile } from '@gpu-gitops/plugin-gpu-node';
import type {
  ClusterIndex,
  IndexedWorkload,
  IndexSnapshot,
} from './indexSnapshot';
import { SYMLINK_SKIP_REASON, type IndexStore } from './indexStore';
import { flattened } from './flatString';
import { swapSortedById } from './sortedWorkloads';
import { parseTopologyWorkers, type ParsedWorkloadFolder } from './fileParsers';
import {
  keyedClusterShapes,
  type ClusterShapes,
  type KeyedPool,
} from './clusterPoolKeys';
import type { RepoFolders } from './repoFolders';
import { withEntries } from './overlayMap';

function byKey<T>(key: (value: T) => string) {
  return (a: T, b: T) => compareStrings(key(a), key(b));
}

/** The workload objects' order within one name: where they run, then which object. */
const byPlacement = (a: RepositoryWorkload, b: RepositoryWorkload) =>
  compareStrings(a.namespace, b.namespace) ||
  compareStrings(a.kind, b.kind) ||
  compareStrings(a.overlay ?? '', b.overlay ?? '') ||
  compareStrings(a.path, b.path);

/** Appends `object` to its name's list in `byName`. */
function pushByName(
  byName: Map<string, RepositoryWorkload[]>,
  object: RepositoryWorkload,
): void {
  const list = byName.get(object.name);
  if (list) list.push(object);
  else byName.set(object.name, [object]);
}

/**
 * Every folder's workload objects by name, each list sorted. 100k objects
 * are grouped folder by folder with a turn of the event loop between them
 * (`yieldTurn`): in one go they held a first index's loop for a third of
 * its last second.
 */
async function workloadObjectsOf(
  folders: Iterable<ParsedWorkloadFolder>,
  yieldTurn: () => Promise<void>,
): Promise<Map<string, RepositoryWorkload[]>> {
  const byName = new Map<string, RepositoryWorkload[]>();
  for (const folder of folders) {
    await yieldTurn();
    for (const object of folder.objects) pushByName(byName, object);
  }
  for (const list of byName.values()) {
    if (list.length > 1) list.sort(byPlacement);
  }
  return byName;
}

/**
 * `previous` (by Kubernetes id) with `replaced` out and `added` in: a new
 * map sharing `previous`'s entries (`overlayMap.ts`), lists sorted by id.
 */
function swappedByKubernetesId(
  previous: Map<string, IndexedWorkload[]>,
  replaced: IndexedWorkload[],
  added: IndexedWorkload[],
): Map<string, IndexedWorkload[]> {
  const changes = new Map<string, IndexedWorkload[] | undefined>();
  const listOf = (id: string) =>
    (changes.has(id) ? changes.get(id) : previous.get(id)) ?? [];
  for (const workload of replaced) {
    if (!workload.kubernetesId) continue;
    const rest = listOf(workload.kubernetesId).filter(
      w => w.id !== workload.id,
    );
    changes.set(workload.kubernetesId, rest.length > 0 ? rest : undefined);
  }
  for (const workload of added) {
    if (!workload.kubernetesId) continue;
    changes.set(
      workload.kubernetesId,
      [...listOf(workload.kubernetesId), workload].sort(byKey(w => w.id)),
    );
  }
  return withEntries(previous, changes);
}

/**
 * Each cluster's index with its workloads swapped; a cluster the commit did
 * not touch keeps its list (snapshots never change). Undefined when an added
 * workload's id is one a cluster keeps.
 */
function swappedClusters(
  previous: ReadonlyMap<string, ClusterIndex>,
  replaced: IndexedWorkload[],
  added: IndexedWorkload[],
): Map<string, ClusterIndex> | undefined {
  const clusters = new Map<string, ClusterIndex>();
  for (const [name, cluster] of previous) {
    const gone = new Set(
      replaced.filter(w => w.cluster === name).map(w => w.id),
    );
    const come = added.filter(w => w.cluster === name);
    const clusterWorkloads =
      gone.size + come.length === 0
        ? cluster.repoState.workloads
        : swapSortedById(cluster.repoState.workloads, gone, come);
    if (!clusterWorkloads) return undefined;
    clusters.set(name, {
      profile: cluster.profile,
      repoState: { ...cluster.repoState, workloads: clusterWorkloads },
      bootstrapped: cluster.bootstrapped,
      kustomizationPath: cluster.kustomizationPath,
    });
  }
  return clusters;
}

/**
 * `previous` (workload objects by name) without `replaced` and with `added`:
 * a new map sharing `previous`'s entries (`overlayMap.ts`), each changed
 * name's list sorted once.
 */
function swappedObjectsByName(
  previous: Map<string, RepositoryWorkload[]>,
  replaced: RepositoryWorkload[],
  added: RepositoryWorkload[],
): Map<string, RepositoryWorkload[]> {
  const changes = new Map<string, RepositoryWorkload[] | undefined>();
  const gone = new Set(replaced);
  for (const name of new Set(replaced.map(o => o.name))) {
    const rest = (previous.get(name) ?? []).filter(o => !gone.has(o));
    changes.set(name, rest.length > 0 ? rest : undefined);
  }
  const addedByName = new Map<string, RepositoryWorkload[]>();
  for (const object of added) pushByName(addedByName, object);
  for (const [name, list] of addedByName) {
    const before = changes.has(name) ? changes.get(name) : previous.get(name);
    const all = before ? [...before, ...list] : list;
    if (all.length > 1) all.sort(byPlacement);
    changes.set(name, all);
  }
  return withEntries(previous, changes);
}

/** What changed in a commit that touched only workload folders and requests. */
export interface WorkloadChanges {
  folders: Set<string>;
  /** The changed folders' workloads before the change. */
  replaced: IndexedWorkload[];
  /** The changed folders' workload objects before the change. */
  replacedObjects: RepositoryWorkload[];
  changedRequests: string[];
}

export class SnapshotBuilder {
  /** Workloads of each folder with their cluster resolved; dropped when the folder or any pool changes. */
  private readonly indexedFolders = new Map<string, IndexedWorkload[]>();
  /**
   * From the last full build: the key of a pool, or of GPU nodes no pool
   * describes (a team's own NodePool), -> its cluster and name
   * (`clusterPoolKeys.ts`), and where workloads land among every cluster's
   * nodes.
   */
  private poolOwners = new Map<string, KeyedPool>();
  private placement: PlacementModel = {
    landing: landingModel([]),
    ledgered: new Map(),
    where: 'of any indexed cluster',
  };
  /** Whether two folders define a workload with the same id (then only full builds are exact). */
  private duplicateIds = false;

  constructor(
    private readonly store: IndexStore,
    private readonly folders: RepoFolders,
    private readonly profiles: ClusterProfile[],
    private readonly defaultCluster: string,
    private readonly catalog: GpuCatalog,
  ) {}

  /** The workloads last indexed for `folder` (none when not cached). */
  cachedWorkloads(folder: string): IndexedWorkload[] {
    return this.indexedFolders.get(folder) ?? [];
  }

  /** Drops the cached workloads of `folder` (it changed). */
  forgetFolder(folder: string): void {
    this.indexedFolders.delete(folder);
  }

  /** Drops every cached folder (a pool changed: clusters may resolve differently). */
  forgetAllFolders(): void {
    this.indexedFolders.clear();
  }

  /** A folder's workloads with their pool and cluster resolved (cached until the folder or a pool changes). */
  private indexFolder(name: string): IndexedWorkload[] {
    let indexed = this.indexedFolders.get(name);
    if (!indexed) {
      const folder = this.store.workloadFolders.get(name);
      indexed = (folder?.workloads ?? []).map(workload =>
        this.placedOnItsCluster(workload),
      );
      this.indexedFolders.set(name, indexed);
    }
    return indexed;
  }

  /**
   * The workload placed, on the cluster of the pool (or team nodes) it
   * landed on, named as that cluster names them: the placed copy is made
   * the indexed one (no second copy of 100k workloads).
   */
  private placedOnItsCluster(workload: WorkloadState): IndexedWorkload {
    const owner = (key: string) => this.poolOwners.get(key);
    const indexed = placedWorkload(this.placement, workload) as IndexedWorkload;
    const where = indexed.pool ?? indexed.unpooledNodes?.[0];
    indexed.cluster = (where && owner(where)?.cluster) ?? this.defaultCluster;
    if (indexed.pool) indexed.pool = owner(indexed.pool)?.pool ?? indexed.pool;
    if (indexed.unpooledNodes) {
      indexed.unpooledNodes = indexed.unpooledNodes.map(
        key => owner(key)?.pool ?? key,
      );
    }
    if (indexed.placementWarning) flattened(indexed.placementWarning);
    return indexed;
  }

  /**
   * The next snapshot when a commit changed only workload folders and
   * requests: the previous snapshot's pools are reused and only the changed
   * workloads are swapped, so a refresh costs O(changes), not O(repository).
   * Undefined when that would not be exact (then a full build runs).
   */
  update(
    previous: IndexSnapshot,
    revision: string,
    { folders, replaced, replacedObjects, changedRequests }: WorkloadChanges,
  ): IndexSnapshot | undefined {
    if (this.duplicateIds) return undefined;
    const removed = new Set(replaced.map(w => w.id));
    const addedIds = new Set<string>();
    const added = [...folders].flatMap(folder => this.indexFolder(folder));
    for (const workload of added) {
      if (addedIds.has(workload.id)) return undefined;
      addedIds.add(workload.id);
    }
    const workloads = swapSortedById(previous.workloads, removed, added);
    const clusters = swappedClusters(previous.clusters, replaced, added);
    if (!workloads || !clusters) return undefined;
    const { store } = this;
    const requests =
      changedRequests.length === 0
        ? previous.requests
        : store.collectRequests();
    return {
      revision,
      clusters,
      workloads,
      workloadsByKubernetesId: swappedByKubernetesId(
        previous.workloadsByKubernetesId,
        replaced,
        added,
      ),
      requests,
      workloadObjectsByName: swappedObjectsByName(
        previous.workloadObjectsByName,
        replacedObjects,
        [...folders].flatMap(f => store.workloadFolders.get(f)?.objects ?? []),
      ),
      skipped: this.updatedSkips(previous.skipped, folders, changedRequests),
    };
  }

  /** The previous snapshot's skipped files with those of the changed folders and requests read again. */
  private updatedSkips(
    previous: SkippedFile[],
    folders: Set<string>,
    changedRequests: string[],
  ): SkippedFile[] {
    const { store } = this;
    const changedPaths = new Set(changedRequests);
    return [
      ...previous.filter(
        s =>
          s.reason !== SYMLINK_SKIP_REASON &&
          !changedPaths.has(s.path) &&
          ![...folders].some(f => s.path.startsWith(`${f}/`)),
      ),
      ...store.symlinkSkips(),
      ...[...folders].flatMap(f => store.workloadFolders.get(f)?.skipped ?? []),
      ...changedRequests.flatMap(p => store.requestFiles.get(p)?.skipped ?? []),
    ].sort(byKey(s => s.path));
  }

  /**
   * Every stored folder's workloads, sorted by id (adding the folders' skipped
   * files to `skipped`); a repeated id keeps its first workload and marks the
   * index as having duplicates (then only full builds are exact).
   */
  private async indexAllFolders(
    skipped: SkippedFile[],
    yieldTurn: () => Promise<void>,
  ): Promise<IndexedWorkload[]> {
    const workloads: IndexedWorkload[] = [];
    const seen = new Set<string>();
    this.duplicateIds = false;
    for (const [name, folder] of this.store.workloadFolders) {
      await yieldTurn();
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
    return workloads.sort(byKey(w => w.id));
  }

  /** The pools of a cluster's topology workers, read from its files' topology documents together. */
  private topologyWorkers(cluster: string) {
    const documents = [...this.store.poolFiles.values()]
      .filter(file => file.cluster === cluster)
      .flatMap(file => file.topologyDocuments ?? []);
    return parseTopologyWorkers(
      this.catalog,
      documents,
      this.store.poolConfigs(cluster),
    );
  }

  /**
   * Every cluster's index (profile, bootstrapped?, pools, configs; its
   * workloads come later) and the nodes its pods land on, the default
   * cluster first: a pool name found in several clusters maps there.
   */
  private async indexClusters(yieldTurn: () => Promise<void>): Promise<{
    clusters: Map<string, ClusterIndex>;
    byCluster: ClusterShapes[];
  }> {
    const { store } = this;
    const clusters = new Map<string, ClusterIndex>();
    const ordered = [
      ...this.profiles.filter(p => p.name === this.defaultCluster),
      ...this.profiles.filter(p => p.name !== this.defaultCluster),
    ];
    /** Every cluster's pools and the nodes its pods land on. */
    const byCluster: ClusterShapes[] = [];
    for (const profile of ordered) {
      // 2k pools' landing model per cluster: a turn between clusters.
      await yieldTurn();
      const files = [
        ...[...store.poolFiles.values()].filter(
          file => file.cluster === profile.name,
        ),
        this.topologyWorkers(profile.name),
      ];
      const pools = files.flatMap(file => file.pools);
      const landing = clusterLandingModel({
        pools: files.flatMap(file => file.shapes),
        handWritten: files.flatMap(file => file.handWrittenShapes),
        objects: files.flatMap(file => file.nodeFeatureRules),
        overlays: files.flatMap(file => file.overlays),
      });
      byCluster.push({
        cluster: profile.name,
        shapes: landing.shapes,
        pools: [...pools],
      });
      pools.sort(byKey(p => p.name));
      const kustomizationPath = this.folders.clusterKustomizationPath(
        profile.name,
      );
      clusters.set(profile.name, {
        profile,
        bootstrapped: store.blobs.has(kustomizationPath),
        kustomizationPath,
        repoState: {
          gpuStack: store.gpuStacks?.get(profile.name) ?? {},
          pools,
          ...store.poolConfigs(profile.name),
          workloads: [],
          otherNodePools: store.otherNodePools(profile.name),
          handWrittenConfigMaps: store.handWrittenConfigMaps(profile.name),
        },
      });
    }
    return { clusters, byCluster };
  }

  /**
   * The snapshot of everything stored, read afresh. Placing 100k workloads
   * takes seconds: `yieldTurn` gives the event loop a turn between folders
   * (gpu-node `eventLoopTurns`), so the backend answers meanwhile (from the
   * snapshot before: this one is handed out only when whole).
   */
  async build(
    revision: string,
    yieldTurn: () => Promise<void> = eventLoopTurns(),
  ): Promise<IndexSnapshot> {
    const { store } = this;
    const skipped: SkippedFile[] = [];
    const { clusters, byCluster } = await this.indexClusters(yieldTurn);
    const keyed = keyedClusterShapes(byCluster);
    this.poolOwners = keyed.owners;
    this.placement = {
      landing: landingModel(keyed.shapes),
      ledgered: keyed.ledgered,
      where: 'of any indexed cluster',
      poolNameOf: key => keyed.owners.get(key)?.pool ?? key,
    };
    for (const file of [
      ...store.poolFiles.values(),
      ...store.devicePluginFiles.values(),
      ...store.migFiles.values(),
      ...store.configMapFiles.values(),
    ]) {
      skipped.push(...file.skipped);
    }

    const workloads = await this.indexAllFolders(skipped, yieldTurn);
    const workloadsByKubernetesId = new Map<string, IndexedWorkload[]>();
    for (const workload of workloads) {
      clusters.get(workload.cluster)?.repoState.workloads.push(workload);
      if (workload.kubernetesId) {
        const list = workloadsByKubernetesId.get(workload.kubernetesId) ?? [];
        list.push(workload);
        workloadsByKubernetesId.set(workload.kubernetesId, list);
      }
    }

    const workloadObjectsByName = await workloadObjectsOf(
      store.workloadFolders.values(),
      yieldTurn,
    );

    for (const file of store.requestFiles.values()) {
      if (file.skipped.length > 0) skipped.push(...file.skipped);
    }
    skipped.push(...store.symlinkSkips());
    const requests = store.collectRequests();
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

/**
 * The whole-tree reader: what a GitOps repository holds for one cluster,
 * composed from the per-object parsers (parsePools, parseDevicePluginConfigs,
 * parseMigConfigs, parseWorkloads) over the folders the layout names, and
 * the cluster folder's rules (clusterFolderFiles.ts) over the rest of the
 * cluster's folder.
 */
import type { RepoState } from '@gpu-gitops/plugin-gpu-common';
import {
  builtinCatalog,
  compareStrings,
  defaultClusterProfile,
  GpuCatalog,
  gpuAnnotationKeys,
  clusterLandingModel,
  ledgeredPools,
  placedWorkload,
  type ClusterProfile,
  type MigStrategy,
  type PlacementModel,
  type PoolState,
  type WorkloadState,
} from '@gpu-gitops/plugin-gpu-common';
import { gpuStackFiles } from './gpuStack/gpuStackFiles';
import { readGpuStack } from './gpuStack/readGpuStack';
import {
  compileRepoLayout,
  type CompiledRepoLayout,
} from '../layout/compileRepoLayout';
import {
  clusterKustomizationPath,
  clusterScopePath,
  LayoutInput,
  layoutPrefix,
  migConfigPath,
} from '../layout/layout';
import {
  clusterFolderFileHolds,
  parseClusterFolderPools,
} from './clusterFolderFiles';
import {
  handWrittenConfigMaps,
  handWrittenConfigsByName,
} from './handWrittenConfigMaps';
import { withReplicasAsDeployed } from './deployedWorkloadReplicas';
import type { ParsedFiles } from '../workloads/workloadObjects';
import { parseDevicePluginConfigs } from './parseDevicePluginConfigs';
import { parseMigConfigs } from './parseMigConfigs';
import { deepFreezeInTurns } from '../deepFreeze';
import { parsePoolsInTurns } from './parsePools';
import { parseWorkloadsInTurns } from './parseWorkloads';
import { processTurns, mapInTurns } from './eventLoopTurns';
import { workloadsOfCluster } from './clusterWorkloads';
import { RecentRepoStates, repoStateKey } from './recentRepoStates';
import { nodeOverlaysAmong } from './nodeOverlaysAmong';
import { sharedParseCache, type ParseCache } from './parseCache';
import { parseFiles } from './parseFiles';
import { readDocuments } from './readDocuments';
import { readFiles } from './readFiles';
import { gpuPoolShapes } from './gpuPoolShapes';
import { withTopologyDocuments } from './topologyMachineDeployments';
import type { RepoTree } from './tree';
import type { ParsedDocument, SkippedFile } from './yamlObjects';

/**
 *  RepoState plus the files the reader had to skip (and why).
 *
 * @public
 */
export interface RepoStateReport extends RepoState {
  skipped: SkippedFile[];
  /**
   * True when the cluster's GPU kustomization exists: the
   * gpu-cluster-bootstrap template (or a person) set the cluster up.
   */
  bootstrapped: boolean;
}

/**
 * What `readRepoState` reads beside the tree, the layout and the cluster.
 *
 * @public
 */
export interface ReadRepoStateOptions {
  /**
   * Catalog used to name the GPU model of pools without our model label
   * (from their instance types or Karpenter GPU name); built-in by default.
   */
  catalog?: GpuCatalog;
  /**
   * Read GPU workloads only from these repository folders (e.g. the one
   * workload folder a request writes) instead of every folder under the apps
   * prefix. The publisher checks out only what a change touches, so on a big
   * repository it neither fetches nor parses thousands of unrelated apps.
   */
  workloadDirs?: string[];
  /**
   * The cluster's profile: when given, the reader also says what the
   * repository runs on its GPU nodes (`gpuStack`: another device plugin, a
   * GPU Operator without MIG manager), for the planner to refuse what they
   * cannot run. Read from the cluster's folder and every file outside all
   * clusters' folders that the tree holds.
   */
  profile?: ClusterProfile;
  /**
   * What each file content parsed to before (default: the process's
   * shared cache): a re-render parses only the files that changed.
   */
  parseCache?: ParseCache;
}

/** What every step of one read shares: the tree, the layout, the cluster, the files skipped, the parse cache. */
interface ClusterRead {
  tree: RepoTree;
  compiled: CompiledRepoLayout;
  clusterName: string;
  skipped: SkippedFile[];
  cache: ParseCache | undefined;
}

/**
 * The states read lately, for the next reader of the same files (the
 * updater's pass: one base, many re-renders); one set per parse cache, as
 * what a file parses to is that cache's.
 */
const recentStatesByCache = new WeakMap<
  ParseCache,
  RecentRepoStates<RepoStateReport>
>();

function recentStatesOf(
  cache: ParseCache = sharedParseCache,
): RecentRepoStates<RepoStateReport> {
  let states = recentStatesByCache.get(cache);
  if (!states) {
    states = new RecentRepoStates();
    recentStatesByCache.set(cache, states);
  }
  return states;
}

/**
 * Parses what a GitOps repository already holds for one cluster (GPU pools,
 * device-plugin configs, mig-parted configs) and all GPU workloads into the
 * planner's RepoState. Never throws on repository content: files it cannot
 * parse are listed in `skipped`. The state is deep-frozen: the readers of
 * the same files share one (`recentRepoStates.ts`), so none may change it;
 * one that needs a changed state builds its own from it.
 *
 * @public
 */
export async function readRepoState(
  tree: RepoTree,
  layout: LayoutInput,
  clusterName: string,
  options: ReadRepoStateOptions = {},
): Promise<RepoStateReport> {
  const key = repoStateKey(await tree.contentKey?.(), {
    layout: layout ?? null,
    clusterName,
    catalog: options.catalog ?? null,
    workloadDirs: options.workloadDirs ?? null,
    profile: options.profile ?? null,
  });
  return recentStatesOf(options.parseCache).recall(key, async () =>
    deepFreezeInTurns(
      await readRepoStateOnce(tree, layout, clusterName, options),
    ),
  );
}

async function readRepoStateOnce(
  tree: RepoTree,
  layout: LayoutInput,
  clusterName: string,
  options: ReadRepoStateOptions,
): Promise<RepoStateReport> {
  const read: ClusterRead = {
    tree,
    compiled: compileRepoLayout(layout, [clusterName]),
    clusterName,
    skipped: [],
    cache: options.parseCache,
  };
  // A git checkout names its files' blob ids with one git process: started
  // now, it runs while the cluster's folder is listed and read (a failure
  // is met again where the ids are used).
  tree.blobIds?.().catch(() => undefined);
  // So does the search for what runs on the GPU nodes (gpuStackFiles.ts: a
  // git grep, then the few files it names), awaited last.
  const stackFiles = options.profile
    ? gpuStackFiles(tree, layout, clusterName)
    : undefined;
  stackFiles?.catch(() => undefined);

  // The cluster's folder beyond the layout's own files (one rule with the
  // allocation index, clusterFolderFiles.ts): pools the product adopted
  // where they live, every other pool's name, and hand-written ConfigMaps of
  // NVIDIA configs. Only files that may hold one are parsed.
  const folder = await readClusterFolderDocs(read);
  const configs = await readClusterConfigs(read, folder.configMapDocs);
  const found = await readClusterPools(
    read,
    configs,
    options.catalog ?? builtinCatalog,
    folder.poolDocs,
  );
  const workloads = await readClusterWorkloads(read, layout, options, found);
  const bootstrapped =
    (await tree.readFile(
      clusterKustomizationPath(read.compiled.layout, clusterName),
    )) !== undefined;
  const gpuStack =
    options.profile && stackFiles
      ? await readGpuStack(tree, options.profile, await stackFiles, configs)
      : undefined;
  return {
    ...(gpuStack ? { gpuStack } : {}),
    pools: [...found.pools].sort((a, b) => compareStrings(a.name, b.name)),
    devicePluginConfigs: configs.devicePluginConfigs,
    migConfigs: configs.migConfigs,
    workloads,
    otherNodePools: found.otherNodePools,
    handWrittenConfigMaps: configs.handWrittenConfigMaps,
    skipped: read.skipped,
    bootstrapped,
  };
}

/** The cluster's configs: hand-written ConfigMaps' keys, the product's files over them. */
type ClusterConfigs = Pick<
  RepoState,
  'devicePluginConfigs' | 'migConfigs' | 'handWrittenConfigMaps'
>;

/**
 * Device-plugin configs (one file per key; a product's file wins over a
 * hand-written key of the same name: it is what the product's ConfigMap
 * holds) and the mig-parted config (one file, entries under `mig-configs`).
 */
async function readClusterConfigs(
  read: ClusterRead,
  configMapDocs: ParsedDocument[],
): Promise<ClusterConfigs> {
  const configMaps = handWrittenConfigMaps(configMapDocs);
  const handWritten = handWrittenConfigsByName(configMaps);
  return {
    devicePluginConfigs: {
      ...handWritten.devicePluginConfigs,
      ...(await readDevicePluginConfigFiles(read)),
    },
    migConfigs: {
      ...handWritten.migConfigs,
      ...(await readMigConfigFile(read)),
    },
    handWrittenConfigMaps: configMaps,
  };
}

/** The cluster's pools, with the documents they came from (for where workloads land). */
interface ClusterPools {
  /** The pool folder's, then the rest of the cluster's folder's. */
  pools: PoolState[];
  /** Sorted. */
  otherNodePools: string[];
  poolDocs: ParsedDocument[];
  scopePoolDocs: ParsedDocument[];
  handWrittenGpuPools: PoolState[];
}

/**
 * Every GPU pool of the pool folder, and the product's pools elsewhere in
 * the cluster's folder; every other pool object's name.
 */
async function readClusterPools(
  read: ClusterRead,
  configs: ClusterConfigs,
  catalog: GpuCatalog,
  scopePoolDocs: ParsedDocument[],
): Promise<ClusterPools> {
  const { tree, compiled, clusterName, skipped, cache } = read;
  const poolConfigs = {
    devicePluginConfigs: configs.devicePluginConfigs,
    migConfigs: configs.migConfigs,
  };
  const poolDocs = await readDocuments(
    tree,
    compiled.poolPrefix(clusterName),
    skipped,
    undefined,
    cache,
  );
  const inPoolFolder = await parsePoolsInTurns(
    poolDocs,
    poolConfigs,
    catalog,
    skipped,
  );
  const elsewhere = parseClusterFolderPools(
    scopePoolDocs,
    poolConfigs,
    catalog,
    skipped,
  );
  return {
    pools: [...inPoolFolder.pools, ...elsewhere.pools],
    otherNodePools: [
      ...new Set([...inPoolFolder.otherNodePools, ...elsewhere.otherNodePools]),
    ].sort(),
    poolDocs,
    scopePoolDocs,
    handWrittenGpuPools: elsewhere.handWrittenGpuPools,
  };
}

/**
 * Every GPU workload (or patch) under the apps folder that runs on this
 * cluster (clusterWorkloads.ts), with the replicas its folder deploys, on
 * the pool its pods can land on (one rule with the import and the index).
 */
async function readClusterWorkloads(
  read: ClusterRead,
  layout: LayoutInput,
  options: ReadRepoStateOptions,
  found: ClusterPools,
): Promise<WorkloadState[]> {
  const { tree, compiled, clusterName } = read;
  const { workloads, parsedFiles } = await parseWorkloadFolders(read, options);
  const placement = clusterPlacement(
    clusterName,
    found,
    options.profile?.migStrategy,
  );
  const onCluster = await workloadsOfCluster(
    tree,
    layout,
    clusterName,
    workloads,
    read.cache,
  );
  const deployed = await withReplicasAsDeployed(
    tree,
    compiled,
    onCluster,
    parsedFiles,
    read.cache,
  );
  // 89k workloads on a scale cluster: placed with turns of the event loop.
  return mapInTurns(deployed, workload => placedWorkload(placement, workload));
}

/** The annotation a workload asks for GPUs with, in the profile's label domain. */
function requestAnnotationOf(profile: ClusterProfile | undefined): string {
  return gpuAnnotationKeys(
    profile?.labelDomain ?? defaultClusterProfile.labelDomain,
  ).request;
}

/**
 * The GPU workloads (or patches) of the workload folders (the options' own,
 * else the whole apps folder), read one folder after another and parsed
 * with the profile's request annotation; with the documents of each file
 * that parsed whole, for the replicas reader to take rather than parse again.
 */
async function parseWorkloadFolders(
  { tree, compiled, skipped, cache }: ClusterRead,
  options: ReadRepoStateOptions,
): Promise<{ workloads: WorkloadState[]; parsedFiles: ParsedFiles }> {
  const workloadDirs = options.workloadDirs ?? [compiled.workloadsPrefix];
  const workloadDocuments: ParsedDocument[] = [];
  const broken = new Set<string>();
  for (const dir of workloadDirs) {
    const before = skipped.length;
    workloadDocuments.push(
      ...(await readDocuments(tree, dir, skipped, undefined, cache)),
    );
    for (const file of skipped.slice(before)) broken.add(file.path);
  }
  const parsedFiles = new Map<string, unknown[]>();
  for (const { path, value } of workloadDocuments) {
    if (broken.has(path)) continue;
    const values = parsedFiles.get(path) ?? [];
    values.push(value);
    parsedFiles.set(path, values);
  }
  return {
    workloads: await parseWorkloadsInTurns(
      workloadDocuments,
      compiled,
      requestAnnotationOf(options.profile),
      processTurns,
    ),
    parsedFiles,
  };
}

/**
 * The product's device-plugin config files of the cluster (one file per key,
 * the key named by the layout), parsed.
 */
async function readDevicePluginConfigFiles({
  tree,
  compiled,
  clusterName,
  skipped,
  cache,
}: ClusterRead): Promise<Record<string, unknown>> {
  const dpPrefix = layoutPrefix(
    compiled.layout,
    'devicePluginConfig',
    { cluster: clusterName },
    'config',
  );
  const configName = (path: string) =>
    compiled.devicePluginConfigName(clusterName, path);
  const dpDocs = await readDocuments(
    tree,
    dpPrefix,
    skipped,
    path => configName(path) !== undefined,
    cache,
  );
  return parseDevicePluginConfigs(dpDocs, path => configName(path)!, skipped);
}

/** The product's mig-parted config file of the cluster, parsed (none when absent). */
async function readMigConfigFile({
  tree,
  compiled,
  clusterName,
  skipped,
}: ClusterRead): Promise<Record<string, unknown>> {
  const migPath = migConfigPath(compiled.layout, clusterName);
  const migText = await tree.readFile(migPath);
  return migText === undefined
    ? {}
    : parseMigConfigs(migPath, migText, skipped);
}

/**
 * The documents of the cluster's folder beyond the layout's own files that
 * may hold a pool or a hand-written ConfigMap of NVIDIA configs (one rule
 * with the allocation index, clusterFolderFiles.ts); only those are parsed.
 */
async function readClusterFolderDocs({
  tree,
  compiled,
  clusterName,
  skipped,
  cache,
}: ClusterRead): Promise<{
  poolDocs: ParsedDocument[];
  configMapDocs: ParsedDocument[];
}> {
  const scope = clusterScopePath(compiled.layout, clusterName);
  const scopeFiles = (await tree.listFiles(scope)).filter(
    path => compiled.place(path)?.entry === 'clusterFolder',
  );
  const scopeTexts = await readFiles(tree, scopeFiles);
  const holding = scopeFiles.flatMap((path, i) => {
    const text = scopeTexts[i];
    const holds = text === undefined ? undefined : clusterFolderFileHolds(text);
    return holds && (holds.pools || holds.configMaps) ? [{ path, holds }] : [];
  });
  const parsed = await parseFiles(
    tree,
    holding.map(file => file.path),
    skipped,
    cache,
  );
  const poolDocs: ParsedDocument[] = [];
  const configMapDocs: ParsedDocument[] = [];
  for (const [i, { holds }] of holding.entries()) {
    const docs = parsed[i];
    if (holds.pools) poolDocs.push(...docs);
    if (holds.configMaps) configMapDocs.push(...docs);
  }
  return { poolDocs: withTopologyDocuments(poolDocs), configMapDocs };
}

/**
 * Where the cluster's GPU pods can land: the product's pools, the team's
 * hand-written GPU NodePools and the GPU nodes no NodePool launches (gpu-common
 * `clusterLandingModel`, the one model of every reader), with the pools' ledgers indexed by request.
 */
function clusterPlacement(
  clusterName: string,
  { pools, poolDocs, scopePoolDocs, handWrittenGpuPools }: ClusterPools,
  migStrategy: MigStrategy | undefined,
): PlacementModel {
  const poolObjectDocs = [...poolDocs, ...scopePoolDocs];
  return {
    landing: clusterLandingModel({
      pools: gpuPoolShapes(poolObjectDocs, pools, migStrategy),
      handWritten: gpuPoolShapes(
        scopePoolDocs,
        handWrittenGpuPools,
        migStrategy,
      ),
      objects: poolObjectDocs.map(doc => doc.value),
      overlays: nodeOverlaysAmong(poolObjectDocs.map(doc => doc.value)),
    }),
    ledgered: ledgeredPools(pools),
    where: `of cluster ${clusterName}`,
  };
}

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
import { parsePools } from './parsePools';
import { parseWorkloads } from './parseWorkloads';
import { workloadsOfCluster } from './clusterWorkloads';
import { nodeOverlaysAmong } from './nodeOverlaysAmong';
import type { ParseCache } from './parseCache';
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
 * Parses what a GitOps repository already holds for one cluster (GPU pools,
 * device-plugin configs, mig-parted configs) and all GPU workloads into the
 * planner's RepoState. Never throws on repository content: files it cannot
 * parse are listed in `skipped`.
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

/** @public */
export async function readRepoState(
  tree: RepoTree,
  layout: LayoutInput,
  clusterName: string,
  options: ReadRepoStateOptions = {},
): Promise<RepoStateReport> {
  const catalog = options.catalog ?? builtinCatalog;
  const compiled = compileRepoLayout(layout, [clusterName]);
  const resolved = compiled.layout;
  const skipped: SkippedFile[] = [];
  const cache = options.parseCache;
  // A git checkout names its files' blob ids with one git process: started
  // now, it runs while the cluster's folder is listed and read (a failure
  // is met again where the ids are used).
  tree.blobIds?.().catch(() => undefined);

  // The cluster's folder beyond the layout's own files (one rule with the
  // allocation index, clusterFolderFiles.ts): pools the product adopted
  // where they live, every other pool's name, and hand-written ConfigMaps of
  // NVIDIA configs. Only files that may hold one are parsed.
  const { poolDocs: scopePoolDocs, configMapDocs: scopeConfigMapDocs } =
    await readClusterFolderDocs(tree, compiled, clusterName, skipped, cache);
  const configMaps = handWrittenConfigMaps(scopeConfigMapDocs);
  const handWritten = handWrittenConfigsByName(configMaps);

  // Device-plugin configs: one file per key (a product's file wins over a
  // hand-written key of the same name: it is what the product's ConfigMap holds).
  const devicePluginConfigs = {
    ...handWritten.devicePluginConfigs,
    ...(await readDevicePluginConfigFiles(
      tree,
      compiled,
      clusterName,
      skipped,
      cache,
    )),
  };

  // mig-parted config: one file, entries under `mig-configs`.
  const migConfigs = {
    ...handWritten.migConfigs,
    ...(await readMigConfigFile(tree, resolved, clusterName, skipped)),
  };

  // Pools: every GPU pool of the pool folder, and the product's pools
  // elsewhere in the cluster's folder.
  const poolConfigs = { devicePluginConfigs, migConfigs };
  const poolPrefix = compiled.poolPrefix(clusterName);
  const poolDocs = await readDocuments(
    tree,
    poolPrefix,
    skipped,
    undefined,
    cache,
  );
  const inPoolFolder = parsePools(poolDocs, poolConfigs, catalog, skipped);
  const elsewhere = parseClusterFolderPools(
    scopePoolDocs,
    poolConfigs,
    catalog,
    skipped,
  );
  const pools = [...inPoolFolder.pools, ...elsewhere.pools];
  const otherNodePools = new Set([
    ...inPoolFolder.otherNodePools,
    ...elsewhere.otherNodePools,
  ]);

  // Workloads: every GPU workload (or patch) under the apps folder that runs
  // on this cluster (clusterWorkloads.ts), on the pool its pods can land on
  // (one rule with the import and the index).
  const { workloads: parsedWorkloads, parsedFiles } =
    await parseWorkloadFolders(tree, compiled, options, skipped, cache);
  const placement = clusterPlacement(
    clusterName,
    pools,
    poolDocs,
    scopePoolDocs,
    elsewhere.handWrittenGpuPools,
    options.profile?.migStrategy,
  );
  const workloads = (
    await withReplicasAsDeployed(
      tree,
      compiled,
      await workloadsOfCluster(tree, layout, clusterName, parsedWorkloads),
      parsedFiles,
    )
  ).map(workload => placedWorkload(placement, workload));

  pools.sort((a, b) => compareStrings(a.name, b.name));
  const bootstrapped =
    (await tree.readFile(clusterKustomizationPath(resolved, clusterName))) !==
    undefined;
  const gpuStack = options.profile
    ? await readGpuStack(
        tree,
        options.profile,
        await gpuStackFiles(tree, layout, clusterName),
        { devicePluginConfigs, handWrittenConfigMaps: configMaps },
      )
    : undefined;
  return {
    ...(gpuStack ? { gpuStack } : {}),
    pools,
    devicePluginConfigs,
    migConfigs,
    workloads,
    otherNodePools: [...otherNodePools].sort(),
    handWrittenConfigMaps: configMaps,
    skipped,
    bootstrapped,
  };
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
  tree: RepoTree,
  compiled: CompiledRepoLayout,
  options: ReadRepoStateOptions,
  skipped: SkippedFile[],
  cache: ParseCache | undefined,
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
    workloads: parseWorkloads(
      workloadDocuments,
      compiled,
      requestAnnotationOf(options.profile),
    ),
    parsedFiles,
  };
}

/**
 * The product's device-plugin config files of the cluster (one file per key,
 * the key named by the layout), parsed.
 */
async function readDevicePluginConfigFiles(
  tree: RepoTree,
  compiled: CompiledRepoLayout,
  clusterName: string,
  skipped: SkippedFile[],
  cache: ParseCache | undefined,
): Promise<Record<string, unknown>> {
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
async function readMigConfigFile(
  tree: RepoTree,
  layout: LayoutInput,
  clusterName: string,
  skipped: SkippedFile[],
): Promise<Record<string, unknown>> {
  const migPath = migConfigPath(layout, clusterName);
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
async function readClusterFolderDocs(
  tree: RepoTree,
  compiled: CompiledRepoLayout,
  clusterName: string,
  skipped: SkippedFile[],
  cache: ParseCache | undefined,
): Promise<{ poolDocs: ParsedDocument[]; configMapDocs: ParsedDocument[] }> {
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
  pools: PoolState[],
  poolDocs: ParsedDocument[],
  scopePoolDocs: ParsedDocument[],
  handWrittenGpuPools: PoolState[],
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

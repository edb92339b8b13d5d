/**
 * Parses the blobs the index reads with gpu-node's per-object parsers (the
 * ones its whole-tree reader `readRepoState` composes), one file or one
 * workload folder at a time: the index understands the repository exactly
 * as the publisher and the planner do, yet re-reads only what a commit
 * changed.
 */
import {
  parseGpuRequestYaml,
  type GpuCatalog,
  type GpuRequest,
  type HandWrittenConfigMap,
  type NodeOverlayLike,
  type PoolNodeShape,
  type PoolState,
  type RepositoryWorkload,
  type WorkloadState,
} from '@gpu-gitops/plugin-gpu-common';
import {
  asKubernetesObject,
  clusterFolderFileHolds,
  gpuPoolShapes,
  handWrittenConfigMaps,
  nodeOverlaysAmong,
  parseClusterFolderPools,
  withTopologyDocuments,
  parseDevicePluginConfigs,
  parseMigConfigs,
  parsePools,
  parseWorkloads,
  eventLoopTurns,
  parseYamlFile,
  readWorkloadObjects,
  withDeployedReplicas,
  type CompiledRepoLayout,
  type ParsedDocument,
  type PoolConfigs,
  type SkippedFile,
} from '@gpu-gitops/plugin-gpu-node';

/** NFD's rule kind (nfd.k8s-sigs.io/v1alpha1). */
const NODE_FEATURE_RULE_KIND = 'NodeFeatureRule';

export interface ParseContext {
  /** The layout compiled for the index's clusters. */
  layout: CompiledRepoLayout;
  catalog: GpuCatalog;
}

/** The entries of a config file (device-plugin or mig-parted) by name. */
export interface ParsedConfigFile {
  configs: Record<string, unknown>;
  skipped: SkippedFile[];
}

/** One device-plugin config file, holding the config the layout names `name`. */
export function parseDevicePluginConfigFile(
  path: string,
  name: string,
  text: string,
): ParsedConfigFile {
  const skipped: SkippedFile[] = [];
  const docs = parseYamlFile(path, text, skipped);
  return {
    configs: parseDevicePluginConfigs(docs, () => name, skipped),
    skipped,
  };
}

/** A cluster's mig-parted config file. */
export function parseMigConfigFile(
  path: string,
  text: string,
): ParsedConfigFile {
  const skipped: SkippedFile[] = [];
  return { configs: parseMigConfigs(path, text, skipped), skipped };
}

/** The pools of one file, their nodes' shapes, and the names of the other pools it holds. */
export interface ParsedPoolFile {
  pools: PoolState[];
  /** What the scheduler sees of each pool's nodes: where the workloads land (`snapshotBuilder.ts`). */
  shapes: PoolNodeShape[];
  /** The nodes of the team's own GPU NodePools in it: GPU pods land there too, nothing is counted. */
  handWrittenShapes: PoolNodeShape[];
  /** Its NodeFeatureRules: a team's label GPU servers no NodePool launches (gpu-common `clusterLandingModel`). */
  nodeFeatureRules: unknown[];
  /** Its NodeOverlays: the resources they add to the cluster's NodePools' nodes (gpu-common `clusterLandingModel`). */
  overlays: NodeOverlayLike[];
  otherNodePools: string[];
  skipped: SkippedFile[];
  /** Its documents a managed topology's workers are read from (`topologyDocumentsOf`); none in the pool folder. */
  topologyDocuments?: ParsedDocument[];
}

/** The file's pools with their shapes, read from the same documents. */
function withShapes(
  docs: ParsedDocument[],
  parsed: {
    pools: PoolState[];
    otherNodePools: string[];
    handWrittenGpuPools?: PoolState[];
  },
  skipped: SkippedFile[],
): ParsedPoolFile {
  return {
    pools: parsed.pools,
    shapes: gpuPoolShapes(docs, parsed.pools),
    handWrittenShapes: gpuPoolShapes(docs, parsed.handWrittenGpuPools ?? []),
    nodeFeatureRules: docs
      .map(d => d.value)
      .filter(v => asKubernetesObject(v)?.kind === NODE_FEATURE_RULE_KIND),
    overlays: nodeOverlaysAmong(docs.map(d => d.value)),
    otherNodePools: parsed.otherNodePools,
    skipped,
  };
}

/**
 * The pools of one NodePool file (its NodeOverlays live in it too).
 * `configs` holds the cluster's device-plugin and mig-parted configs: the
 * reader infers sharing details from the ones a pool names.
 */
export function parsePoolFile(
  ctx: ParseContext,
  path: string,
  text: string,
  configs: PoolConfigs,
): ParsedPoolFile {
  const skipped: SkippedFile[] = [];
  const docs = parseYamlFile(path, text, skipped);
  return withShapes(
    docs,
    parsePools(docs, configs, ctx.catalog, skipped),
    skipped,
  );
}

/**
 * The pools of one other file of a cluster's folder, by the rule
 * `readRepoState` applies there (`parseClusterFolderPools`: only the pools
 * the product manages; a file that cannot hold a pool is not parsed).
 */
export function parseClusterFolderPoolFile(
  ctx: ParseContext,
  path: string,
  text: string,
  configs: PoolConfigs,
): ParsedPoolFile {
  if (!clusterFolderFileHolds(text).pools) {
    return {
      pools: [],
      shapes: [],
      handWrittenShapes: [],
      nodeFeatureRules: [],
      overlays: [],
      otherNodePools: [],
      skipped: [],
    };
  }
  const skipped: SkippedFile[] = [];
  const docs = parseYamlFile(path, text, skipped);
  const topologyDocuments = topologyDocumentsOf(docs);
  return {
    ...withShapes(
      docs,
      parseClusterFolderPools(docs, configs, ctx.catalog, skipped),
      skipped,
    ),
    ...(topologyDocuments.length > 0 ? { topologyDocuments } : {}),
  };
}

/**
 * The documents of a file a managed topology's workers are read from: all
 * of a file that holds a Cluster API Cluster or ClusterClass (the worker
 * classes' templates are often beside them), none of any other file. A
 * topology Cluster and its ClusterClass may be in two files, each parsed
 * on its own: the snapshot reads the workers of a cluster's folder from all
 * of them (`parseTopologyWorkers`).
 */
function topologyDocumentsOf(docs: ParsedDocument[]): ParsedDocument[] {
  const holds = docs.some(d =>
    ['Cluster', 'ClusterClass'].includes(
      String(asKubernetesObject(d.value)?.kind),
    ),
  );
  return holds ? docs : [];
}

/**
 * The pools a cluster's folder's topology workers are, read from the
 * topology documents of all its files as `readRepoState` reads the whole
 * folder (gpu-node `withTopologyDocuments`, `parseClusterFolderPools`):
 * each adopted entry a pool in its Cluster's file.
 */
export function parseTopologyWorkers(
  catalog: GpuCatalog,
  docs: ParsedDocument[],
  configs: PoolConfigs,
): Omit<ParsedPoolFile, 'topologyDocuments'> {
  const all = withTopologyDocuments(docs);
  const made = all.slice(docs.length);
  const classDocs = docs.filter(
    d => asKubernetesObject(d.value)?.kind !== 'Cluster',
  );
  return withShapes(
    all,
    parseClusterFolderPools([...made, ...classDocs], configs, catalog, []),
    [],
  );
}

/** The hand-written ConfigMaps of NVIDIA configs one file of a cluster's folder holds. */
export interface ParsedConfigMapFile {
  configMaps: HandWrittenConfigMap[];
  skipped: SkippedFile[];
}

/**
 * The hand-written device-plugin and mig-parted ConfigMaps of one file of a
 * cluster's folder (`handWrittenConfigMaps`, as `readRepoState` reads them).
 * A file that cannot hold one is not parsed; one that may hold a pool too
 * reports its syntax error with its pools, once.
 */
export function parseConfigMapFile(
  path: string,
  text: string,
): ParsedConfigMapFile {
  const holds = clusterFolderFileHolds(text);
  if (!holds.configMaps) return { configMaps: [], skipped: [] };
  const skipped: SkippedFile[] = [];
  const docs = parseYamlFile(path, text, skipped);
  return {
    configMaps: handWrittenConfigMaps(docs),
    skipped: holds.pools ? [] : skipped,
  };
}

/** What the index keeps of one workload folder. */
export interface ParsedWorkloadFolder {
  /** Its GPU workloads, as the planner reads them (placed on a pool where their pods land by the snapshot, which knows every pool). */
  workloads: WorkloadState[];
  /** Every workload object, GPU or not, as deployed (existing workloads a request can name). */
  objects: RepositoryWorkload[];
  skipped: SkippedFile[];
}

/**
 * The GPU workloads and the workload objects of some workload folders
 * (folder -> its files), each folder read on its own: a workload and its
 * patches live in one folder (gpu-node `RepoPlace` 'workloadDir'), as an
 * incremental refresh reads them. A folder's parsed documents are garbage
 * as soon as it is read; a batch of 2,000 folders' documents kept to the
 * batch's end reached the old generation (GC work of a first index).
 */
export async function parseWorkloadFolders(
  ctx: ParseContext,
  folders: Map<string, Map<string, string>>,
  yieldTurn = eventLoopTurns(),
): Promise<Map<string, ParsedWorkloadFolder>> {
  const out = new Map<string, ParsedWorkloadFolder>();
  for (const [folder, files] of folders) {
    await yieldTurn();
    out.set(folder, await parseWorkloadFolder(ctx, files));
  }
  return out;
}

/** One workload folder (`files`: its files' texts by path); each file parsed once. */
async function parseWorkloadFolder(
  ctx: ParseContext,
  files: Map<string, string>,
): Promise<ParsedWorkloadFolder> {
  const skipped: SkippedFile[] = [];
  const documents: ParsedDocument[] = [];
  /** Files that parsed whole: the workload objects reuse their documents. */
  const parsed = new Map<string, unknown[]>();
  for (const [path, text] of files) {
    const before = skipped.length;
    const fileDocuments = parseYamlFile(path, text, skipped);
    for (const document of fileDocuments) documents.push(document);
    if (skipped.length === before) {
      parsed.set(
        path,
        fileDocuments.map(d => d.value),
      );
    }
  }
  const objects = await readWorkloadObjects(
    path => ctx.layout.workloadNamespace(path),
    files,
    parsed,
  );
  return {
    workloads: parseWorkloads(documents, ctx.layout).map(workload =>
      withDeployedReplicas(workload, objects),
    ),
    objects,
    skipped,
  };
}

export function parseRequestFile(
  path: string,
  text: string,
): { request?: GpuRequest; skipped: SkippedFile[] } {
  try {
    return { request: parseGpuRequestYaml(text), skipped: [] };
  } catch (error) {
    return {
      skipped: [
        {
          path,
          reason: `not a valid GpuRequest: ${(error as Error).message}`,
        },
      ],
    };
  }
}

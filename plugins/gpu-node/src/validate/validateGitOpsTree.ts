import { promises as fs } from 'fs';
import {
  builtinCatalog,
  ClusterProfile,
  ClusterProfileOverride,
  GpuCatalog,
  GpuInputError,
  poolProviderOf,
  resolveClusterProfile,
} from '@gpu-gitops/plugin-gpu-common';
import { readKustomizationGraph, type KustomizationGraph } from '../kustomize';
import {
  LayoutInput,
  resolveLayout,
  type ResolvedRepoLayout,
} from '../layout/layout';
import { asKubernetesObject } from '../repo/yamlObjects';
import { BuiltRoot, buildRoots } from './builtRoots';
import {
  checkGpuContainerImages,
  checkWorkloadsServed,
} from './builtObjectRules';
import { builtPools, type BuiltPool } from './builtPools';
import { gpuWorkloads, type GpuWorkload } from './builtWorkloads';
import { checkClusterFolder, clusterNames } from './clusterFolderRules';
import { configRuleFindings } from './configRules';
import { Finding, objectName, prefixPath, sortFindings } from './findings';
import {
  GpuConfigMapNames,
  GpuConfigMaps,
  gpuConfigMapNames,
  gpuConfigMapsOf,
} from './gpuConfigMaps';
import { checkKueueQuotas } from './kueueQuotaRules';
import { checkOrphans } from './orphanRules';
import { checkNodeOverlayCapacity, checkPoolLimits } from './poolCapacity';
import { checkForeignNodeOverlays } from './foreignNodeOverlayRules';
import { checkProductOverlayPrecedence } from './overlayPrecedenceRules';
import { checkTeamNodeFeatureRules } from './teamNodeFeatureRuleRules';
import { withoutTeamGpuNodeWorkloads } from './teamGpuNodes';
import {
  chartPoolFindingsAsNotes,
  chartRenderedPools,
} from './chartRenderedPools';
import { checkNodeClassRefs } from './nodeClassRefRules';
import { checkPrunedFields } from './prunedFieldRules';
import { checkWorkloadsSchedulable } from './schedulingRules';
import { checkPoolDevicePlugins } from './devicePluginRules';
import { checkGpuConfigsDelivery } from './workloadClusterDeliveryRules';
import { carriedObjects } from '../changes/workloadCluster/carriedManifests';
import { clusterReleaseFiles } from '../changes/bootstrap/helmReleases/findHelmReleases';
import { readGpuStack } from '../repo/gpuStack/readGpuStack';
import { schemaError } from './schemas';
import { readSourceTree, SourceTree } from './sourceTree';

export type { Finding } from './findings';

/** @public */
export interface ValidateGitOpsTreeOptions {
  layout?: LayoutInput;
  /** Catalog for GPU models (MIG geometry, GPUs per instance type); the built-in one by default. */
  catalog?: GpuCatalog;
  /**
   * The cluster the tree is applied to (a profile or a partial override of
   * the default one): names the device-plugin and mig-parted ConfigMaps,
   * the MIG strategy, the Karpenter version and whether NodeOverlays are
   * used. Without it the default profile applies, except that the
   * ConfigMaps the layout's cluster kustomizations generate count too and
   * either MIG strategy is accepted.
   */
  cluster?: ClusterProfile | ClusterProfileOverride;
  /** Karpenter version for its label and CEL rules (default: the cluster's, if given). */
  karpenterVersion?: string;
  /**
   * Whether the cluster uses Karpenter NodeOverlays (default: the
   * cluster's, else true). Without them a missing overlay is expected, not
   * a finding.
   */
  nodeOverlay?: boolean;
  /** Environment of kustomize, where `KUSTOMIZE_BIN` is read (default: this process's). */
  env?: Record<string, string | undefined>;
  /** Time limit of each `kustomize build` (default 60 s). */
  kustomizeTimeoutMs?: number;
  /**
   * Inflate `helmCharts` (kustomize `--enable-helm`; needs helm on PATH
   * and the charts' repositories). Off by default: such roots are built
   * without their charts, and a note says so.
   */
  enableHelm?: boolean;
}

/**
 *  Findings, and notes on what could not be checked (never a finding, never hidden).
 *
 * @public
 */
export interface GitOpsTreeReport {
  findings: Finding[];
  notes: string[];
}

/**
 * Checks a checked-out GitOps tree the way a PR reviewer would, on what the
 * files say and on what the real kustomize builds from them:
 *
 * - files: YAML syntax (a Helm chart folder is skipped, with a note), every
 *   object against its schema and Karpenter's rules, the fields the API
 *   server would prune from Karpenter objects; per cluster GPU folder, device-plugin / mig-parted configs valid
 *   and listed in the configMapGenerator, NodeOverlays for shared pools, no
 *   object twice;
 * - built (every kustomize root): the root builds; config labels name keys
 *   of the built ConfigMaps; MIG layouts fit the GPU; GPU containers have an
 *   image and a pool that serves (and a taint they tolerate), and some pool
 *   whose nodes their selectors, affinity and tolerations fit; NodeOverlay
 *   capacities match what the device plugin advertises; pool limits hold
 *   what the workloads of every root need together (a pool whose GPUs per
 *   node are unknown gets a note instead); node class references resolve;
 *   hand-written NodeOverlays leave the product's pools alone; with
 *   `cluster`, one device plugin serves each GPU pool (and a MIG pool has a
 *   MIG manager), as the repository deploys them; a Cluster API management
 *   root's GPU ConfigMaps carried to its workload Cluster by a
 *   ClusterResourceSet, as built;
 * - lifecycle: managed pools, ledger entries, device-plugin configs and
 *   mig-parted entries that no request, workload or pool uses.
 *
 * Throws a GpuInputError when `dir` is missing or is not a GitOps tree, and
 * KustomizeNotFoundError when kustomize is not installed (no verdict
 * without a build).
 *
 * @public
 */
export async function validateGitOpsTree(
  dir: string,
  options: ValidateGitOpsTreeOptions = {},
): Promise<Finding[]> {
  return (await validateGitOpsTreeReport(dir, options)).findings;
}

/**
 * The tree's files and its kustomization graph; refused when `dir` is no
 * directory or holds no kustomization (not a GitOps tree).
 */
async function readGitOpsTree(dir: string, findings: Finding[]) {
  const stat = await fs.stat(dir).catch(() => undefined);
  if (!stat?.isDirectory()) {
    throw new GpuInputError([
      { path: 'dir', rule: 'not-found', message: `${dir} is not a directory` },
    ]);
  }
  const source = await readSourceTree(dir, findings);
  const graph = await readKustomizationGraph(source.tree);
  if (graph.folders.size === 0) {
    throw new GpuInputError([
      {
        path: 'dir',
        rule: 'not-gitops-tree',
        message: `${dir} holds no kustomization.yaml: not a GitOps tree`,
      },
    ]);
  }
  return { source, graph };
}

/** The tree under check, and where its checks put what they find. */
interface TreeUnderCheck {
  dir: string;
  graph: KustomizationGraph;
  source: SourceTree;
  layout: ResolvedRepoLayout;
  options: ValidateGitOpsTreeOptions;
  profile: ClusterProfile;
  catalog: GpuCatalog;
  findings: Finding[];
  /** What could not be checked, for the reviewer: never a finding. */
  notes: string[];
}

/**
 *  validateGitOpsTree, with the notes on what the builds left out.
 *
 * @public
 */
export async function validateGitOpsTreeReport(
  dir: string,
  options: ValidateGitOpsTreeOptions = {},
): Promise<GitOpsTreeReport> {
  const layout = resolveLayout(options.layout);
  const profile = resolveClusterProfile(options.cluster);
  const findings: Finding[] = [];
  const { source, graph } = await readGitOpsTree(dir, findings);
  const catalog = options.catalog ?? builtinCatalog;
  const tree: TreeUnderCheck = {
    dir,
    graph,
    source,
    layout,
    options,
    profile,
    catalog,
    findings,
    notes: [],
  };

  // 1. Files: every object against its schema and Karpenter's extra rules.
  checkSourceObjects(
    source,
    options.karpenterVersion ??
      (options.cluster ? profile.karpenterVersion : undefined),
    findings,
  );
  checkPrunedFields(source, findings);

  // 2. Per cluster GPU folder (the layout): configs, overlays, duplicates.
  const clusters = clusterNames(layout, source.files);
  await checkClusterFolders(tree, clusters);

  // 3. What kustomize builds from every root.
  const built = await readBuiltTree(tree, clusters);
  await checkBuiltTree(tree, built);

  // 4. What the product set up and nothing uses any more.
  checkOrphans(source, layout, clusters, built.workloads, findings);

  return {
    findings: sortFindings(findings),
    notes: reportNotes(source, built.roots, tree.notes),
  };
}

/** What kustomize builds from every root, and the GPU pools, workloads and ConfigMaps in it. */
async function readBuiltTree(tree: TreeUnderCheck, clusters: string[]) {
  const { source, layout, options, profile, findings } = tree;
  const roots = await buildRoots(
    tree.dir,
    tree.graph,
    findings,
    buildOptions(options),
  );
  const names = gpuConfigMapNames(
    profile,
    options.cluster !== undefined,
    source,
    layout,
    clusters,
  );
  const configMaps = builtGpuConfigMaps(roots, names);
  const stack: Partial<Awaited<ReturnType<typeof clusterStack>>> =
    options.cluster ? await clusterStack(source, layout, profile) : {};
  const pools = await builtPools(roots, {
    source,
    catalog: tree.catalog,
    // Without a cluster the MIG strategy is unknown: a MIG pool serves what
    // either strategy advertises (`mixed` is only the default's guess).
    migStrategy: options.cluster ? profile.migStrategy : undefined,
    configMaps,
    names,
    findings,
    ...(options.cluster ? {} : { cannotTell: tree.notes }),
    stack: stack.stack,
  });
  return { roots, names, stack, pools, workloads: gpuWorkloads(roots) };
}

/** The checks on what kustomize built: workloads served and landing, device plugins, capacities, limits, references. */
async function checkBuiltTree(
  tree: TreeUnderCheck,
  built: Awaited<ReturnType<typeof readBuiltTree>>,
): Promise<void> {
  const { source, options, profile, catalog, findings, notes } = tree;
  const { roots, names, stack, pools, workloads } = built;
  checkGpuContainerImages(workloads, source, findings);
  const onPools = withoutTeamGpuNodeWorkloads(
    workloads,
    roots,
    pools,
    notes,
    options.cluster ? !!poolProviderOf(profile).karpenter : undefined,
  );
  const landing = { onPools, pools, roots, source, stack };
  await checkWorkloadsLand(landing, findings, notes);
  checkPoolDevicePlugins(pools, stack, findings);
  checkNodeOverlayCapacity(roots, pools, source, findings);
  checkPoolLimits(pools, workloads, findings, notes);
  checkKueueQuotas(roots, pools, source, profile.labelDomain, findings);
  checkNodeClassRefs(roots, source, findings);
  checkForeignNodeOverlays(roots, source, catalog, findings, pools);
  checkProductOverlayPrecedence(roots, pools, source, findings);
  checkTeamNodeFeatureRules(roots, source, catalog, findings);
  await checkGpuConfigsDelivery(roots, tree.graph, source, names, findings);
}

/** Each cluster GPU folder of the layout checked in turn: configs, overlays, duplicates. */
async function checkClusterFolders(
  { source, layout, findings, options, profile, catalog }: TreeUnderCheck,
  clusters: string[],
): Promise<void> {
  for (const cluster of clusters) {
    await checkClusterFolder(source, layout, cluster, findings, {
      nodeOverlay: usesNodeOverlays(options, profile),
      catalog,
    });
  }
}

/** Whether the cluster folders should hold NodeOverlays: the caller's choice, else the cluster's. */
function usesNodeOverlays(
  options: ValidateGitOpsTreeOptions,
  profile: ClusterProfile,
): boolean {
  // NodeOverlays exist only where Karpenter launches the nodes.
  return (
    options.nodeOverlay ??
    (options.cluster
      ? profile.nodeOverlay && !!poolProviderOf(profile).karpenter
      : true)
  );
}

/** The GPU ConfigMaps of every built root. */
function builtGpuConfigMaps(
  roots: BuiltRoot[],
  names: GpuConfigMapNames,
): Map<BuiltRoot, GpuConfigMaps> {
  return new Map<BuiltRoot, GpuConfigMaps>(
    // A management root's device plugin reads the copies it carries to its
    // workload cluster: those are its GPU ConfigMaps.
    roots.map(root => [
      root,
      gpuConfigMapsOf(
        [...root.objects, ...carriedObjects(root.objects)],
        names,
      ),
    ]),
  );
}

/** How kustomize builds every root: the caller's environment, time limit and Helm choice. */
function buildOptions(options: ValidateGitOpsTreeOptions) {
  return {
    ...(options.env ? { env: options.env } : {}),
    ...(options.kustomizeTimeoutMs
      ? { timeoutMs: options.kustomizeTimeoutMs }
      : {}),
    enableHelm: options.enableHelm ?? false,
  };
}

/**
 * Whether each GPU workload is served and its pods land on a pool; one
 * that may land on a pool a Helm chart renders gets a note instead
 * (`chartRenderedPools.ts`).
 */
async function checkWorkloadsLand(
  input: {
    onPools: GpuWorkload[];
    pools: BuiltPool[];
    roots: BuiltRoot[];
    source: SourceTree;
    stack: Parameters<typeof checkWorkloadsSchedulable>[4];
  },
  findings: Finding[],
  notes: string[],
): Promise<void> {
  const { onPools, pools, roots, source, stack } = input;
  const landing: Finding[] = [];
  checkWorkloadsServed(onPools, pools, roots, source, landing);
  checkWorkloadsSchedulable(onPools, pools, source, landing, stack, notes);
  findings.push(
    ...chartPoolFindingsAsNotes(
      landing,
      onPools,
      await chartRenderedPools(source),
      notes,
    ),
  );
}

/** The report's notes: the files', the builds', then the checks', each once (a pool built by two roots is one note). */
function reportNotes(
  source: SourceTree,
  roots: BuiltRoot[],
  notes: string[],
): string[] {
  return [
    ...new Set([
      ...source.notes,
      ...roots.flatMap(r => (r.note ? [r.note] : [])),
      ...notes,
    ]),
  ];
}

/** What runs on the GPU nodes, read for the cluster the tree is applied to. */
async function clusterStack(
  source: SourceTree,
  layout: ResolvedRepoLayout,
  profile: ClusterProfile,
) {
  return {
    stack: await readGpuStack(
      source.tree,
      profile,
      await clusterReleaseFiles(source.tree, layout, profile.name),
    ),
    migStrategy: profile.migStrategy,
  };
}

/** Schema and Karpenter rules on every object of the files; patches are partial by design. */
function checkSourceObjects(
  source: SourceTree,
  karpenterVersion: string | undefined,
  findings: Finding[],
) {
  for (const doc of source.docs) {
    const obj = asKubernetesObject(doc.value);
    if (!obj || typeof obj.apiVersion !== 'string') continue;
    // A patch is a partial object: what it means is checked on the builds.
    if (source.patchFiles.has(doc.path)) continue;
    const error = schemaError(obj);
    if (error)
      findings.push({
        file: doc.path,
        object: objectName(obj),
        rule: 'schema',
        message: error,
      });
    for (const f of configRuleFindings.object(obj, karpenterVersion)) {
      findings.push({
        file: doc.path,
        object: objectName(obj),
        ...f,
        message: prefixPath(f),
      });
    }
  }
}

/**
 * The whole-tree reader: what a GitOps repository holds for one cluster,
 * composed from the per-object parsers (parsePools, parseDevicePluginConfigs,
 * parseMigConfigs, parseWorkloads) over the folders the layout names.
 */
import type { RepoState } from '@gpu-gitops/plugin-gpu-common';
import {
  builtinCatalog,
  compareStrings,
  GpuCatalog,
} from '@gpu-gitops/plugin-gpu-common';
import { compileRepoLayout } from '../layout/compileRepoLayout';
import {
  clusterKustomizationPath,
  clusterScopePath,
  LayoutInput,
  layoutPrefix,
  migConfigPath,
} from '../layout/layout';
import { parseDevicePluginConfigs } from './parseDevicePluginConfigs';
import { parseMigConfigs } from './parseMigConfigs';
import { parsePools } from './parsePools';
import { parseWorkloads } from './parseWorkloads';
import { readDocuments } from './readDocuments';
import { readFiles } from './readFiles';
import { poolsBySharedResource, workloadPool } from './sharedResourcePool';
import type { RepoTree } from './tree';
import {
  asKubernetesObject,
  isYamlPath,
  ParsedDocument,
  parseYamlDocuments,
  SkippedFile,
} from './yamlObjects';

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
  const cluster = { cluster: clusterName };

  // Device-plugin configs: one file per key.
  const dpPrefix = layoutPrefix(
    resolved,
    'devicePluginConfig',
    cluster,
    'config',
  );
  const configName = (path: string) =>
    compiled.devicePluginConfigName(clusterName, path);
  const dpDocs = await readDocuments(
    tree,
    dpPrefix,
    skipped,
    path => configName(path) !== undefined,
  );
  const devicePluginConfigs = parseDevicePluginConfigs(
    dpDocs,
    path => configName(path)!,
    skipped,
  );

  // mig-parted config: one file, entries under `mig-configs`.
  const migPath = migConfigPath(resolved, clusterName);
  const migText = await tree.readFile(migPath);
  const migConfigs =
    migText === undefined ? {} : parseMigConfigs(migPath, migText, skipped);

  // Pools: every GPU NodePool in the pool folder.
  const poolPrefix = compiled.poolPrefix(clusterName);
  const poolDocs = await readDocuments(tree, poolPrefix, skipped);
  const parsedPools = parsePools(
    poolDocs,
    { devicePluginConfigs, migConfigs },
    catalog,
    skipped,
  );
  const pools = parsedPools.pools;
  const otherNodePools = new Set(parsedPools.otherNodePools);
  // Every other NodePool of the cluster's folder (hand-written ones beside
  // the GPU folder): names a new pool must not take.
  const scope = clusterScopePath(resolved, clusterName);
  const scopeFiles = (await tree.listFiles(scope)).filter(
    path => isYamlPath(path) && !path.startsWith(poolPrefix),
  );
  const scopeTexts = await readFiles(tree, scopeFiles);
  for (const [i, path] of scopeFiles.entries()) {
    const text = scopeTexts[i];
    // Only files that can hold a NodePool are parsed (a cluster folder may be big).
    if (text === undefined || !/\bkind:\s*['"]?NodePool\b/.test(text)) continue;
    for (const doc of parseYamlDocuments(path, text).documents) {
      const obj = asKubernetesObject(doc.value);
      if (obj?.kind === 'NodePool') otherNodePools.add(obj.metadata.name);
    }
  }

  // Workloads: every GPU workload (or patch) under the apps folder, on the
  // pool it selects or the one serving its shared resource name.
  const workloadDirs = options.workloadDirs ?? [compiled.workloadsPrefix];
  const workloadDocuments: ParsedDocument[] = [];
  for (const dir of workloadDirs) {
    workloadDocuments.push(...(await readDocuments(tree, dir, skipped)));
  }
  const bySharedResource = poolsBySharedResource(pools);
  const workloads = parseWorkloads(workloadDocuments, compiled).map(
    workload => {
      const pool = workloadPool(workload, bySharedResource);
      return pool ? { ...workload, pool } : workload;
    },
  );

  pools.sort((a, b) => compareStrings(a.name, b.name));
  const bootstrapped =
    (await tree.readFile(clusterKustomizationPath(resolved, clusterName))) !==
    undefined;
  return {
    pools,
    devicePluginConfigs,
    migConfigs,
    workloads,
    otherNodePools: [...otherNodePools].sort(),
    skipped,
    bootstrapped,
  };
}

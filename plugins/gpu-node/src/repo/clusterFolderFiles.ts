/**
 * What the readers take from the files of a cluster's folder that are not
 * the layout's own (LayoutPlace `clusterFolder`, e.g.
 * `clusters/<cluster>/karpenter/`): the pools the product manages there (a
 * pool it adopted stays in its file), the names of every other pool, and the
 * hand-written ConfigMaps of NVIDIA configs (`handWrittenConfigMaps.ts`). The
 * whole-tree reader (`readRepoState`) and the allocation index both apply
 * these rules, so they read a cluster's folder alike.
 *
 * A cluster's folder may be big (every app of the cluster): a file is parsed
 * only when its text may hold one of these (`clusterFolderFileHolds`).
 */
import type { GpuCatalog, PoolState } from '@gpu-gitops/plugin-gpu-common';
import { COMPUTE_CLASS_KIND } from './computeClassPools';
import { mayHoldGpuConfigMap } from './handWrittenConfigMaps';
import { MACHINE_DEPLOYMENT } from './machineDeploymentPools';
import { NODE_FEATURE_RULE } from './nodeFeatureRulePools';
import { parsePools, type PoolConfigs } from './parsePools';
import { isProductPool } from './productPools';
import { asKubernetesObject, ParsedDocument, SkippedFile } from './yamlObjects';

const POOL_KINDS = new Set([
  'NodePool',
  MACHINE_DEPLOYMENT,
  NODE_FEATURE_RULE,
  COMPUTE_CLASS_KIND,
]);

/**
 * What a file of the cluster's folder may hold, by a cheap look at its text.
 *
 * @public
 */
export interface ClusterFolderFileHolds {
  /**
   * A NodePool, MachineDeployment, NodeFeatureRule or ComputeClass, or a
   * NodeOverlay (it adds resources to NodePools' nodes), or a Cluster API
   * Cluster or ClusterClass (a managed topology's workers are pools).
   */
  pools: boolean;
  /** A ConfigMap of device-plugin or mig-parted configs. */
  configMaps: boolean;
}

/**
 * What a file of the cluster's folder may hold; the readers parse it only
 * for what it may hold.
 *
 * @public
 */
export function clusterFolderFileHolds(text: string): ClusterFolderFileHolds {
  return {
    pools:
      /\bkind:\s*['"]?(NodePool|NodeOverlay|MachineDeployment|NodeFeatureRule|ComputeClass|ClusterClass|Cluster)\b/.test(
        text,
      ),
    configMaps: mayHoldGpuConfigMap(text),
  };
}

/**
 * The pools among documents of the cluster's folder: only those the product
 * manages (`isProductPool`: written by a request or adopted by the import)
 * are pools here, read as `parsePools` reads the pool folder; every other
 * pool object, GPU or not, was written by hand and is only a name a new pool
 * must not take (its owners change it, not the product); its GPU pools are
 * `handWrittenGpuPools`, where a GPU pod may land all the same.
 *
 * @public
 */
export function parseClusterFolderPools(
  docs: ParsedDocument[],
  configs: PoolConfigs,
  catalog: GpuCatalog,
  skipped: SkippedFile[],
): {
  pools: PoolState[];
  otherNodePools: string[];
  handWrittenGpuPools: PoolState[];
} {
  const handWritten: string[] = [];
  const theirs: ParsedDocument[] = [];
  const ours = docs.filter(doc => {
    const object = asKubernetesObject(doc.value);
    if (!object || !POOL_KINDS.has(object.kind) || isProductPool(object)) {
      return true;
    }
    handWritten.push(object.metadata.name);
    theirs.push(doc);
    return false;
  });
  const parsed = parsePools(ours, configs, catalog, skipped);
  return {
    pools: parsed.pools,
    otherNodePools: [...handWritten, ...parsed.otherNodePools],
    // Read as the pool folder's pools are, only to land pods on (never counted on, never changed).
    handWrittenGpuPools: parsePools(theirs, configs, catalog, []).pools,
  };
}

import {
  gpusNeeded,
  nodesNeeded,
  ReplicaGroup,
  referenceNodeShape,
  WELL_KNOWN_KEYS,
} from '@gpu-gitops/plugin-gpu-common';
import { getIn, isPlainObject, parseCount } from '../repo/yamlObjects';
import type { BuiltRoot } from './builtRoots';
import {
  BuiltPool,
  INSTANCE_GPU_COUNT_LABEL,
  requirementValues,
} from './builtPools';
import { GpuWorkload, unitsPerPod } from './builtWorkloads';
import type { Finding } from './findings';
import { sourceFileOf } from './sourceLocator';
import type { SourceTree } from './sourceTree';

/** What Karpenter counts GPUs by: physical GPUs from the instance type (Karpenter AWS docs, "NodePools: limits"). */
const PHYSICAL_GPU = 'nvidia.com/gpu';
/** A limit on the number of nodes (Karpenter v1 `spec.limits.nodes`). */
const NODES = 'nodes';

/**
 * Every NodeOverlay that targets a pool and a GPU count gives that pool's
 * resource exactly what its nodes advertise: per-GPU units × GPUs. Karpenter
 * plans with the overlay's number (Karpenter docs, "NodeOverlays"); too high
 * and pods stay Pending on nodes that cannot take them, too low and it
 * launches more nodes than needed.
 */
export function checkNodeOverlayCapacity(
  roots: BuiltRoot[],
  pools: BuiltPool[],
  source: Pick<SourceTree, 'docs' | 'patchFiles'>,
  findings: Finding[],
): void {
  for (const root of roots) {
    for (const overlay of root.objects) {
      if (overlay.kind !== 'NodeOverlay') continue;
      const requirements = getIn(overlay, 'spec', 'requirements');
      const capacity = getIn(overlay, 'spec', 'capacity');
      if (!isPlainObject(capacity)) continue;
      const gpuCounts = requirementValues(
        requirements,
        INSTANCE_GPU_COUNT_LABEL,
      ).map(v => parseCount(v));
      for (const poolName of requirementValues(
        requirements,
        WELL_KNOWN_KEYS.karpenterNodePool,
      )) {
        const pool =
          pools.find(p => p.root === root && p.name === poolName) ??
          pools.find(p => p.name === poolName);
        if (!pool?.advertised) continue;
        for (const [resource, raw] of Object.entries(capacity)) {
          if (!resource.startsWith('nvidia.com/')) continue;
          const advertised = pool.advertised.find(a => a.resource === resource);
          const report = (message: string) =>
            findings.push({
              file: sourceFileOf(source, root, overlay),
              object: `NodeOverlay/${overlay.metadata.name}`,
              rule: 'node-overlay-capacity',
              message,
            });
          if (!advertised) {
            report(
              `gives ${resource} to nodes of pool ${poolName}, whose device plugin does not advertise it (${pool.configNote}: ${pool.advertised.map(a => a.resource).join(', ')}); Karpenter would launch nodes for pods that cannot run there`,
            );
            continue;
          }
          for (const gpus of gpuCounts) {
            if (gpus === undefined) continue;
            const expected = advertised.perGpu * gpus;
            const given = parseCount(raw);
            if (given === expected) continue;
            report(
              `gives ${resource}: ${String(raw)} to ${gpus}-GPU nodes of pool ${poolName}; its device plugin advertises ${advertised.perGpu} per GPU (${pool.configNote}), so ${expected}. Karpenter plans with the overlay's number: pods stay Pending when it is too high, nodes are wasted when it is too low`,
            );
          }
        }
      }
    }
  }
}

/**
 * The GPU workloads that land on `pool`: those whose nodeSelector names it,
 * from its own root, or from roots that build no pool of that name (apps
 * are usually built apart from the cluster folder). One per workload id.
 */
function workloadsOn(
  pool: BuiltPool,
  pools: BuiltPool[],
  workloads: GpuWorkload[],
) {
  const rootsWithPool = new Set(
    pools.filter(p => p.name === pool.name).map(p => p.root),
  );
  const byId = new Map<string, GpuWorkload>();
  for (const w of workloads) {
    if (w.pool !== pool.name || w.replicas === undefined) continue;
    if (w.root !== pool.root && rootsWithPool.has(w.root)) continue;
    const known = byId.get(w.id);
    if (!known || (w.root === pool.root && known.root !== pool.root)) {
      byId.set(w.id, w);
    }
  }
  return [...byId.values()];
}

/** `3 replicas × 1 nvidia.com/gpu.shared + 2 replicas × 2 …` */
function describeGroups(groups: ReplicaGroup[], resource: string): string {
  const bySize = new Map<number, number>();
  for (const g of groups) {
    bySize.set(
      g.unitsPerReplica,
      (bySize.get(g.unitsPerReplica) ?? 0) + g.replicas,
    );
  }
  return [...bySize]
    .sort((a, b) => b[0] - a[0])
    .map(([units, replicas]) => `${replicas} replicas × ${units} ${resource}`)
    .join(' + ');
}

interface ResourceNeed {
  resource: string;
  groups: ReplicaGroup[];
  perGpu: number;
  gpusPerNode: number;
  /** What one node of the reference shape gives of `resource`. */
  unitsPerNode: number;
  nodes: number;
  gpus: number;
  /** The workloads asking for it, `namespace/name`. */
  workloads: string;
}

/** A finding on the pool itself, under `rule`. */
type PoolReport = (rule: string, message: string) => void;

/**
 * Every pool's limits hold what the workloads on it need together, summed
 * over every root: for each resource its nodes advertise, the nodes (of the
 * pool's most granular machine that holds the largest replica) and physical
 * GPUs the replicas need, by the one capacity rule the planner sizes limits
 * with (gpu-common capacity/poolNeed). Karpenter refuses to launch past a
 * limit, so a short limit leaves pods Pending. A pool without a GPU limit
 * is never short.
 */
export function checkPoolLimits(
  pools: BuiltPool[],
  workloads: GpuWorkload[],
  findings: Finding[],
  cannotTell: string[] = [],
): void {
  for (const pool of pools) {
    if (!pool.advertised) continue;
    const on = workloadsOn(pool, pools, workloads);
    if (pool.gpuCounts.length === 0) {
      // Counting such nodes as 1 GPU calls a 4-GPU flavor's replicas too big.
      if (on.length > 0) cannotTell.push(unknownGpuCountNote(pool, on));
      continue;
    }
    const report: PoolReport = (rule, message) =>
      findings.push({
        file: pool.file,
        object: `${pool.object.kind}/${pool.name}`,
        rule,
        message,
      });
    const needs: ResourceNeed[] = [];
    for (const advertised of pool.advertised) {
      const need = resourceNeed(pool, on, advertised, report);
      if (!need) continue;
      needs.push(need);
      checkResourceLimit(pool, need, report);
    }
    checkGpuLimit(pool, needs, report);
    checkNodeLimit(pool, needs, report);
  }
}

/**
 * What the replicas asking for one advertised resource need of the pool;
 * undefined when none asks for it, or (reported) when a replica is larger
 * than the pool's largest node.
 */
function resourceNeed(
  pool: BuiltPool,
  on: GpuWorkload[],
  { resource, perGpu }: { resource: string; perGpu: number },
  report: PoolReport,
): ResourceNeed | undefined {
  const users = on.filter(w => unitsPerPod(w, resource) > 0);
  const groups = users.map(w => ({
    replicas: w.replicas!,
    unitsPerReplica: unitsPerPod(w, resource),
  }));
  if (groups.length === 0) return undefined;
  const largest = Math.max(...groups.map(g => g.unitsPerReplica));
  const shape = referenceNodeShape(pool.gpuCounts, perGpu, largest);
  if (!shape) {
    const most = Math.max(1, ...pool.gpuCounts) * perGpu;
    report(
      'replica-exceeds-node',
      `a replica asks for ${largest} ${resource}, more than the largest node of the pool offers (${most}); it can never be scheduled`,
    );
    return undefined;
  }
  return {
    resource,
    groups,
    perGpu,
    gpusPerNode: shape.gpusPerNode,
    unitsPerNode: shape.unitsPerNode,
    nodes: nodesNeeded(groups, shape.unitsPerNode),
    gpus: gpusNeeded(groups, shape),
    workloads: workloadNames(users),
  };
}

/** The pool's limit on a shared resource (never the physical GPUs: `checkGpuLimit`) holds the nodes it needs. */
function checkResourceLimit(
  pool: BuiltPool,
  need: ResourceNeed,
  report: PoolReport,
): void {
  const { resource, nodes, unitsPerNode } = need;
  const limit = pool.limits[resource];
  if (
    resource === PHYSICAL_GPU ||
    limit === undefined ||
    limit >= nodes * unitsPerNode
  ) {
    return;
  }
  report(
    'pool-limit-short',
    `${describeGroups(need.groups, resource)} at ${need.perGpu} per GPU need ${nodes * unitsPerNode} ${resource} (${nodes} node(s) × ${unitsPerNode}); limit is ${limit} (workloads: ${need.workloads})`,
  );
}

/** The pool's physical GPU limit holds the GPUs of its most demanding resource. */
function checkGpuLimit(
  pool: BuiltPool,
  needs: ResourceNeed[],
  report: PoolReport,
): void {
  const gpuLimit = pool.limits[PHYSICAL_GPU];
  const mostGpus = needs.reduce<ResourceNeed | undefined>(
    (most, n) => (!most || n.gpus > most.gpus ? n : most),
    undefined,
  );
  if (gpuLimit === undefined || !mostGpus || mostGpus.gpus <= gpuLimit) return;
  report(
    'pool-limit-short',
    `${describeGroups(mostGpus.groups, mostGpus.resource)} at ${mostGpus.perGpu} per GPU need ${mostGpus.gpus} ${PHYSICAL_GPU}; limit is ${gpuLimit} (${mostGpus.nodes} node(s) of ${mostGpus.gpusPerNode} GPU(s) for ${mostGpus.workloads}; Karpenter launches no node past the limit, so the rest stay Pending)`,
  );
}

/** The pool's node limit holds the nodes of its most demanding resource. */
function checkNodeLimit(
  pool: BuiltPool,
  needs: ResourceNeed[],
  report: PoolReport,
): void {
  const nodeLimit = pool.limits[NODES];
  const mostNodes = Math.max(0, ...needs.map(n => n.nodes));
  if (nodeLimit === undefined || mostNodes <= nodeLimit) return;
  report(
    'pool-limit-short',
    `the workloads need ${mostNodes} node(s); limit is ${nodeLimit} ${NODES}`,
  );
}

/** `namespace/name` of each workload, as the findings name them. */
function workloadNames(workloads: GpuWorkload[]): string {
  return workloads
    .map(w => `${w.id.split('/')[0]}/${w.object.metadata.name}`)
    .join(', ');
}

/** Why a pool's limits were not checked: its machines' GPU count is unknown. */
function unknownGpuCountNote(pool: BuiltPool, on: GpuWorkload[]): string {
  const machines = requirementValues(
    getIn(pool.object, 'spec', 'template', 'spec', 'requirements'),
    WELL_KNOWN_KEYS.instanceType,
  );
  const what =
    machines.length > 0
      ? `machine ${machines.join(', ')} is not in the catalog: pass --catalog with its GPUs per node`
      : 'its requirements name no instance type or GPU count';
  return `${pool.object.kind}/${pool.name} (${pool.file}): how many GPUs its nodes have is unknown (${what}), so its limits and the replica sizes of ${workloadNames(on)} were not checked`;
}

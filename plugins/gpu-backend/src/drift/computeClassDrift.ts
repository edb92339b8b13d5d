/**
 * GKE pools: the pool is a ComputeClass, named after the pool, whose node
 * pools GKE creates itself (node-pool auto-creation), and GKE's own device
 * plugin shares each node's GPUs as the class's GPU rule says. GKE labels
 * the nodes with what they got (gpu-common `manifests/computeClass.ts`,
 * `GKE_NODE_LABELS`: the class, the accelerator, the sharing strategy and
 * clients per GPU, the MIG partition size), so a node whose labels say
 * otherwise than Git's class was made from another version of the class,
 * and keeps serving that one until GKE replaces it.
 */
import type { V1Node } from '@kubernetes/client-node';
import {
  GKE_NODE_LABELS,
  type DriftFinding,
  type PoolState,
} from '@gpu-gitops/plugin-gpu-common';
import { missingFromCluster } from './poolObjectPresence';
import type { ComputeClassObject } from './readClusterObjects';

/** GKE's sharing labels of the plan's sharing (none for whole GPUs). */
function plannedSharingLabels(pool: PoolState): Record<string, string> {
  if (pool.sharingMode === 'time-slicing' || pool.sharingMode === 'mps') {
    return {
      [GKE_NODE_LABELS.sharingStrategy]:
        pool.sharingMode === 'mps' ? 'mps' : 'time-sharing',
      [GKE_NODE_LABELS.maxSharedClients]: String(pool.slicesPerGpu ?? ''),
    };
  }
  if (pool.sharingMode === 'mig' && pool.migProfile) {
    return { [GKE_NODE_LABELS.partitionSize]: pool.migProfile };
  }
  return {};
}

/** Each node of the class whose GKE sharing labels are not the plan's. */
function sharedOtherwise(pool: PoolState, nodes: V1Node[]): DriftFinding[] {
  const planned = plannedSharingLabels(pool);
  return nodes.flatMap(node => {
    const name = node.metadata?.name ?? '?';
    const labels = node.metadata?.labels ?? {};
    const differing = Object.entries(planned).filter(
      ([key, value]) => labels[key] !== value,
    );
    if (differing.length === 0) return [];
    const got = differing
      .map(([key]) => `${key}=${labels[key] ?? '(none)'}`)
      .join(', ');
    const want = differing.map(([key, value]) => `${key}=${value}`).join(', ');
    return [
      {
        kind: 'allocatable-differs' as const,
        object: `Node/${name}`,
        message: `node ${name} of ComputeClass ${pool.name} carries ${got} where Git's class gives ${want}: GKE made it from another version of the class, and its GPUs are not shared as planned until GKE replaces it`,
      },
    ];
  });
}

/**
 * The pool's ComputeClass: the API absent (`classes` undefined), the class
 * absent, or a node of it shared otherwise than the class says.
 */
export function computeClassFindings(
  pool: PoolState,
  classes: Map<string, ComputeClassObject> | undefined,
  nodes: V1Node[],
): DriftFinding[] {
  if (!classes) {
    return [
      {
        kind: 'computeclass-missing',
        object: `ComputeClass/${pool.name}`,
        message:
          'the cluster serves no ComputeClass API (cloud.google.com/v1): it is not a GKE cluster, or its GKE version has no custom compute classes, so nothing creates nodes for the pool',
      },
    ];
  }
  if (!classes.has(pool.name)) return [missingFromCluster('ComputeClass', pool)];
  return sharedOtherwise(pool, nodes);
}

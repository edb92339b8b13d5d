/**
 * GKE pools: the pool is a ComputeClass, named after the pool, whose node
 * pools GKE creates itself (node-pool auto-creation), and GKE's own device
 * plugin shares each node's GPUs as the class's GPU rule says. GKE labels
 * the nodes with what they got (gpu-common `manifests/computeClass.ts`,
 * `gkePoolNodeLabels`: the class, the accelerator, the sharing strategy and
 * clients per GPU, the MIG partition size), so a node whose labels say
 * otherwise than Git's class was made from another version of the class,
 * and keeps serving that one until GKE replaces it.
 */
import type { V1Node } from '@kubernetes/client-node';
import {
  GKE_NODE_LABELS,
  gkePoolNodeLabels,
  type DriftFinding,
  type PoolState,
} from '@gpu-gitops/plugin-gpu-common';
import { missingFromCluster } from './poolObjectPresence';
import type { ComputeClassObject } from './readClusterObjects';

/**
 * Each node of the class whose GKE labels are not the ones Git's class
 * gives (gpu-common `gkePoolNodeLabels`): another accelerator, or another
 * sharing.
 */
function madeOtherwise(pool: PoolState, nodes: V1Node[]): DriftFinding[] {
  const planned = gkePoolNodeLabels(pool);
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
    const consequence = differing.some(
      ([key]) => key === GKE_NODE_LABELS.accelerator,
    )
      ? `its GPUs are not the pool's ${pool.gpuModel ?? 'model'}`
      : 'its GPUs are not shared as planned';
    return [
      {
        kind: 'allocatable-differs' as const,
        object: `Node/${name}`,
        message: `node ${name} of ComputeClass ${pool.name} carries ${got} where Git's class gives ${want}: GKE made it from another version of the class, and ${consequence} until GKE replaces it`,
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
  if (!classes.has(pool.name))
    return [missingFromCluster('ComputeClass', pool)];
  return madeOtherwise(pool, nodes);
}

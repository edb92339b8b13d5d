/**
 * GKE pools in the repository: a ComputeClass (`cloud.google.com/v1`) is a
 * GPU pool of the product's when it carries the pool annotations, as a
 * NodePool does; the nodes GKE creates for it carry what gpu-common's
 * `computeClassNodes` reads from it (the class and accelerator labels, GKE's
 * sharing labels, the GPU and class taints). A ComputeClass without our
 * annotations is someone else's and is never touched.
 */
import {
  COMPUTE_CLASS,
  computeClassNodes,
  WELL_KNOWN_KEYS,
} from '@gpu-gitops/plugin-gpu-common';
import { hasPoolAnnotations } from './productPools';
import type { PlainObject } from './yamlObjects';

export const COMPUTE_CLASS_KIND = COMPUTE_CLASS.kind;

/** True when a ComputeClass carries our pool annotations. */
export function isGpuComputeClass(object: unknown): boolean {
  return hasPoolAnnotations(object);
}

/**
 * A GKE pool read as the NodePool it stands for (the readers of pools and
 * the validation rules take it as one): its annotations and labels, its
 * nodes' labels and taints as GKE sets them, its machine types and
 * capacity types as requirements.
 */
export function computeClassAsNodePool<T extends PlainObject>(object: T): T {
  const nodes = computeClassNodes(object);
  return {
    ...object,
    kind: COMPUTE_CLASS_KIND,
    spec: {
      template: {
        metadata: { labels: nodes.labels },
        spec: {
          requirements: [
            {
              key: WELL_KNOWN_KEYS.instanceType,
              operator: 'In',
              values: nodes.machineTypes,
            },
            {
              key: WELL_KNOWN_KEYS.karpenterCapacityType,
              operator: 'In',
              values: nodes.capacityTypes,
            },
          ],
          taints: nodes.taints.map(t => ({ ...t })),
        },
      },
    },
  };
}

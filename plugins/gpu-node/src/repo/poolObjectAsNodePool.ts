/**
 * Every kind of pool object (`POOL_OBJECT_KINDS`) read as the Karpenter
 * NodePool it stands for, so one pool reader serves them all: a Cluster API
 * MachineDeployment through its templates among `values`, a NodeFeatureRule
 * by the labels and taints it gives, a GKE ComputeClass by its nodes. The
 * pool reader (`parsePools`), the node shapes (`gpuPoolShapes`) and
 * validate's built pools (`validate/builtPools.ts`) all take them so.
 */
import {
  isGpuMachineDeployment,
  MACHINE_DEPLOYMENT,
  machineDeploymentAsNodePool,
} from './machineDeploymentPools';
import {
  COMPUTE_CLASS_KIND,
  computeClassAsNodePool,
  isGpuComputeClass,
} from './computeClassPools';
import {
  isGpuNodeFeatureRule,
  NODE_FEATURE_RULE,
  nodeFeatureRuleAsNodePool,
} from './nodeFeatureRulePools';
import type { PlainObject } from './yamlObjects';

/** A pool object as the readers hold it: a kind and a name. */
export type PoolObject = PlainObject & {
  kind: string;
  metadata: PlainObject & { name: string };
};

/** `object` as the NodePool it stands for; a NodePool as it is. */
export function poolObjectAsNodePool<T extends PoolObject>(
  object: T,
  values: unknown[],
): T {
  if (object.kind === MACHINE_DEPLOYMENT) {
    return machineDeploymentAsNodePool(object, values);
  }
  if (object.kind === NODE_FEATURE_RULE) {
    return nodeFeatureRuleAsNodePool(object);
  }
  if (object.kind === COMPUTE_CLASS_KIND) {
    return computeClassAsNodePool(object);
  }
  return object;
}

/**
 * Whether a pool reader reads `object` as a GPU pool: every NodePool (its
 * requirements then say whether it launches GPUs), another kind only with
 * the product's pool annotations — a team's own MachineDeployment, rule or
 * class is a name a new pool never takes.
 */
export function hasPoolMarks(object: PoolObject): boolean {
  switch (object.kind) {
    case 'NodePool':
      return true;
    case MACHINE_DEPLOYMENT:
      return isGpuMachineDeployment(object);
    case NODE_FEATURE_RULE:
      return isGpuNodeFeatureRule(object);
    case COMPUTE_CLASS_KIND:
      return isGpuComputeClass(object);
    default:
      return false;
  }
}

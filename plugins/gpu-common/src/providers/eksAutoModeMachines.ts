/**
 * EC2 machines as EKS Auto Mode names them. Auto Mode runs Karpenter managed
 * by AWS: its pools are `karpenter.sh/v1` NodePools, but they reference the
 * Auto Mode node class (`eks.amazonaws.com` `NodeClass`, `default` when the
 * built-in node pools are on) and its nodes carry the instance facts under
 * `eks.amazonaws.com/` instead of `karpenter.k8s.aws/`. Sources:
 * awsdocs/amazon-eks-user-guide (2026) `latest/ug/automode/create-node-pool.adoc`
 * ("EKS Auto Mode Supported Labels"; `kubernetes.io/os` among the labels it
 * does not support) and `auto-accelerated.adoc` (a GPU NodePool on
 * `nodeClassRef: {group: eks.amazonaws.com, kind: NodeClass, name: default}`,
 * pods selecting `eks.amazonaws.com/instance-gpu-name: l40s`).
 */
import type { InstanceType } from '../catalog/types';
import type { NodeSelectorRequirement } from '../manifests/nodeSelectorRequirement';
import { WELL_KNOWN_KEYS } from '../manifests/metadataKeys';
import {
  awsMachines,
  ec2Architecture,
  ec2MachineLabels,
  ec2NameLabels,
} from './awsMachines';
import type { KarpenterMachines } from './types';

const AWS_PREFIX = 'karpenter.k8s.aws/';
const AUTO_MODE_PREFIX = 'eks.amazonaws.com/';

/** An EC2 label of Karpenter's AWS provider under Auto Mode's prefix. */
function autoModeKey(key: string): string {
  return key.startsWith(AWS_PREFIX)
    ? `${AUTO_MODE_PREFIX}${key.slice(AWS_PREFIX.length)}`
    : key;
}

function withAutoModeKeys(
  labels: Record<string, string>,
): Record<string, string> {
  return Object.fromEntries(
    Object.entries(labels).map(([key, value]) => [autoModeKey(key), value]),
  );
}

/** The labels Auto Mode derives from an EC2 type's name (family, size, category, generation). */
export function autoModeNameLabels(name: string): Record<string, string> {
  return withAutoModeKeys(ec2NameLabels(name));
}

/** The labels an Auto Mode node of a catalog EC2 type carries that the catalog knows. */
function autoModeMachineLabels(type: InstanceType): Record<string, string> {
  return withAutoModeKeys(ec2MachineLabels(type));
}

const GPU_NAME_KEY = autoModeKey(WELL_KNOWN_KEYS.karpenterInstanceGpuName);

/**
 * EC2 through EKS Auto Mode: the same machines and GPU names as Karpenter's
 * AWS provider (Auto Mode is that provider, run by AWS), under Auto Mode's
 * label prefix. No node class builder: Auto Mode's NodeClass is AWS's
 * (`default`) or the platform team's, with a node role and subnets only they
 * know, so the product references one and never writes it.
 */
export const eksAutoModeMachines: KarpenterMachines = {
  gpuCountLabel: `${AUTO_MODE_PREFIX}instance-gpu-count`,
  nodeClass: { group: 'eks.amazonaws.com', kind: 'NodeClass' },
  gpuLabels: {
    gpuKeys: awsMachines.gpuLabels.gpuKeys.map(autoModeKey),
    machineKeys: Object.fromEntries(
      Object.entries(awsMachines.gpuLabels.machineKeys).map(([key, rule]) => [
        autoModeKey(key),
        rule,
      ]),
    ),
    gpuNameKey: GPU_NAME_KEY,
    machineNameKeys: awsMachines.gpuLabels.machineNameKeys,
    modelsNamed: awsMachines.gpuLabels.modelsNamed,
  },
  gpuRequirements(plan) {
    return awsMachines
      .gpuRequirements(plan)
      .map((requirement): NodeSelectorRequirement => ({
        ...requirement,
        key: autoModeKey(requirement.key),
      }));
  },
  machineLabels: autoModeMachineLabels,
  architectures: instanceTypes => instanceTypes.map(ec2Architecture),
  unsupportedRequirementKeys: ['kubernetes.io/os'],
};

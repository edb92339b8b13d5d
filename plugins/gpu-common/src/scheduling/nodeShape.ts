/**
 * What the nodes of one pool will look like to the scheduler: the labels
 * they carry (or may carry), their taints and the GPU resources each node
 * advertises. Built from a pool object (`nodeShapeOf`); judged against a
 * pod by `landingPools`.
 */
import type { NodeSelectorRequirement } from '../manifests/nodeSelectorRequirement';
import type { NodeTaint } from '../manifests/tolerations';
import { WELL_KNOWN_KEYS } from '../manifests/metadataKeys';
import { RUNNING_GPU_NODE_LABELS } from './runningGpuNodeLabels';

const GPU_PRODUCT = 'nvidia.com/gpu.product';

/**
 * An extended resource a pool's nodes advertise; `perNode` undefined when
 * the count is not known (e.g. the machine is not in the catalog).
 *
 * @public
 */
export interface AdvertisedNodeResource {
  name: string;
  perNode?: number;
}

/**
 * One pool's nodes. `labels` every node carries with that value;
 * `requirements` the label keys whose value is one of several (Karpenter
 * picks one per node); `launchesWellKnown` when Karpenter launches the
 * nodes, so a well-known label the requirements do not mention can take any
 * value. `resources` undefined: not known, so not judged.
 *
 * @public
 */
export interface PoolNodeShape {
  pool: string;
  /** The pool object's kind (`NodePool`, `MachineDeployment`, `NodeFeatureRule`). */
  kind: string;
  labels: Record<string, string>;
  requirements: NodeSelectorRequirement[];
  launchesWellKnown: boolean;
  /**
   * The group of a NodePool's `nodeClassRef` (`karpenter.k8s.aws`,
   * `karpenter.azure.com`): its cloud provider's well-known labels are the
   * only ones its nodes carry. Undefined: any provider's.
   */
  nodeClassGroup?: string;
  /** The name of a NodePool's node class (Bottlerocket's device plugin runs on a class's nodes). */
  nodeClassName?: string;
  taints: NodeTaint[];
  resources?: AdvertisedNodeResource[];
  /**
   * The values GPU Feature Discovery gives `nvidia.com/gpu.product` on the
   * pool's running nodes (`gpuProductLabel.ts`), when its model's are known;
   * undefined: any value (the model, or its NVML names, not known).
   */
  gpuProducts?: string[];
  /**
   * GPU nodes no pool of the product's describes (a team's own servers its
   * NodeFeatureRule labels, a hand-written GPU NodePool): a pod may land
   * there, but nothing is counted on them (`unpooledGpuNodes.ts`).
   */
  unpooled?: true;
}

/**
 * What a pool's nodes may hold under one label key: no such label, one of
 * `values`, or any value but `except` (`mayBeAbsent` when a node may also
 * lack it: Karpenter's NotIn leaves a label undefined).
 *
 * @public
 */
export type LabelAllowance =
  | { kind: 'absent' }
  | { kind: 'values'; values: string[] }
  | { kind: 'any'; except: string[]; mayBeAbsent: boolean };

/**
 * Labels Karpenter knows for every instance type it may launch, so a pod
 * may select one the NodePool does not mention (kubernetes-sigs/karpenter
 * v1 API `pkg/apis/v1/labels.go` WellKnownLabels, and each cloud provider's
 * own: aws/karpenter-provider-aws `pkg/apis/v1/labels.go`,
 * Azure/karpenter-provider-azure `pkg/apis/v1beta1/labels.go`).
 */
const KARPENTER_WELL_KNOWN = new Set<string>([
  'topology.kubernetes.io/zone',
  'topology.kubernetes.io/region',
  WELL_KNOWN_KEYS.instanceType,
  'kubernetes.io/arch',
  'kubernetes.io/os',
  'node.kubernetes.io/windows-build',
  WELL_KNOWN_KEYS.karpenterCapacityType,
]);

/**
 * Each cloud provider's own well-known labels, by its node class group: an
 * EC2 node never carries Azure's, nor an Azure node EC2's
 * (aws/karpenter-provider-aws v1.14.1 `pkg/apis/v1/labels.go`, with
 * LabelTopologyZoneID; Azure/karpenter-provider-azure `pkg/apis/v1beta1/labels.go`).
 */
const PROVIDER_WELL_KNOWN_PREFIXES: Readonly<Record<string, string[]>> = {
  'karpenter.k8s.aws': ['karpenter.k8s.aws/', 'topology.k8s.aws/zone-id'],
  'karpenter.azure.com': ['karpenter.azure.com/'],
};

/**
 * Labels a cloud controller manager puts on the nodes of its cloud
 * (kubernetes/cloud-provider v0.34 `controllers/node/node_controller.go`:
 * instance type, zone, region), as the OpenStack and vSphere CPIs do for
 * Cluster API machines; a machine without one (bare metal) lacks them, so
 * they are possible, never certain.
 */
const CLOUD_NODE_LABELS = new Set([
  WELL_KNOWN_KEYS.instanceType,
  'topology.kubernetes.io/zone',
  'topology.kubernetes.io/region',
]);

/** Labels kubelet puts on every node, whoever launches it. */
const KUBELET_LABELS = new Set([
  'kubernetes.io/arch',
  'kubernetes.io/os',
  'kubernetes.io/hostname',
]);

/**
 * The deprecated beta os / arch labels kubelet still sets, to the same value
 * as the current ones (kubernetes v1.31 `pkg/kubelet/kubelet_node_status.go`
 * `initialNode`); Karpenter reads them as the current ones too
 * (kubernetes-sigs/karpenter v1.14.1 `pkg/apis/v1/labels.go` NormalizedLabels).
 */
const BETA_KUBELET_LABELS: Readonly<Record<string, string>> = {
  'beta.kubernetes.io/arch': 'kubernetes.io/arch',
  'beta.kubernetes.io/os': 'kubernetes.io/os',
};

function isKarpenterWellKnown(key: string, group?: string): boolean {
  const prefixes =
    group !== undefined && PROVIDER_WELL_KNOWN_PREFIXES[group]
      ? PROVIDER_WELL_KNOWN_PREFIXES[group]
      : Object.values(PROVIDER_WELL_KNOWN_PREFIXES).flat();
  return (
    KARPENTER_WELL_KNOWN.has(key) ||
    prefixes.some(prefix => key.startsWith(prefix))
  );
}

/** Narrows the allowance by one requirement of the pool (`In`, `NotIn`, `Exists`, `DoesNotExist`). */
function narrowed(
  allowance: LabelAllowance,
  requirement: NodeSelectorRequirement,
): LabelAllowance {
  const values = requirement.values ?? [];
  switch (requirement.operator) {
    case 'In':
      if (allowance.kind === 'values') {
        return {
          kind: 'values',
          values: allowance.values.filter(v => values.includes(v)),
        };
      }
      return {
        kind: 'values',
        values: values.filter(
          v => allowance.kind === 'any' && !allowance.except.includes(v),
        ),
      };
    case 'NotIn':
      if (allowance.kind === 'values') {
        return {
          kind: 'values',
          values: allowance.values.filter(v => !values.includes(v)),
        };
      }
      return allowance.kind === 'any'
        ? { ...allowance, except: [...allowance.except, ...values] }
        : allowance;
    case 'DoesNotExist':
      return { kind: 'absent' };
    case 'Exists':
      return allowance.kind === 'any'
        ? { ...allowance, mayBeAbsent: false }
        : allowance;
    default:
      // Gt / Lt / Gte / Lte bound a number: any value stays possible here.
      return allowance.kind === 'absent'
        ? { kind: 'any', except: [], mayBeAbsent: false }
        : allowance;
  }
}

/**
 * What the nodes of `shape` may hold under `key`: its fixed label, else what
 * its requirements allow, else (Karpenter) any value of a well-known label or
 * (any node) one kubelet sets, or (a node that runs before its pods: Cluster
 * API, static) one GPU discovery sets (`runningGpuNodeLabels.ts`); else nothing: Karpenter cannot launch a node
 * for a custom label its NodePool does not define (kubernetes-sigs/karpenter
 * `pkg/scheduling/requirements.go` `Compatible` with
 * `AllowUndefinedWellKnownLabels`), and no other node gets one.
 *
 * @public
 */
export function labelAllowance(
  shape: PoolNodeShape,
  key: string,
): LabelAllowance {
  const fixed = shape.labels[key];
  if (fixed !== undefined) return { kind: 'values', values: [fixed] };
  const requirements = shape.requirements.filter(r => r.key === key);
  const current = BETA_KUBELET_LABELS[key];
  if (current !== undefined && requirements.length === 0) {
    return labelAllowance(shape, current);
  }
  if (requirements.length > 0) {
    const start: LabelAllowance =
      requirements[0].operator === 'NotIn'
        ? { kind: 'any', except: [], mayBeAbsent: true }
        : { kind: 'any', except: [], mayBeAbsent: false };
    return requirements.reduce(narrowed, start);
  }
  if (
    shape.launchesWellKnown &&
    isKarpenterWellKnown(key, shape.nodeClassGroup)
  ) {
    return { kind: 'any', except: [], mayBeAbsent: false };
  }
  if (KUBELET_LABELS.has(key)) {
    return { kind: 'any', except: [], mayBeAbsent: false };
  }
  if (shape.kind === 'MachineDeployment' && CLOUD_NODE_LABELS.has(key)) {
    return { kind: 'any', except: [], mayBeAbsent: true };
  }
  const discovered = RUNNING_GPU_NODE_LABELS[key];
  if (!shape.launchesWellKnown && key === GPU_PRODUCT && shape.gpuProducts) {
    return { kind: 'values', values: [...shape.gpuProducts] };
  }
  if (!shape.launchesWellKnown && discovered !== undefined) {
    return discovered === 'any'
      ? { kind: 'any', except: [], mayBeAbsent: false }
      : { kind: 'values', values: [...discovered] };
  }
  return { kind: 'absent' };
}

/**
 * A Karpenter pool's requirements read as Karpenter reads them: what
 * capacity types and which catalog machines they allow. One rule for every
 * reader (the repository's pool parsers, pool reuse, pricing).
 *
 * Karpenter applies NO default to a v1 NodePool's requirements: its
 * `SetDefaults` only touches disruption (kubernetes-sigs/karpenter v1.14.1
 * `pkg/apis/v1/nodepool_defaults.go`), an absent key reads as `Exists`
 * (`pkg/scheduling/requirements.go` `Get`), and a NodeClaim gets the capacity
 * types its instance types offer (`pkg/controllers/provisioning/scheduling/
 * nodeclaimtemplate.go` `ToNodeClaim`); the AWS provider then launches
 * reserved, else spot, else on-demand among those (aws/karpenter-provider-aws
 * v1.14.1 `pkg/providers/instance/instance.go` `getCapacityType`). So a pool
 * without a `karpenter.sh/capacity-type` requirement allows every capacity
 * type. The on-demand / amd64 / linux defaults some remember were the AWS
 * webhook's for v1alpha5 Provisioners only (aws/karpenter-provider-aws
 * v0.31.0 `pkg/apis/v1alpha5/provisioner.go` `SetDefaults`), which the
 * product reads as NodePools only after the import converts them.
 */
import type { NodeSelectorRequirement } from '../manifests/nodeSelectorRequirement';
import { WELL_KNOWN_KEYS } from '../manifests/metadataKeys';
import type { CapacityType } from '../request/types';

/** The capacity types a request may ask for, in the order the product writes them. */
const CAPACITY_TYPES: readonly CapacityType[] = ['on-demand', 'spot'];

function integerOf(text: string | undefined): number | undefined {
  if (text === undefined || !/^-?\d+$/.test(text.trim())) return undefined;
  return Number(text);
}

/**
 * Whether one requirement allows a label's value (`undefined`: the machine
 * has no such label), as Karpenter's scheduling requirements intersect:
 * `NotIn` and `DoesNotExist` allow a machine without the label, `Gt` / `Lt`
 * / `Gte` / `Lte` compare integers (the first value).
 */
export function requirementAllows(
  requirement: NodeSelectorRequirement,
  value: string | undefined,
): boolean {
  const values = requirement.values ?? [];
  const bound = integerOf(values[0]);
  const number = integerOf(value);
  switch (requirement.operator) {
    case 'In':
      return value !== undefined && values.includes(value);
    case 'NotIn':
      return value === undefined || !values.includes(value);
    case 'Exists':
      return value !== undefined;
    case 'DoesNotExist':
      return value === undefined;
    case 'Gt':
      return number !== undefined && bound !== undefined && number > bound;
    case 'Lt':
      return number !== undefined && bound !== undefined && number < bound;
    case 'Gte':
      return number !== undefined && bound !== undefined && number >= bound;
    case 'Lte':
      return number !== undefined && bound !== undefined && number <= bound;
    default:
      return true;
  }
}

/**
 * Older label names Karpenter reads as the current ones
 * (kubernetes-sigs/karpenter v1.14.1 `pkg/apis/v1/labels.go`
 * `NormalizedLabels`).
 */
const NORMALIZED_LABELS: Readonly<Record<string, string>> = {
  'failure-domain.beta.kubernetes.io/zone': 'topology.kubernetes.io/zone',
  'beta.kubernetes.io/arch': 'kubernetes.io/arch',
  'beta.kubernetes.io/os': 'kubernetes.io/os',
  'beta.kubernetes.io/instance-type': WELL_KNOWN_KEYS.instanceType,
  'failure-domain.beta.kubernetes.io/region': 'topology.kubernetes.io/region',
};

/**
 * Whether a machine with `labels` meets every requirement on a label it
 * knows (an older label name read as Karpenter reads it). Requirements on labels the catalog does not know (zones, network
 * bandwidth, the node class) are the cluster's to decide, not the catalog's,
 * so they leave the machine in.
 */
export function requirementsAllowMachine(
  requirements: readonly NodeSelectorRequirement[],
  labels: Readonly<Record<string, string>>,
): boolean {
  return requirements.every(r => {
    const key = NORMALIZED_LABELS[r.key] ?? r.key;
    return !(key in labels) || requirementAllows(r, labels[key]);
  });
}

/**
 * The capacity types a pool's requirements allow: all of them without a
 * `karpenter.sh/capacity-type` requirement (see the file comment), else
 * those every such requirement allows.
 *
 * @public
 */
export function allowedCapacityTypes(
  requirements: readonly NodeSelectorRequirement[],
): CapacityType[] {
  const onKey = requirements.filter(
    r => r.key === WELL_KNOWN_KEYS.karpenterCapacityType,
  );
  return CAPACITY_TYPES.filter(type =>
    onKey.every(r => requirementAllows(r, type)),
  );
}

/**
 * Which Karpenter APIs the import converts, and to what. Provisioner and
 * AWSNodeTemplate were served until v0.31 (v0.32 served them beside v1beta1);
 * Karpenter v1.0 serves v1 and v1beta1 only, and v1.1 drops v1beta1
 * (`website/content/en/v1.0/upgrading/v1-migration.md`).
 */
import type { PlainObject } from '../../repo/yamlObjects';
import { convertAwsNodeTemplate } from './awsNodeTemplate';
import type { Conversion } from './conversion';
import type { NodeClassContext } from './nodeClassRef';
import { convertEc2NodeClassV1beta1 } from './ec2NodeClassV1beta1';
import { convertNodePoolV1beta1 } from './nodePoolV1beta1';
import { convertProvisioner } from './provisioner';

export type KarpenterRole = 'pool' | 'nodeClass';

export interface LegacyApi {
  role: KarpenterRole;
  /** `nodeClasses`: where a pool's node class reference finds its group and kind. */
  convert: (source: PlainObject, nodeClasses: NodeClassContext) => Conversion;
}

const LEGACY: Record<string, LegacyApi> = {
  'karpenter.sh/v1alpha5 Provisioner': {
    role: 'pool',
    convert: convertProvisioner,
  },
  'karpenter.sh/v1beta1 NodePool': {
    role: 'pool',
    convert: convertNodePoolV1beta1,
  },
  'karpenter.k8s.aws/v1alpha1 AWSNodeTemplate': {
    role: 'nodeClass',
    convert: convertAwsNodeTemplate,
  },
  'karpenter.k8s.aws/v1beta1 EC2NodeClass': {
    role: 'nodeClass',
    convert: convertEc2NodeClassV1beta1,
  },
};

/**
 * Current APIs, kept as they are. Azure's AKSNodeClass: `v1alpha2` (the
 * only version until Azure/karpenter-provider-azure v0.7, still served,
 * deprecated, beside `v1beta1` in v1.14.2
 * `pkg/apis/crds/karpenter.azure.com_aksnodeclasses.yaml`, without a
 * conversion webhook) and `v1beta1`: a node class v1 NodePools refer to.
 */
const CURRENT: Record<string, KarpenterRole> = {
  'karpenter.sh/v1 NodePool': 'pool',
  'karpenter.k8s.aws/v1 EC2NodeClass': 'nodeClass',
  'karpenter.azure.com/v1alpha2 AKSNodeClass': 'nodeClass',
  'karpenter.azure.com/v1beta1 AKSNodeClass': 'nodeClass',
};

/** Current APIs their provider deprecates: kept, with a note saying so. */
const DEPRECATED: Record<string, string> = {
  'karpenter.azure.com/v1alpha2 AKSNodeClass':
    'served by the Azure provider beside v1beta1, but deprecated ("use v1beta1.AKSNodeClass instead", Azure/karpenter-provider-azure v1.14.2 CRD); left as it is, as the import converts no AKSNodeClass',
};

const key = (o: PlainObject) => `${String(o.apiVersion)} ${String(o.kind)}`;

/** The converter of a legacy object, or undefined when it is not one. */
export function legacyApi(object: PlainObject): LegacyApi | undefined {
  return LEGACY[key(object)];
}

/** Why a current object's API is deprecated, or undefined. */
export function deprecation(object: PlainObject): string | undefined {
  return DEPRECATED[key(object)];
}

/** The role of a v1 pool or node class, or undefined. */
export function currentRole(object: PlainObject): KarpenterRole | undefined {
  return CURRENT[key(object)];
}

/**
 * Current Karpenter APIs that are neither a pool nor a node class: nothing to
 * convert and nothing to report (a pool's NodeOverlays, NodeClaims).
 */
const CURRENT_OTHER = new Set([
  'karpenter.sh/v1alpha1 NodeOverlay',
  'karpenter.sh/v1 NodeClaim',
]);

/**
 * True for an object of a Karpenter API group the import does not know (for
 * "not understood" reports): neither legacy, nor current.
 */
export function isUnknownKarpenterObject(object: PlainObject): boolean {
  return isKarpenterObject(object) && !CURRENT_OTHER.has(key(object));
}

/** Karpenter's own API group and its cloud providers' (AWS, Azure). */
const KARPENTER_GROUPS = new Set([
  'karpenter.sh',
  'karpenter.k8s.aws',
  'karpenter.azure.com',
]);

/** True for any object of a Karpenter API group. */
export function isKarpenterObject(object: PlainObject): boolean {
  return KARPENTER_GROUPS.has(String(object.apiVersion ?? '').split('/')[0]);
}

/** True for a node class object, legacy or current (any provider's). */
export function isNodeClassObject(object: PlainObject): boolean {
  return (legacyApi(object)?.role ?? currentRole(object)) === 'nodeClass';
}

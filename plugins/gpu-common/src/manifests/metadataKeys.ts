/**
 * The label and annotation keys our generated objects carry. The repository
 * reader (`readRepoState`) and the allocation backend find our objects and the
 * request behind them through these keys, so they are defined once, here.
 */

/**
 *  Well-known keys owned by other projects.
 *
 * @public
 */
export const WELL_KNOWN_KEYS = {
  appName: 'app.kubernetes.io/name',
  managedBy: 'app.kubernetes.io/managed-by',
  backstageKubernetesId: 'backstage.io/kubernetes-id',
  backstageKubernetesNamespace: 'backstage.io/kubernetes-namespace',
  karpenterNodePool: 'karpenter.sh/nodepool',
  karpenterCapacityType: 'karpenter.sh/capacity-type',
  karpenterInstanceGpuName: 'karpenter.k8s.aws/instance-gpu-name',
  instanceType: 'node.kubernetes.io/instance-type',
  devicePluginConfig: 'nvidia.com/device-plugin.config',
  migConfig: 'nvidia.com/mig.config',
} as const;

/**
 *  Value of `app.kubernetes.io/managed-by` on every object we generate.
 *
 * @public
 */
export const MANAGED_BY = 'backstage-gpu-gitops';

/**
 *  Our own annotation keys under the cluster's `labelDomain`.
 *
 * @public
 */
export interface GpuAnnotationKeys {
  /** `<namespace>/<name>` of the GpuRequest that produced the object. */
  request: string;
  pool: string;
  sharingMode: string;
  gpuModel: string;
  resourceName: string;
  slicesPerGpu: string;
  migProfile: string;
  /** A NodePool's request ledger (`capacity/ledger.ts`). */
  requests: string;
  /** A NodePool's least limit (a hand-set limit kept when the ledger began). */
  limitFloor: string;
  /**
   * The catalog machine a pool's nodes are, where the pool object does not
   * name it: a static pool's NodeFeatureRule (annotation), a vSphere or
   * Metal3 machine template (`spec.template.metadata` label).
   */
  machine: string;
  /**
   * On a plain manifest patched in place: what the request replaced, as JSON
   * (field path → value before), for its release (gpu-node
   * `changes/replacedFields.ts`).
   */
  replaced: string;
  /**
   * On a NodeOverlay the product added beside a pool it did not write: the
   * pool's ledger just before (empty when none), so the release that brings
   * the ledger back within it takes the overlay away again (gpu-node
   * `changes/addedOverlays.ts`).
   */
  ledgerBefore: string;
}

/** @public */
export function gpuAnnotationKeys(labelDomain: string): GpuAnnotationKeys {
  return {
    request: `${labelDomain}/request`,
    pool: `${labelDomain}/pool`,
    sharingMode: `${labelDomain}/sharing-mode`,
    gpuModel: `${labelDomain}/gpu-model`,
    resourceName: `${labelDomain}/resource-name`,
    slicesPerGpu: `${labelDomain}/slices-per-gpu`,
    migProfile: `${labelDomain}/mig-profile`,
    requests: `${labelDomain}/requests`,
    limitFloor: `${labelDomain}/limit-floor`,
    machine: `${labelDomain}/machine`,
    replaced: `${labelDomain}/replaced`,
    ledgerBefore: `${labelDomain}/ledger-before`,
  };
}

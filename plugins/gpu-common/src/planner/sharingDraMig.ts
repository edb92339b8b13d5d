/**
 * DRA of MIG instances, where the cluster profile says the DRA driver
 * serves static MIG (`dra.staticMig`). What partitions the GPU is
 * mig-parted, exactly as for a `mig` request: the pool's nodes carry the
 * `nvidia.com/mig.config` label of a uniform layout and the GPU Operator's
 * MIG manager applies it when a node boots; the driver (kubernetes-sigs/
 * dra-driver-nvidia-gpu@95932046, v0.5 line) only discovers the instances
 * and publishes each as a device of DeviceClass `mig.nvidia.com`
 * (`deployments/helm/dra-driver-nvidia-gpu/templates/deviceclass-mig.yaml`)
 * with attributes `type: mig`, `profile` and its parent's `productName`
 * (`cmd/gpu-kubelet-plugin/mig.go`, `CommonAttributesMig`). The driver's
 * `DynamicMIG`, which destroys partitions it did not create, is never
 * turned on beside it (`bootstrap/draDriver/draDriverValues.ts`).
 * Capacity and cost are the MIG plan's; the pool is static
 * (`draPoolIsStaticFor`).
 */
import type { GpuModel } from '../catalog/types';
import type { ClusterProfile } from '../cluster/types';
import { smallestMigProfileFor } from '../mig/select';
import type { GpuRequest } from '../request/types';
import type { ModeDecision } from './modeDecision';
import { decideMig } from './sharingMig';

/** The driver's DeviceClass of MIG instances. */
export const DRA_MIG_DEVICE_CLASS = 'mig.nvidia.com';

/** True when a `dra` request on `cluster` claims a MIG instance of `model`. */
export function claimsMigInstance(
  request: GpuRequest,
  model: GpuModel,
  cluster: ClusterProfile,
): boolean {
  return (
    cluster.dra?.staticMig === true &&
    smallestMigProfileFor(model, request.spec.gpu.vramGiB) !== undefined
  );
}

export function decideDraMig(
  request: GpuRequest,
  model: GpuModel,
  cluster: ClusterProfile,
  /** The label that keeps the GPU Operator's device plugin off the pool's nodes. */
  driverLabels: Record<string, string>,
  driverWarning: string,
): ModeDecision {
  const mig = decideMig(request, model, cluster);
  const profile = mig.sharing.migProfile!; // decideMig always names one
  const reason = `each replica claims one ${profile} MIG instance of a ${model.id} through a ResourceClaimTemplate of DeviceClass ${DRA_MIG_DEVICE_CLASS} (CEL on its profile attribute); mig-parted partitions the GPUs as the pool's ${mig.sharing.migConfigName} layout says and the DRA driver serves the instances; memory and compute isolated`;
  return {
    ...mig,
    sharing: { ...mig.sharing, mode: 'dra' },
    resourceName: DRA_MIG_DEVICE_CLASS,
    poolSuffix: `-dra${mig.poolSuffix}`,
    modeLabels: { ...mig.modeLabels, ...driverLabels },
    warnings: [
      // Reconfiguration does not drain pods, whoever serves the instances.
      mig.warnings[0],
      driverWarning,
      `Karpenter cannot launch a node for a MIG instance (mig-parted cuts them once the node runs; its DRA simulation offers whole GPUs): this plan targets a static pool (spec.replicas, Karpenter feature gate StaticCapacity) or pre-existing nodes.`,
    ],
    explanation: [`DRA: ${reason}.`],
    decision: { ...mig.decision, reason: `${mig.decision.reason}; ${reason}` },
  };
}

import type { GpuModel } from '../catalog/types';
import { draAutoscalingGap } from '../cluster/draAutoscaling';
import type { ClusterProfile } from '../cluster/types';
import { NVIDIA_CONSUMABLE_CAPACITY_ANNOTATION } from '../manifests/ec2NodeClass';
import type { GpuRequest } from '../request/types';
import { formatRequestedGiB } from '../format/units';
import { ModeDecision, gib, requestedMiB } from './modeDecision';
import { refuseVramAboveGpus } from './vramAboveGpus';
import { claimsMigInstance, decideDraMig } from './sharingDraMig';

/**
 * The DRA DeviceClass of the NVIDIA DRA driver for whole GPUs
 * (`kubernetes-sigs/dra-driver-nvidia-gpu` v0.4.1,
 * `deployments/helm/dra-driver-nvidia-gpu/templates/deviceclass-gpu.yaml`).
 * A DRA plan's `resourceName` is this DeviceClass name: each replica gets a
 * ResourceClaimTemplate with one request `gpu` of exactly one
 * device of class `gpu.nvidia.com`; `resourcePerReplica` is that count
 * (of shares, when the driver shares GPUs: see draShares below).
 */
export const DRA_DEVICE_CLASS = 'gpu.nvidia.com';

/**
 * GPU Operator node label that keeps the classic device plugin off a node.
 *
 * @public
 */
export const DEVICE_PLUGIN_DEPLOY_LABEL = 'nvidia.com/gpu.deploy.device-plugin';

const DRIVER_WARNING =
  "DRA needs the NVIDIA DRA driver (gpu.nvidia.com) on these nodes and NOT the classic device plugin; the pool label nvidia.com/gpu.deploy.device-plugin=false keeps the GPU Operator's plugin off them.";

/**
 * Shares of a GPU one replica claims when the driver splits every GPU into
 * `sharesPerGpu` (its integer consumableShares): enough shares that their
 * part of the GPU's memory covers the ask. Shares only count for the
 * scheduler; they do not limit the memory a process uses.
 */
function draShares(
  request: GpuRequest,
  model: GpuModel,
  sharesPerGpu: number,
): number {
  return Math.ceil(
    (requestedMiB(request.spec.gpu.vramGiB) * sharesPerGpu) / model.memoryMiB,
  );
}

/**
 * DRA: one whole GPU per replica through a ResourceClaim, or `k` of the
 * GPU's shares where the cluster's DRA driver shares GPUs. The pool
 * autoscales where Karpenter launches nodes for claims (cluster/
 * draAutoscaling.ts); elsewhere it is a static one (or nodes that already
 * exist), sized to the expected node count, and the plan says what to set.
 */
export function decideDra(
  request: GpuRequest,
  model: GpuModel,
  cluster: ClusterProfile,
): ModeDecision {
  const { vramGiB } = request.spec.gpu;
  const asked = formatRequestedGiB(vramGiB);
  refuseVramAboveGpus(
    vramGiB,
    `one ${model.id}`,
    model.memoryMiB,
    'a DRA claim here holds one GPU',
  );
  if (claimsMigInstance(request, model, cluster)) {
    return decideDraMig(
      request,
      model,
      cluster,
      { [DEVICE_PLUGIN_DEPLOY_LABEL]: 'false' },
      DRIVER_WARNING,
    );
  }
  const gap = draAutoscalingGap(cluster);
  const warnings = gap
    ? [
        `${gap}. This plan targets a static pool (spec.replicas, Karpenter feature gate StaticCapacity) or pre-existing nodes.`,
        DRIVER_WARNING,
      ]
    : [DRIVER_WARNING];
  const sharesPerGpu = cluster.dra?.consumableShares;
  if (sharesPerGpu && !gap && !cluster.generateNodeClass) {
    warnings.push(
      `The NVIDIA DRA driver shares every GPU ${sharesPerGpu} ways (profile dra.consumableShares): set the annotation ${NVIDIA_CONSUMABLE_CAPACITY_ANNOTATION}: "${sharesPerGpu}" on ${cluster.nodeClass.kind} ${cluster.nodeClass.name}, or Karpenter models one claim per GPU and launches more nodes than these claims need.`,
    );
  }
  const shares = sharesPerGpu
    ? draShares(request, model, sharesPerGpu)
    : undefined;
  const scaling = gap
    ? 'on a static pool'
    : 'on a pool Karpenter scales for pending claims';
  const reason =
    sharesPerGpu && shares
      ? `each replica claims ${shares} of the ${sharesPerGpu} shares of a ${model.id} (${gib(model.memoryMiB)}; ${gib((model.memoryMiB * shares) / sharesPerGpu)} for the ${asked} asked) through a ResourceClaimTemplate of DeviceClass ${DRA_DEVICE_CLASS}, ${scaling}; the driver's consumable shares time-slice the GPU, memory not isolated`
      : `each replica claims one whole ${model.id} (${gib(model.memoryMiB)}, at least the ${asked} asked) through a ResourceClaimTemplate of DeviceClass ${DRA_DEVICE_CLASS}, ${scaling}; memory isolated`;
  const unitsPerGpu = sharesPerGpu ?? 1;
  const resourcePerReplica = shares ?? 1;
  return {
    sharing: sharesPerGpu
      ? { mode: 'dra', slicesPerGpu: sharesPerGpu }
      : { mode: 'dra' },
    resourceName: DRA_DEVICE_CLASS,
    resourcePerReplica,
    unitsPerGpu,
    minGpusPerNode: 1,
    vramGuaranteed: !sharesPerGpu,
    memoryMiB: Math.floor((model.memoryMiB * resourcePerReplica) / unitsPerGpu),
    gpuShare: resourcePerReplica / unitsPerGpu,
    poolSuffix: sharesPerGpu ? `-dra${sharesPerGpu}` : '-dra',
    // The DRA kubelet plugin must not share a node with the classic plugin.
    modeLabels: { [DEVICE_PLUGIN_DEPLOY_LABEL]: 'false' },
    warnings,
    explanation: [`DRA: ${reason}.`],
    decision: {
      choice: sharesPerGpu
        ? `${resourcePerReplica} of ${sharesPerGpu} shares per claim (DRA)`
        : '1 GPU per claim (DRA)',
      reason,
      considered: [],
    },
  };
}

import type { GpuModel } from '../catalog/types';
import { GpuInputError } from '../errors';
import type { GpuRequest } from '../request/types';
import { formatRequestedGiB } from '../format/units';
import { ModeDecision, gib, requestedMiB } from './modeDecision';

/**
 * The DRA DeviceClass of the NVIDIA DRA driver for whole GPUs
 * (`kubernetes-sigs/dra-driver-nvidia-gpu` v0.4.1,
 * `deployments/helm/dra-driver-nvidia-gpu/templates/deviceclass-gpu.yaml`).
 * A DRA plan's `resourceName` is this DeviceClass name: each replica gets a
 * ResourceClaimTemplate with one request `gpu` of exactly one
 * device of class `gpu.nvidia.com`; `resourcePerReplica` is that count.
 */
export const DRA_DEVICE_CLASS = 'gpu.nvidia.com';

/**
 * GPU Operator node label that keeps the classic device plugin off a node.
 *
 * @public
 */
export const DEVICE_PLUGIN_DEPLOY_LABEL = 'nvidia.com/gpu.deploy.device-plugin';

/**
 * DRA: one whole GPU per replica through a ResourceClaim. Karpenter v1.14
 * skips pods with resource claims, so the pool is a static one (or nodes that
 * already exist), sized to the expected node count.
 */
export function decideDra(request: GpuRequest, model: GpuModel): ModeDecision {
  const { vramGiB } = request.spec.gpu;
  const asked = formatRequestedGiB(vramGiB);
  const reason = `each replica claims one whole ${model.id} (${gib(model.memoryMiB)}, at least the ${asked} asked) through a ResourceClaimTemplate of DeviceClass ${DRA_DEVICE_CLASS}; memory isolated`;
  if (requestedMiB(vramGiB) > model.memoryMiB) {
    throw new GpuInputError([
      {
        path: 'spec.gpu.vramGiB',
        rule: 'vram-exceeds-gpu',
        message: `${asked} does not fit one ${model.id} (${gib(model.memoryMiB)}); a DRA claim here holds one GPU`,
      },
    ]);
  }
  return {
    sharing: { mode: 'dra' },
    resourceName: DRA_DEVICE_CLASS,
    resourcePerReplica: 1,
    unitsPerGpu: 1,
    minGpusPerNode: 1,
    vramGuaranteed: true,
    memoryMiB: model.memoryMiB,
    gpuShare: 1,
    poolSuffix: '-dra',
    // The DRA kubelet plugin must not share a node with the classic plugin.
    modeLabels: { [DEVICE_PLUGIN_DEPLOY_LABEL]: 'false' },
    warnings: [
      'Karpenter v1.14 does not provision nodes for pods with DRA resource claims (IGNORE_DRA_REQUESTS defaults to true): this plan targets a static pool (spec.replicas, feature gate StaticCapacity) or pre-existing nodes.',
      "DRA needs the NVIDIA DRA driver (gpu.nvidia.com) on these nodes and NOT the classic device plugin; the pool label nvidia.com/gpu.deploy.device-plugin=false keeps the GPU Operator's plugin off them.",
    ],
    explanation: [`DRA: ${reason}.`],
    decision: { choice: '1 GPU per claim (DRA)', reason, considered: [] },
  };
}

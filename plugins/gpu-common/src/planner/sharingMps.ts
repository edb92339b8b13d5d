import { gpuShareOfUnits } from '../capacity/poolUnits';
import { WELL_KNOWN_KEYS } from '../manifests/metadataKeys';
import type { GpuModel } from '../catalog/types';
import { GpuInputError } from '../errors';
import type { GpuRequest } from '../request/types';
import { coveringShareCount } from './coveringShareCount';
import { namedDevicePluginConfig } from './devicePluginConfig';
import { formatRequestedGiB } from '../format/units';
import {
  ModeDecision,
  SHARED_GPU_RESOURCE,
  gib,
  requestedMiB,
} from './modeDecision';

/**
 * The device plugin rejects fewer than 2 MPS replicas ("number of replicas
 * must be ≥ 2", NVIDIA k8s-device-plugin v0.20.0 `api/config/v1/replicas.go`).
 */
export const MIN_MPS_REPLICAS = 2;

/** The rule of the refusal when not even 2 clients of the asked memory fit a GPU. */
export const MPS_NEEDS_TWO_CLIENTS = 'mps-needs-two-clients';

/** Device memory MPS pins per client when a GPU serves `clients`, in MiB. */
export function mpsPinnedMiB(model: GpuModel, clients: number): number {
  return Math.floor(model.memoryMiB / clients);
}

/**
 * MPS: the MPS daemon pins each client's device memory to
 * floor(total MiB / replicas) and gives it 100/replicas % of the SMs
 * (NVIDIA k8s-device-plugin v0.20.0 `cmd/mps-control-daemon/mps/daemon.go`).
 * Replicas = what fits in memory, clamped to 2..the
 * model's MPS client limit, so the pinned limit always covers the request;
 * or the clients of a reused pool (`onPool`), whose pinned limit the caller
 * checked covers it.
 */
export function decideMps(
  request: GpuRequest,
  model: GpuModel,
  onPool?: { pool: string; clients: number },
): ModeDecision {
  const { vramGiB } = request.spec.gpu;
  const vramMiB = requestedMiB(vramGiB);
  const asked = formatRequestedGiB(vramGiB);
  const fit = Math.floor(model.memoryMiB / vramMiB);
  let replicas: number;
  if (onPool) {
    replicas = onPool.clients;
  } else {
    replicas = coveringShareCount(
      Math.min(fit, model.mpsMaxReplicas),
      MIN_MPS_REPLICAS,
      vramMiB,
      clients => mpsPinnedMiB(model, clients),
    );
  }
  if (replicas < MIN_MPS_REPLICAS || mpsPinnedMiB(model, replicas) < vramMiB) {
    throw new GpuInputError([
      {
        path: 'spec.gpu.vramGiB',
        rule: MPS_NEEDS_TWO_CLIENTS,
        message: `MPS needs at least ${MIN_MPS_REPLICAS} clients per GPU, but ${MIN_MPS_REPLICAS} clients of a ${model.id} (${gib(model.memoryMiB)}) get ${gib(mpsPinnedMiB(model, MIN_MPS_REPLICAS))} each, below the ${asked} asked`,
      },
    ]);
  }
  const pinnedMiB = mpsPinnedMiB(model, replicas);
  const reason = onPool
    ? `the clients of reused pool ${onPool.pool}: ${gib(pinnedMiB)} pinned per client covers the ${asked} asked`
    : `floor(${gib(model.memoryMiB)} / ${asked}) = ${fit} clients fit one ${model.id}; ${replicas} (2..${model.mpsMaxReplicas}, the limit at compute capability ${model.computeCapability})`;
  const { devicePluginConfig, deviceConfigName } = namedDevicePluginConfig(
    'mps',
    replicas,
  );
  const warnings = [
    'MPS needs GPU Feature Discovery: the MPS control daemon only runs on nodes labelled nvidia.com/mps.capable=true, which GFD sets; without GFD the pods never start.',
    `MPS limits apply per CUDA process, not per pod: a replica that starts several CUDA processes gets ${gib(pinnedMiB)} and ${Math.floor(100 / replicas)}% of the SMs for EACH of them.`,
  ];
  const explanation = [
    `MPS: ${reason}.`,
    `MPS pins ${gib(pinnedMiB)} of device memory per client (1/${replicas} of ${gib(model.memoryMiB)}), at least the ${asked} asked, so VRAM is guaranteed; each client gets ${Math.floor(100 / replicas)}% of the SMs.`,
    `device-plugin config "${deviceConfigName}" (content-derived name) sets flags.migStrategy none and mpsRoot, advertises each GPU ${replicas} times as ${SHARED_GPU_RESOURCE}.`,
  ];
  if (model.mig) {
    explanation.push(
      `${model.id} supports MIG, but MPS does not work on MIG devices: these nodes keep MIG disabled (the GPU Operator labels them nvidia.com/mig.config=all-disabled by default).`,
    );
  }
  return {
    sharing: {
      mode: 'mps',
      slicesPerGpu: replicas,
      deviceConfigName,
      devicePluginConfig,
      mpsPinnedMemoryMiB: pinnedMiB,
    },
    resourceName: SHARED_GPU_RESOURCE,
    resourcePerReplica: 1,
    unitsPerGpu: replicas,
    minGpusPerNode: 1,
    vramGuaranteed: true,
    memoryMiB: pinnedMiB,
    gpuShare: gpuShareOfUnits(replicas),
    poolSuffix: `-mps${replicas}`,
    modeLabels: { [WELL_KNOWN_KEYS.devicePluginConfig]: deviceConfigName },
    warnings,
    explanation,
    decision: {
      choice: `${replicas} MPS clients per GPU (${gib(pinnedMiB)} pinned each)`,
      reason,
      considered: [],
    },
  };
}

import { gpuShareOfUnits } from '../capacity/poolUnits';
import { WELL_KNOWN_KEYS } from '../manifests/metadataKeys';
import type { GpuModel } from '../catalog/types';
import { GpuInputError } from '../errors';
import { formatRequestedGiB } from '../format/units';
import type { GpuRequest } from '../request/types';
import { coveringShareCount } from './coveringShareCount';
import { namedDevicePluginConfig } from './devicePluginConfig';
import {
  ModeDecision,
  SHARED_GPU_RESOURCE,
  gib,
  requestedMiB,
} from './modeDecision';
import { refuseVramAboveGpus } from './vramAboveGpus';

/**
 * The device plugin rejects fewer than 2 replicas ("number of replicas must be
 * ≥ 2", NVIDIA k8s-device-plugin v0.20.0 `api/config/v1/replicas.go`).
 */
export const MIN_TIME_SLICES = 2;
/**
 * Upper bound for the DERIVED slice count: a tiny VRAM request would
 * otherwise ask for hundreds of contexts on one GPU, where context switching
 * dominates. An explicit `slicesPerGpu` may go higher (schema max 64).
 */
export const MAX_AUTO_TIME_SLICES = 32;

export const OVERSUBSCRIBED_PREFIX = 'MEMORY OVERSUBSCRIBED:';

/** The rule of the refusal when even the fewest slices leave less memory than asked. */
export const SLICE_BELOW_REQUEST = 'slice-below-request';

/** Memory each of `slices` time slices of one GPU gets, in MiB (a fair share, not a limit). */
export function timeSliceMiB(model: GpuModel, slices: number): number {
  return Math.floor(model.memoryMiB / slices);
}

/**
 * Time-slicing: each GPU is advertised `slices` times as
 * `nvidia.com/gpu.shared`. No memory or fault isolation, so VRAM is never
 * guaranteed; the slice count is what fits in memory, the reused pool's or
 * the node class's (`onPool`, whose slices the caller checked cover the
 * request; `by` says whose), or the request's `slicesPerGpu`.
 *
 * A derived slice count never plans memory below what was asked: when even
 * the fewest slices (2) leave less, the request is refused (the planner adds
 * the alternatives). An EXPLICIT `slicesPerGpu` that oversubscribes is kept
 * with a loud warning instead: time slices share all of the GPU's memory
 * (nothing enforces the fair share), so oversubscribing is a deliberate,
 * legitimate choice for replicas that rarely peak together — and requests
 * already merged with it must still re-render when their base moves.
 */
export function decideTimeSlicing(
  request: GpuRequest,
  model: GpuModel,
  onPool?: TimeSlicedPool,
): ModeDecision {
  const { vramGiB } = request.spec.gpu;
  refuseVramAboveGpus(
    vramGiB,
    `one ${model.id}`,
    model.memoryMiB,
    'time-slicing cannot span GPUs',
  );
  const { slices, reason } = chosenSlices(request, model, onPool);
  const sliceMiB = timeSliceMiB(model, slices);
  const { devicePluginConfig, deviceConfigName } = namedDevicePluginConfig(
    'time-slicing',
    slices,
  );
  return {
    sharing: {
      mode: 'time-slicing',
      slicesPerGpu: slices,
      deviceConfigName,
      devicePluginConfig,
    },
    resourceName: SHARED_GPU_RESOURCE,
    resourcePerReplica: 1,
    unitsPerGpu: slices,
    minGpusPerNode: 1,
    vramGuaranteed: false,
    memoryMiB: sliceMiB,
    gpuShare: gpuShareOfUnits(slices),
    poolSuffix: `-ts${slices}`,
    modeLabels: { [WELL_KNOWN_KEYS.devicePluginConfig]: deviceConfigName },
    warnings: timeSlicingWarnings(model, slices, vramGiB),
    explanation: [
      `time-slicing: ${reason}.`,
      `device-plugin config "${deviceConfigName}" (content-derived name) advertises each GPU ${slices} times as ${SHARED_GPU_RESOURCE} (renameByDefault), selected by node label ${WELL_KNOWN_KEYS.devicePluginConfig}.`,
    ],
    decision: {
      choice: `${slices} time slices per GPU (${gib(sliceMiB)} each, not isolated)`,
      reason,
      considered: [],
    },
  };
}

/** The slices of a reused pool or node class, whose slices the caller checked cover the request; `by` says whose. */
export interface TimeSlicedPool {
  pool: string;
  slices: number;
  by?: string;
}

/** The slice count, and why: the request's `slicesPerGpu`, the reused pool's, or what fits in memory. */
function chosenSlices(
  request: GpuRequest,
  model: GpuModel,
  onPool: TimeSlicedPool | undefined,
): { slices: number; reason: string } {
  const { vramGiB, slicesPerGpu } = request.spec.gpu;
  const asked = formatRequestedGiB(vramGiB);
  const fit = Math.floor(model.memoryMiB / requestedMiB(vramGiB));
  if (slicesPerGpu !== undefined) {
    return {
      slices: slicesPerGpu,
      reason: `slicesPerGpu ${slicesPerGpu} as requested (${fit} × ${asked} fit in ${gib(model.memoryMiB)})`,
    };
  }
  if (onPool) {
    return {
      slices: onPool.slices,
      reason: `${onPool.by ?? `the slicing of reused pool ${onPool.pool}`}: ${gib(timeSliceMiB(model, onPool.slices))} per slice covers the ${asked} asked`,
    };
  }
  const slices = derivedSlices(model, vramGiB, fit);
  return {
    slices,
    reason: `floor(${gib(model.memoryMiB)} / ${asked}) = ${fit} replicas fit one ${model.id}; ${slices} slices per GPU (at least ${MIN_TIME_SLICES}, at most ${MAX_AUTO_TIME_SLICES} when derived)`,
  };
}

/** What fits in memory, within MIN_TIME_SLICES..MAX_AUTO_TIME_SLICES; refused when even the fewest slices leave less than asked. */
function derivedSlices(model: GpuModel, vramGiB: number, fit: number): number {
  const vramMiB = requestedMiB(vramGiB);
  const slices = coveringShareCount(
    Math.min(Math.max(fit, MIN_TIME_SLICES), MAX_AUTO_TIME_SLICES),
    MIN_TIME_SLICES,
    vramMiB,
    count => timeSliceMiB(model, count),
  );
  if (timeSliceMiB(model, slices) < vramMiB) {
    throw new GpuInputError([
      {
        path: 'spec.gpu.vramGiB',
        rule: SLICE_BELOW_REQUEST,
        message: `${formatRequestedGiB(vramGiB)} per replica does not fit a time slice of a ${model.id}: the fewest slices (${MIN_TIME_SLICES} per GPU) leave ${gib(timeSliceMiB(model, MIN_TIME_SLICES))} each of its ${gib(model.memoryMiB)}`,
      },
    ]);
  }
  return slices;
}

/** Memory is never isolated; an explicit `slicesPerGpu` below the ask says so loudly. */
function timeSlicingWarnings(
  model: GpuModel,
  slices: number,
  vramGiB: number,
): string[] {
  const asked = formatRequestedGiB(vramGiB);
  const sliceMiB = timeSliceMiB(model, slices);
  const warnings = [
    `Time-slicing does not isolate GPU memory or faults: the ${asked} per replica is not guaranteed; any replica can use all ${gib(model.memoryMiB)} and crash its neighbours.`,
  ];
  if (sliceMiB < requestedMiB(vramGiB)) {
    warnings.push(
      `${OVERSUBSCRIBED_PREFIX} slicesPerGpu ${slices} leaves ${gib(sliceMiB)} per slice, below the ${asked} asked (${slices} × ${asked} > ${gib(model.memoryMiB)} on one ${model.id}); replicas sharing a GPU run out of memory if all use what they asked for.`,
    );
  }
  return warnings;
}

import type { GpuModel } from '../catalog/types';
import { GpuInputError } from '../errors';
import type { GpuRequest } from '../request/types';
import {
  devicePluginConfigFor,
  devicePluginConfigName,
} from './device-plugin-config';
import {
  DEVICE_PLUGIN_CONFIG_LABEL,
  MIB_PER_GIB,
  ModeDecision,
  SHARED_GPU_RESOURCE,
  gib,
} from './mode-decision';

/** The device plugin rejects fewer than 2 replicas (NVIDIA.md §1.2). */
export const MIN_TIME_SLICES = 2;
/**
 * Upper bound for the DERIVED slice count: a tiny VRAM request would
 * otherwise ask for hundreds of contexts on one GPU, where context switching
 * dominates. An explicit `slicesPerGpu` may go higher (schema max 64).
 */
export const MAX_AUTO_TIME_SLICES = 32;

export const OVERSUBSCRIBED_PREFIX = 'MEMORY OVERSUBSCRIBED:';

/**
 * Time-slicing: each GPU is advertised `slices` times as
 * `nvidia.com/gpu.shared`. No memory or fault isolation, so VRAM is never
 * guaranteed; the slice count is what fits in memory unless overridden.
 */
export function decideTimeSlicing(
  request: GpuRequest,
  model: GpuModel,
): ModeDecision {
  const { vramGiB, slicesPerGpu } = request.spec.gpu;
  const vramMiB = vramGiB * MIB_PER_GIB;
  if (vramMiB > model.memoryMiB) {
    throw new GpuInputError([
      {
        path: 'spec.gpu.vramGiB',
        rule: 'vram-exceeds-gpu',
        message: `${vramGiB} GiB does not fit one ${model.id} (${gib(model.memoryMiB)}); time-slicing cannot span GPUs`,
      },
    ]);
  }
  const fit = Math.floor(model.memoryMiB / vramMiB);
  const explanation: string[] = [];
  let slices: number;
  if (slicesPerGpu !== undefined) {
    slices = slicesPerGpu;
    explanation.push(
      `time-slicing: ${slices} slices per GPU as requested (slicesPerGpu); ${fit} x ${vramGiB} GiB fit in ${gib(model.memoryMiB)}.`,
    );
  } else {
    slices = Math.min(Math.max(fit, MIN_TIME_SLICES), MAX_AUTO_TIME_SLICES);
    explanation.push(
      `time-slicing: floor(${gib(model.memoryMiB)} / ${vramGiB} GiB) = ${fit} replicas fit one ${model.id}; ` +
        `using ${slices} slices per GPU (at least ${MIN_TIME_SLICES}, at most ${MAX_AUTO_TIME_SLICES} when derived).`,
    );
  }
  const warnings = [
    `Time-slicing does not isolate GPU memory or faults: the ${vramGiB} GiB per replica is not guaranteed; any replica can use all ${gib(model.memoryMiB)} and crash its neighbours.`,
  ];
  if (slices * vramMiB > model.memoryMiB) {
    warnings.push(
      `${OVERSUBSCRIBED_PREFIX} ${slices} slices x ${vramGiB} GiB = ${slices * vramGiB} GiB > ${gib(model.memoryMiB)} on one ${model.id}; replicas sharing a GPU will run out of memory if all use what they asked for.`,
    );
  }
  const config = devicePluginConfigFor('time-slicing', slices);
  const deviceConfigName = devicePluginConfigName(
    'time-slicing',
    slices,
    config,
  );
  explanation.push(
    `device-plugin config "${deviceConfigName}" (content-derived name) advertises each GPU ${slices} times as ${SHARED_GPU_RESOURCE} (renameByDefault), selected by node label ${DEVICE_PLUGIN_CONFIG_LABEL}.`,
  );
  return {
    sharing: {
      mode: 'time-slicing',
      slicesPerGpu: slices,
      deviceConfigName,
      devicePluginConfig: config,
    },
    resourceName: SHARED_GPU_RESOURCE,
    resourcePerReplica: 1,
    unitsPerGpu: slices,
    minGpusPerNode: 1,
    vramGuaranteed: false,
    memoryMiB: Math.floor(model.memoryMiB / slices),
    gpuShare: 1 / slices,
    physicalGpusPerReplica: 1 / slices,
    poolSuffix: `-ts${slices}`,
    modeLabels: { [DEVICE_PLUGIN_CONFIG_LABEL]: deviceConfigName },
    warnings,
    explanation,
  };
}

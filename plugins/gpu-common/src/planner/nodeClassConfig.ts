/**
 * Bottlerocket's built-in NVIDIA device plugin shares every GPU of its node
 * class's nodes as the class's user data says (`[settings.kubelet-device-plugins.nvidia]`
 * `device-sharing-strategy = "time-slicing"`, `time-slicing.replicas`,
 * `time-slicing.rename-by-default`: bottlerocket.dev settings reference,
 * `settings.kubelet-device-plugins.nvidia.*`, Bottlerocket 1.54) and reads no
 * per-node label, so every pool launched with that class runs that one
 * config. A time-slicing request plans on it, as on the GPU Operator's
 * default (`fixedConfig.ts`): its `replicas` are the slices per GPU (a
 * replica holds one slice), its `rename-by-default` decides the resource
 * pods ask for, and the change writes no config and no label. A request one
 * slice cannot hold, or asking for other slices, is refused saying what the
 * node class sets.
 */
import type { GpuModel } from '../catalog/types';
import type { ClusterGpuStack } from '../cluster/gpuStack';
import { GpuInputError } from '../errors';
import { formatRequestedGiB } from '../format/units';
import type { GpuRequest } from '../request/types';
import {
  devicePluginSlicing,
  type DevicePluginSlicing,
} from './devicePluginSlicing';
import { planOnFixedConfig } from './fixedConfig';
import { gib, requestedMiB, type ModeDecision } from './modeDecision';
import { decideTimeSlicing, timeSliceMiB } from './sharingTimeSlicing';

/**
 * The config every node of the GPU pools' node class runs, and where it is set.
 *
 * @public
 */
export interface NodeClassConfig {
  /** What it does to every GPU: time-slicing, its replicas, the resource pods ask for. */
  slicing: DevicePluginSlicing;
  /** The device-plugin config (v1) the user data amounts to. */
  content: unknown;
  /** Where, in a reviewer's words (the node class, its file). */
  setting: string;
}

/**
 * The node class's own time-slicing config (Bottlerocket's user data), which
 * its nodes run whatever their labels; undefined elsewhere.
 *
 * @public
 */
export function nodeClassConfig(
  stack: ClusterGpuStack | undefined,
): NodeClassConfig | undefined {
  const plugin = stack?.devicePlugin;
  if (plugin?.kind !== 'bottlerocket' || plugin.config === undefined) {
    return undefined;
  }
  const slicing = devicePluginSlicing(plugin.config);
  return slicing?.mode === 'time-slicing'
    ? { slicing, content: plugin.config, setting: plugin.setting }
    : undefined;
}

/** What the node class sets, in the refusals' words. */
const whatItSets = (cluster: string, fixed: NodeClassConfig) =>
  `cluster ${cluster}'s GPU nodes run Bottlerocket's built-in NVIDIA device plugin (${fixed.setting}), whose user data time-slices every GPU ${fixed.slicing.replicas} ways (time-slicing.replicas = ${fixed.slicing.replicas}), each slice a ${fixed.slicing.resourceName}, for every node of the node class`;

/**
 * The time-slicing decision on the node class's config (a new pool), or
 * the refusal when one slice cannot hold a replica.
 */
export function decideOnNodeClassConfig(
  request: GpuRequest,
  model: GpuModel,
  cluster: string,
  fixed: NodeClassConfig,
): ModeDecision {
  const { slicesPerGpu, vramGiB } = request.spec.gpu;
  const slices = fixed.slicing.replicas;
  if (slicesPerGpu !== undefined && slicesPerGpu !== slices) {
    throw new GpuInputError([
      {
        path: 'spec.gpu.slicesPerGpu',
        rule: 'node-class-sharing',
        message: `slicesPerGpu ${slicesPerGpu} cannot run: ${whatItSets(cluster, fixed)}; ask for slicesPerGpu ${slices} (or leave it out), or change time-slicing.replicas in that node class's user data`,
      },
    ]);
  }
  const sliceMiB = timeSliceMiB(model, slices);
  if (sliceMiB < requestedMiB(vramGiB)) {
    throw new GpuInputError([
      {
        path: 'spec.gpu.vramGiB',
        rule: 'node-class-sharing',
        message: `${formatRequestedGiB(vramGiB)} per replica does not fit one slice: ${whatItSets(cluster, fixed)}, so a replica gets one slice of ${gib(sliceMiB)} of a ${model.id}'s ${gib(model.memoryMiB)}; ask for at most ${gib(sliceMiB)} per replica, or change time-slicing.replicas in that node class's user data`,
      },
    ]);
  }
  const decision = decideTimeSlicing(request, model, {
    pool: 'the node class',
    slices,
    by: `the ${slices} slices per GPU the node class's user data sets`,
  });
  return onNodeClassConfig(decision, fixed);
}

/**
 * A time-slicing decision of the node class's slices, as the class's nodes
 * run it: its resource name, its config (written by no one but the user
 * data), no label. Any other decision as it is.
 */
export function onNodeClassConfig(
  decision: ModeDecision,
  fixed: NodeClassConfig | undefined,
): ModeDecision {
  if (
    !fixed ||
    decision.sharing.mode !== 'time-slicing' ||
    decision.sharing.slicesPerGpu !== fixed.slicing.replicas
  ) {
    return decision;
  }
  const sharing = { ...decision.sharing };
  const modeLabels = { ...decision.modeLabels };
  planOnFixedConfig(sharing, modeLabels, {
    key: `bottlerocket-time-slicing-${fixed.slicing.replicas}`,
    content: fixed.content,
    by: 'node-class',
  });
  const slices = fixed.slicing.replicas;
  return {
    ...decision,
    sharing,
    modeLabels,
    resourceName: fixed.slicing.resourceName,
    explanation: [
      ...decision.explanation.filter(
        line => !line.startsWith('device-plugin config "'),
      ),
      `device-plugin config: the node class's own (${fixed.setting}): Bottlerocket's device plugin advertises each GPU ${slices} times as ${fixed.slicing.resourceName} on every node of the class; a replica holds 1 slice (1/${slices} of a GPU); the change writes no device-plugin config and no config label.`,
    ],
  };
}

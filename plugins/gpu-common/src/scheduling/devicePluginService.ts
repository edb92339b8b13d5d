/**
 * Which device plugin serves a pool's nodes, and what that leaves its pods:
 * the one rule `verify` refuses a change by and `validate` reports.
 *
 * - No device plugin on the nodes: nothing registers their GPUs with the
 *   kubelet, so no GPU pod ever lands there.
 * - Two: each registers `nvidia.com/gpu` on the same kubelet socket
 *   directory, and which one the kubelet keeps changes with restarts
 *   (kubelet device manager: the last registration of a resource wins).
 * - A MIG pool (its nodes select a mig-parted config by
 *   `nvidia.com/mig.config`) where the GPU Operator runs no MIG manager:
 *   nothing partitions its GPUs.
 * - A DRA pool, served by NVIDIA's DRA driver and no device plugin
 *   (`draDriverService.ts`).
 * - A plugin that reads no named config (NVIDIA's static DaemonSet,
 *   Bottlerocket's built-in one) gives every node its own config: the
 *   resources pods can ask for there are that config's, whatever the pool's
 *   `nvidia.com/device-plugin.config` label says.
 */
import {
  migManagerReads,
  type ClusterGpuStack,
  type DeployedDevicePlugin,
} from '../cluster/gpuStack';
import type { MigStrategy } from '../cluster/types';
import type { NodeSelectorRequirement } from '../manifests/nodeSelectorRequirement';
import { DEFAULT_MIG_CONFIG } from '../manifests/defaultConfigNames';
import { WELL_KNOWN_KEYS } from '../manifests/metadataKeys';
import { advertisedPerNode, advertisedResources } from './advertisedResources';
import { draDriverProblems, isDraPool } from './draDriverService';
import { landingRefusal } from './landingPools';
import type { AdvertisedNodeResource, PoolNodeShape } from './nodeShape';
import { RUNNING_GPU_NODE_LABELS } from './runningGpuNodeLabels';

/**
 * How a pool's GPUs are served.
 *
 * @public
 */
export interface PoolDevicePluginService {
  /** The device plugins whose pods run on the pool's nodes. */
  servedBy: DeployedDevicePlugin[];
  /** Why its GPU pods cannot run as planned, in a reviewer's words. */
  problems: string[];
  /**
   * What each node advertises when the one plugin serving it reads no named
   * config (its own config's resources); undefined: the pool's named config
   * decides, as the caller read it.
   */
  resources?: AdvertisedNodeResource[];
}

/** GPU discovery's labels as requirements: a DaemonSet's pods land on nodes that run, and carry them. */
const DISCOVERED: NodeSelectorRequirement[] = Object.entries(
  RUNNING_GPU_NODE_LABELS,
).map(([key, values]) =>
  values === 'any'
    ? { key, operator: 'Exists' }
    : { key, operator: 'In', values: [...values] },
);

/** The pool's nodes once they run, GPU discovery's labels on them. */
function runningShape(shape: PoolNodeShape): PoolNodeShape {
  const known = new Set([
    ...Object.keys(shape.labels),
    ...shape.requirements.map(r => r.key),
  ]);
  return {
    ...shape,
    requirements: [
      ...shape.requirements,
      ...DISCOVERED.filter(r => !known.has(r.key)),
    ],
  };
}

/** Why `plugin`'s pods never run on the pool's nodes; undefined when they do. */
function notServing(
  plugin: DeployedDevicePlugin,
  shape: PoolNodeShape,
): string | undefined {
  if (plugin.kind === 'bottlerocket') {
    return shape.nodeClassName === plugin.nodeClass
      ? undefined
      : `it runs on nodes of EC2NodeClass ${plugin.nodeClass} only`;
  }
  if (!plugin.placement) return undefined;
  return landingRefusal(
    { ...plugin.placement, gpuResources: {} },
    runningShape(shape),
  );
}

const named = (plugin: DeployedDevicePlugin) => plugin.setting;

function nodesOf(shape: PoolNodeShape): string {
  return `the nodes of ${shape.kind} ${shape.pool}`;
}

function noneProblem(
  shape: PoolNodeShape,
  stack: ClusterGpuStack,
  plugins: readonly DeployedDevicePlugin[],
): string {
  const why = [
    ...(stack.operatorDevicePluginOff
      ? [`the GPU Operator's is off (${stack.operatorDevicePluginOff.setting})`]
      : []),
    ...plugins.map(p => `${named(p)}: ${notServing(p, shape)}`),
  ];
  return `no device plugin runs on ${nodesOf(shape)}${why.length > 0 ? ` (${why.join('; ')})` : ''}, so nothing advertises their GPUs and no GPU pod can land there`;
}

/**
 * Why the MIG layout a pool's nodes select is never applied: no MIG
 * manager, or one reading another ConfigMap than the product's.
 */
function migProblems(shape: PoolNodeShape, stack: ClusterGpuStack): string[] {
  const migConfig = shape.labels[WELL_KNOWN_KEYS.migConfig];
  if (migConfig === undefined || migConfig === DEFAULT_MIG_CONFIG) return [];
  const selects = `${nodesOf(shape)} select the MIG layout ${migConfig} (label ${WELL_KNOWN_KEYS.migConfig})`;
  if (stack.migManagerOff) {
    return [
      `${selects}, but its GPU Operator runs no MIG manager (${stack.migManagerOff.setting}): nothing partitions their GPUs`,
    ];
  }
  const elsewhere = stack.migManagerConfigElsewhere;
  if (!elsewhere) return [];
  return [
    `${selects}, but the GPU Operator's MIG manager reads ${migManagerReads(elsewhere)} (${elsewhere.setting}), not the product's mig-parted ConfigMap: it never finds that layout; set ${elsewhere.advice}`,
  ];
}

/** A GPU Operator release the repository declares, its device plugin on or off. */
function operatorDeclared(
  stack: ClusterGpuStack,
  plugins: readonly DeployedDevicePlugin[],
): boolean {
  return (
    stack.operatorDevicePluginOff !== undefined ||
    plugins.some(p => p.kind === 'gpu-operator')
  );
}

/**
 * How `stack`'s device plugins serve the nodes of `shape`. Nothing is
 * judged when the repository declares no device plugin (`devicePlugins`
 * absent), and "none" only when it declares a GPU Operator: one installed
 * elsewhere is what the product assumes. `gpusPerNode` counts the resources a plugin of its own config
 * advertises.
 *
 * @public
 */
export function devicePluginService(
  shape: PoolNodeShape,
  stack: ClusterGpuStack | undefined,
  migStrategy: MigStrategy | undefined,
  gpusPerNode?: number,
): PoolDevicePluginService {
  const problems: string[] = [];
  if (!stack) return { servedBy: [], problems };
  const plugins = stack.devicePlugins ?? [];
  const servedBy = plugins.filter(p => notServing(p, shape) === undefined);
  problems.push(
    ...draDriverProblems(
      shape,
      runningShape(shape),
      stack,
      servedBy.map(named),
    ),
  );
  if (!stack.devicePlugins) return { servedBy, problems };
  // Without a GPU Operator release in the repository, one installed
  // elsewhere is what the product assumes serves the nodes nothing else does.
  if (
    servedBy.length === 0 &&
    !isDraPool(shape) &&
    operatorDeclared(stack, plugins)
  ) {
    problems.push(noneProblem(shape, stack, plugins));
  }
  if (servedBy.length > 1) {
    problems.push(
      `${servedBy.length} device plugins run on ${nodesOf(shape)} (${servedBy.map(named).join('; ')}): each registers the GPUs with the kubelet and which one serves a node changes with restarts; keep one (turn the GPU Operator's off with devicePlugin.enabled: false, or keep the other off these nodes)`,
    );
  }
  problems.push(...migProblems(shape, stack));
  const [only] = servedBy;
  if (servedBy.length !== 1 || only.readsNamedConfigs) {
    return { servedBy, problems };
  }
  return {
    servedBy,
    problems,
    resources: advertisedPerNode(
      advertisedResources(only.config, undefined, migStrategy),
      gpusPerNode,
    ),
  };
}

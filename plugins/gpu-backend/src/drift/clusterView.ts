/**
 * The cluster's objects looked up by what drift asks, built once per
 * comparison: each list read once, whatever the number of pools.
 */
import type { CoreV1Event, V1Node, V1Pod } from '@kubernetes/client-node';
import { poolNodeLabel } from '@gpu-gitops/plugin-gpu-common';
import { ageMs } from './driftTime';
import { scopedPools } from './karpenterPoolDrift';
import type {
  ClusterObjects,
  ComputeClassObject,
  KarpenterObject,
  MachineDeploymentObject,
  NodeFeatureRuleObject,
} from './readClusterObjects';
import type { DriftOptions } from './detectDrift';

export interface ClusterView {
  nodePools: Map<string, KarpenterObject>;
  /** Overlays by the NodePool they are scoped to; undefined: no NodeOverlay API. */
  overlays?: Map<string, KarpenterObject[]>;
  /** MachineDeployments by name; undefined: no MachineDeployment API. */
  machineDeployments?: Map<string, MachineDeploymentObject>;
  /** NodeFeatureRules by name; undefined: no NodeFeatureRule API. */
  nodeFeatureRules?: Map<string, NodeFeatureRuleObject>;
  /** ComputeClasses by name; undefined: no ComputeClass API. */
  computeClasses?: Map<string, ComputeClassObject>;
  /** Nodes by the pool their provider's pool label names. */
  nodes: Map<string, V1Node[]>;
  /** The same nodes by name. */
  nodesByName: Map<string, V1Node>;
  /** Pods pending past the grace period by namespace, the longest waiting first. */
  stuckPods: Map<string, V1Pod[]>;
  /** Scheduling events by `<namespace>/<pod>`. */
  events: Map<string, CoreV1Event[]>;
}

function push<K, V>(map: Map<K, V[]>, key: K, value: V): void {
  const list = map.get(key);
  if (list) list.push(value);
  else map.set(key, [value]);
}

function byName<T extends { metadata: { name: string } }>(
  objects: T[] | undefined,
): Map<string, T> | undefined {
  return objects && new Map(objects.map(o => [o.metadata.name, o]));
}

export function viewOf(
  objects: ClusterObjects,
  options: Pick<DriftOptions, 'profile' | 'now' | 'graceMs'>,
): ClusterView {
  const { now, graceMs } = options;
  const view: ClusterView = {
    nodePools: byName(objects.nodePools) ?? new Map(),
    machineDeployments: byName(objects.machineDeployments),
    nodeFeatureRules: byName(objects.nodeFeatureRules),
    computeClasses: byName(objects.computeClasses),
    nodes: new Map(),
    nodesByName: new Map(),
    stuckPods: new Map(),
    events: new Map(),
  };
  if (objects.nodeOverlays) {
    const overlays = new Map<string, KarpenterObject[]>();
    for (const overlay of objects.nodeOverlays) {
      for (const pool of scopedPools(overlay)) push(overlays, pool, overlay);
    }
    view.overlays = overlays;
  }
  const label = poolNodeLabel(options.profile);
  for (const node of objects.nodes) {
    const pool = node.metadata?.labels?.[label];
    if (pool) push(view.nodes, pool, node);
    if (node.metadata?.name) view.nodesByName.set(node.metadata.name, node);
  }
  const stuck = objects.pendingPods
    .filter(p => ageMs(p.metadata?.creationTimestamp, now) > graceMs)
    .sort(
      (a, b) =>
        ageMs(b.metadata?.creationTimestamp, now) -
        ageMs(a.metadata?.creationTimestamp, now),
    );
  for (const pod of stuck) push(view.stuckPods, pod.metadata?.namespace, pod);
  for (const event of objects.schedulingEvents) {
    const { namespace, name } = event.involvedObject;
    push(view.events, `${namespace}/${name}`, event);
  }
  return view;
}

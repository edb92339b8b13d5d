/**
 * Drift: what Git says a cluster's GPU pools and requests should be, against
 * what its Kubernetes API shows. A pure function of the two, so each rule is
 * tested without a cluster. Each finding says what differs and what it does
 * to the pods, in words a platform engineer can act on.
 */
import type { V1Node, V1Pod } from '@kubernetes/client-node';
import {
  unitsPerGpuOf,
  WELL_KNOWN_KEYS,
  type ClusterProfile,
  type DriftFinding,
  type PoolState,
  type RepoState,
} from '@gpu-gitops/plugin-gpu-common';
import { isPodOf } from '../utilization/podOwner';
import { viewOf, type ClusterView } from './clusterView';
import { ageMs, minutes } from './driftTime';
import {
  nodePoolFindings,
  overlayFindings,
  usesOverlays,
} from './karpenterPoolDrift';
import { machineDeploymentFindings } from './machineDeploymentDrift';
import { nodeFeatureRuleFindings } from './nodeFeatureRuleDrift';
import { computeClassFindings } from './computeClassDrift';
import { notInGit, poolObjectKind } from './poolObjectPresence';
import { schedulerNotRunningFindings } from './schedulerDrift';
import { claimUnallocatedFindings } from './claimDrift';
import type { ClusterObjects } from './readClusterObjects';

/** Labels GPU Feature Discovery and the GPU Operator's MIG manager put on nodes (gpu-operator v26.7). */
const GPU_COUNT_LABEL = 'nvidia.com/gpu.count';
const MIG_STATE_LABEL = 'nvidia.com/mig.config.state';
/** Scheduling events shown per pending workload: the latest few say why. */
const EVENTS_SHOWN = 3;

export interface DriftOptions {
  profile: ClusterProfile;
  repoState: RepoState;
  now: Date;
  /** Pods pending (and nodes without their resources) longer than this are drift, not start-up. */
  graceMs: number;
}

export interface ClusterDriftFindings {
  /** Per pool name: what concerns every request on it. */
  byPool: Map<string, DriftFinding[]>;
  /** Per workload id (`<namespace>/<name>`): its own pods. */
  byWorkload: Map<string, DriftFinding[]>;
  /** In the cluster but not in Git: pool objects we generated that Git no longer has. */
  notInGit: DriftFinding[];
}

/**
 * The rules of the pool's own object, by the kind its provider makes it:
 * a NodePool (and its NodeOverlays), a MachineDeployment, a
 * NodeFeatureRule; none where the product writes no pool object.
 */
function poolObjectFindings(
  pool: PoolState,
  view: ClusterView,
  options: DriftOptions,
): DriftFinding[] {
  const { profile } = options;
  switch (poolObjectKind(profile)) {
    case 'MachineDeployment':
      return machineDeploymentFindings(pool, view.machineDeployments, options);
    case 'NodeFeatureRule':
      return nodeFeatureRuleFindings(
        pool,
        view.nodeFeatureRules,
        view.nodesByName,
        options,
      );
    case 'ComputeClass':
      return computeClassFindings(
        pool,
        view.computeClasses,
        view.nodes.get(pool.name) ?? [],
      );
    case 'NodePool':
      return [
        ...nodePoolFindings(pool, view.nodePools),
        ...(usesOverlays(pool, profile)
          ? overlayFindings(pool, view.overlays)
          : []),
      ];
    default:
      return []; // no pool object written
  }
}

/** What runs in the cluster that Git no longer has: pool objects of the cluster's kind we generated. */
function poolObjectsNotInGit(
  objects: ClusterObjects,
  options: DriftOptions,
): DriftFinding[] {
  const kind = poolObjectKind(options.profile);
  if (!kind) return [];
  const live = {
    NodePool: objects.nodePools,
    MachineDeployment: objects.machineDeployments,
    NodeFeatureRule: objects.nodeFeatureRules,
    ComputeClass: objects.computeClasses,
  }[kind];
  return notInGit(kind, live ?? [], options.repoState);
}

function nodeFindings(
  pool: PoolState,
  nodes: V1Node[],
  objects: ClusterObjects,
  options: DriftOptions,
): DriftFinding[] {
  const { profile, repoState, now, graceMs } = options;
  const configMap = `${profile.devicePluginConfigMap.namespace}/${profile.devicePluginConfigMap.name}`;
  const findings: DriftFinding[] = [];
  if (pool.deviceConfigName && !objects.devicePluginConfigKeys) {
    findings.push({
      kind: 'device-plugin-config-missing',
      object: `ConfigMap/${configMap}`,
      message: `the device-plugin ConfigMap ${configMap} is not in the cluster: the device plugin runs its default config and advertises whole GPUs, not ${pool.resourceName}`,
    });
  }
  const expectedPerGpu = unitsPerGpuOf(pool, repoState);
  for (const node of nodes) {
    const name = node.metadata?.name ?? '?';
    const labels = node.metadata?.labels ?? {};
    const config = labels[WELL_KNOWN_KEYS.devicePluginConfig];
    if (
      config &&
      objects.devicePluginConfigKeys &&
      !objects.devicePluginConfigKeys.includes(config)
    ) {
      findings.push({
        kind: 'device-plugin-config-missing',
        object: `Node/${name}`,
        message: `node ${name} asks for device-plugin config "${config}", which the ConfigMap ${configMap} does not have (keys: ${objects.devicePluginConfigKeys.join(', ') || 'none'}): its GPUs are not shared as planned`,
      });
    }
    const migState = labels[MIG_STATE_LABEL];
    if (pool.sharingMode === 'mig' && migState && migState !== 'success') {
      findings.push({
        kind: 'mig-config-failed',
        object: `Node/${name}`,
        message: `node ${name}: the MIG manager reports ${MIG_STATE_LABEL}=${migState} for config "${labels[WELL_KNOWN_KEYS.migConfig] ?? '?'}"; its MIG instances are not as planned`,
      });
    }
    // Shared capacity appears once the device plugin has run; a node
    // younger than the grace period may still be starting it.
    const gpus = Number(labels[GPU_COUNT_LABEL]);
    if (
      pool.sharingMode !== 'exclusive' &&
      pool.sharingMode !== 'dra' &&
      Number.isInteger(gpus) &&
      gpus > 0 &&
      ageMs(node.metadata?.creationTimestamp, now) > graceMs
    ) {
      const expected = gpus * expectedPerGpu;
      const actual = Number(node.status?.allocatable?.[pool.resourceName] ?? 0);
      if (actual !== expected) {
        findings.push({
          kind: 'allocatable-differs',
          object: `Node/${name}`,
          message: `node ${name} offers ${actual} ${pool.resourceName} where the plan gives ${gpus} GPUs × ${expectedPerGpu} = ${expected}`,
        });
      }
    }
  }
  return findings;
}

function pendingFindings(
  pods: V1Pod[],
  view: ClusterView,
  options: DriftOptions,
): DriftFinding[] {
  const oldest = pods[0];
  const namespace = oldest.metadata?.namespace ?? '';
  const events = pods
    .flatMap(p => view.events.get(`${namespace}/${p.metadata?.name}`) ?? [])
    .sort(
      (a, b) =>
        new Date(
          b.lastTimestamp ?? b.eventTime ?? b.metadata?.creationTimestamp ?? 0,
        ).getTime() -
        new Date(
          a.lastTimestamp ?? a.eventTime ?? a.metadata?.creationTimestamp ?? 0,
        ).getTime(),
    );
  const messages = [
    ...new Set(events.map(e => `${e.reason}: ${e.message ?? ''}`.trim())),
  ].slice(0, EVENTS_SHOWN);
  const waited = ageMs(oldest.metadata?.creationTimestamp, options.now);
  return [
    {
      kind: 'pods-pending',
      object: `Pod/${namespace}/${oldest.metadata?.name}`,
      message: `${pods.length} pod${pods.length === 1 ? '' : 's'} Pending for up to ${minutes(waited)}`,
      ...(messages.length > 0 ? { events: messages } : {}),
    },
  ];
}

export function detectDrift(
  objects: ClusterObjects,
  options: DriftOptions,
): ClusterDriftFindings {
  const { repoState } = options;
  const view = viewOf(objects, options);
  const byPool = new Map<string, DriftFinding[]>();
  for (const pool of repoState.pools) {
    const findings = [
      ...poolObjectFindings(pool, view, options),
      ...nodeFindings(pool, view.nodes.get(pool.name) ?? [], objects, options),
    ];
    byPool.set(pool.name, findings);
  }
  const byWorkload = new Map<string, DriftFinding[]>();
  for (const workload of repoState.workloads) {
    const pods = (view.stuckPods.get(workload.namespace) ?? []).filter(p =>
      isPodOf(p.metadata?.name ?? '', workload.name),
    );
    byWorkload.set(
      workload.id,
      pods.length > 0
        ? [
            ...pendingFindings(pods, view, options),
            ...schedulerNotRunningFindings(
              pods,
              objects.binPackingSchedulerPods,
            ),
            ...claimUnallocatedFindings(pods, objects.resourceClaims),
          ]
        : [],
    );
  }
  return {
    byPool,
    byWorkload,
    notInGit: poolObjectsNotInGit(objects, options),
  };
}

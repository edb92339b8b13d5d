/**
 * Cluster API pools: the pool is a MachineDeployment in the profile's
 * `clusterApi.namespace`, named after the pool. It must be in the cluster,
 * and its machines ready: Cluster API reports that in the v1beta2 status
 * its MachineDeployment controller writes (kubernetes-sigs/cluster-api
 * v1.14.0 `core/reconcilers/machinedeployment/machinedeployment_status.go`).
 */
import {
  clusterApiSettingsOf,
  type ClusterProfile,
  type DriftFinding,
  type PoolState,
} from '@gpu-gitops/plugin-gpu-common';
import { ageMs, minutes } from './driftTime';
import { missingFromCluster, objectRef } from './poolObjectPresence';
import type {
  MachineDeploymentObject,
  ObjectCondition,
} from './readClusterObjects';

/**
 * True when the condition says the pool is short of machines (same file,
 * `setAvailableCondition`, `setScalingUpCondition`,
 * `setMachinesReadyCondition`): `Available` is not True when fewer machines
 * are available than `spec.replicas` less the rollout's maxUnavailable;
 * `ScalingUp` is True while there are fewer machines than `spec.replicas`
 * (with the reason when creating them is blocked, e.g. a missing
 * template); `MachinesReady` is not True while a machine's Ready condition
 * is not (not provisioned, its node not joined or unhealthy), which means
 * fewer ready than wanted only while there are no more machines than
 * wanted (a rollout's surge machine may be the one not ready).
 */
function showsShortfall(
  condition: ObjectCondition,
  live: MachineDeploymentObject,
): boolean {
  switch (condition.type) {
    case 'Available':
      return condition.status !== 'True';
    case 'ScalingUp':
      return condition.status === 'True';
    case 'MachinesReady':
      return (
        condition.status !== 'True' &&
        (live.status?.replicas ?? 0) <= (live.spec?.replicas ?? Infinity)
      );
    default:
      return false;
  }
}

function oneLine(text: string): string {
  return text.replace(/\s*\n\s*/g, ' ').trim();
}

function describeCondition(condition: ObjectCondition): string {
  const why = condition.message ? oneLine(condition.message) : condition.reason;
  return `${condition.type} ${condition.status}${why ? `: ${why}` : ''}`;
}

/**
 * Fewer ready machines than `spec.replicas`, or not Available, for longer
 * than the grace period: since the oldest transition of a condition that
 * says so (each holds from its transition until now, so the shortfall has
 * lasted at least that long). A status that says nothing yet is not drift.
 */
function readinessFindings(
  live: MachineDeploymentObject,
  pool: PoolState,
  now: Date,
  graceMs: number,
): DriftFinding[] {
  const name = `${live.metadata.namespace}/${live.metadata.name}`;
  const object = objectRef('MachineDeployment', live.metadata);
  const conditions = live.status?.conditions ?? [];
  if (conditions.length === 0) {
    if (ageMs(live.metadata.creationTimestamp, now) <= graceMs) return [];
    return [
      {
        kind: 'machinedeployment-not-ready',
        object,
        message: `MachineDeployment ${name} has no status conditions: Cluster API has not reconciled it (is its controller running? does Cluster ${live.metadata.namespace}/${live.spec?.clusterName ?? '?'} exist?)`,
      },
    ];
  }
  const short = conditions.filter(c => showsShortfall(c, live));
  const desired = live.spec?.replicas;
  const ready = live.status?.readyReplicas ?? 0;
  const available = conditions.find(c => c.type === 'Available');
  const lacking =
    (desired !== undefined && ready < desired) || available?.status !== 'True';
  if (!lacking || short.length === 0) return [];
  const since = Math.max(...short.map(c => ageMs(c.lastTransitionTime, now)));
  if (since <= graceMs) return [];
  const count = desired === undefined ? `${ready}` : `${ready} of ${desired}`;
  return [
    {
      kind: 'machinedeployment-not-ready',
      object,
      message: `MachineDeployment ${name} has had ${count} machines ready for ${minutes(since)} (${short.map(describeCondition).join('; ')}): pods of pool ${pool.name} wait for its nodes`,
    },
  ];
}

/**
 * The pool's MachineDeployment: absent, or its machines short for longer
 * than the grace period. Without a MachineDeployment API (`live`
 * undefined) nothing is compared: Cluster API usually runs in a separate
 * management cluster, and the workload cluster whose nodes drift reads
 * cannot tell whether the pool is there — a badge on every pool would say
 * nothing (the node rules still apply).
 */
export function machineDeploymentFindings(
  pool: PoolState,
  live: Map<string, MachineDeploymentObject> | undefined,
  options: { profile: ClusterProfile; now: Date; graceMs: number },
): DriftFinding[] {
  if (!live) return [];
  const { namespace } = clusterApiSettingsOf(options.profile);
  const deployment = live.get(pool.name);
  if (!deployment) {
    return [missingFromCluster('MachineDeployment', pool, namespace)];
  }
  return readinessFindings(deployment, pool, options.now, options.graceMs);
}

/**
 * Karpenter pools (AWS, Azure): the pool is a NodePool, and a shared or MIG
 * pool's capacity exists for Karpenter only through its NodeOverlays.
 */
import {
  WELL_KNOWN_KEYS,
  type ClusterProfile,
  type DriftFinding,
  type PoolState,
} from '@gpu-gitops/plugin-gpu-common';
import { missingFromCluster } from './poolObjectPresence';
import type { KarpenterObject } from './readClusterObjects';

/** Karpenter's NodeOverlay validation condition: overlays apply only when it is True (kubernetes-sigs/karpenter `pkg/controllers/nodeoverlay`). */
const OVERLAY_VALIDATED = 'ValidationSucceeded';

/** Shared and MIG pools reach Karpenter through NodeOverlays, where the profile writes them. */
export function usesOverlays(
  pool: PoolState,
  profile: ClusterProfile,
): boolean {
  return (
    profile.nodeOverlay &&
    (pool.sharingMode === 'time-slicing' ||
      pool.sharingMode === 'mps' ||
      pool.sharingMode === 'mig')
  );
}

function readyCondition(object: KarpenterObject) {
  return object.status?.conditions?.find(c => c.type === 'Ready');
}

/** The NodePools an overlay is scoped to (`karpenter.sh/nodepool In [...]`). */
export function scopedPools(overlay: KarpenterObject): string[] {
  return (overlay.spec?.requirements ?? []).flatMap(r =>
    r.key === WELL_KNOWN_KEYS.karpenterNodePool && r.operator === 'In'
      ? (r.values ?? [])
      : [],
  );
}

/**
 * Karpenter's verdict on the pool's recent launches: False when nodes it
 * launched failed to launch or to register in time (kubernetes-sigs/karpenter
 * v1.14.1 `pkg/controllers/nodeclaim/lifecycle/liveness.go`,
 * `updateNodePoolRegistrationHealth`). It is not one of the NodePool's Ready
 * conditions (`pkg/apis/v1/nodepool_status.go`), and Karpenter deletes the
 * failed NodeClaims, so the NodePool is where the failure stays visible.
 */
const REGISTRATION_HEALTHY = 'NodeRegistrationHealthy';

function conditionText(condition: {
  reason?: string;
  status: string;
  message?: string;
}) {
  return `${condition.reason ?? condition.status}${condition.message ? `: ${condition.message}` : ''}`;
}

/**
 * The pool's NodePool: absent, not Ready (with Karpenter's reason), or
 * Ready while the nodes it launches fail to launch or join.
 */
export function nodePoolFindings(
  pool: PoolState,
  nodePools: Map<string, KarpenterObject>,
): DriftFinding[] {
  const object = `NodePool/${pool.name}`;
  const live = nodePools.get(pool.name);
  if (!live) return [missingFromCluster('NodePool', pool)];
  const ready = readyCondition(live);
  if (ready?.status !== 'True') {
    return [
      {
        kind: 'nodepool-not-ready',
        object,
        message: ready
          ? `NodePool ${pool.name} is not Ready (${conditionText(ready)}); Karpenter launches no node for it`
          : `NodePool ${pool.name} has no Ready condition: Karpenter has not reconciled it (is Karpenter running?)`,
      },
    ];
  }
  const registration = live.status?.conditions?.find(
    c => c.type === REGISTRATION_HEALTHY,
  );
  if (registration?.status !== 'False') return [];
  return [
    {
      kind: 'nodepool-registration-unhealthy',
      object,
      message: `the nodes Karpenter launches for NodePool ${pool.name} fail to launch or join the cluster (${conditionText(registration)}); check its node class (AMI and GPU driver, subnets, node role): pods of this pool wait meanwhile`,
    },
  ];
}

/**
 * The pool's NodeOverlays: none (or no NodeOverlay API; `overlays`
 * undefined), never validated (the feature gate is off), or rejected.
 */
export function overlayFindings(
  pool: PoolState,
  overlaysByPool: Map<string, KarpenterObject[]> | undefined,
): DriftFinding[] {
  const stuck = `pods asking for ${pool.resourceName} stay Pending (Karpenter issue #729)`;
  if (!overlaysByPool) {
    return [
      {
        kind: 'nodeoverlay-missing',
        object: `NodePool/${pool.name}`,
        message: `the cluster serves no NodeOverlay API (karpenter.sh/v1alpha1): Karpenter is older than v1.7 or its CRDs are not installed; ${stuck}`,
      },
    ];
  }
  const overlays = overlaysByPool.get(pool.name) ?? [];
  if (overlays.length === 0) {
    return [
      {
        kind: 'nodeoverlay-missing',
        object: `NodePool/${pool.name}`,
        message: `no NodeOverlay in the cluster is scoped to NodePool ${pool.name} (Git has them): Karpenter does not know the pool's ${pool.resourceName} capacity; ${stuck}`,
      },
    ];
  }
  const conditions = overlays.map(o =>
    o.status?.conditions?.find(c => c.type === OVERLAY_VALIDATED),
  );
  if (conditions.every(c => c === undefined)) {
    return [
      {
        kind: 'nodeoverlay-gate-off',
        object: `NodeOverlay/${overlays[0].metadata.name}`,
        message: `Karpenter has not validated the NodeOverlays of ${pool.name}: its NodeOverlay feature gate is off (--feature-gates NodeOverlay=true; Helm settings.featureGates.nodeOverlay), so it ignores them and ${stuck}`,
      },
    ];
  }
  return overlays.flatMap((overlay, i) => {
    const condition = conditions[i];
    if (!condition || condition.status === 'True') return [];
    return [
      {
        kind: 'nodeoverlay-invalid' as const,
        object: `NodeOverlay/${overlay.metadata.name}`,
        message: `NodeOverlay ${overlay.metadata.name} failed Karpenter's validation (${condition.reason ?? condition.status}${condition.message ? `: ${condition.message}` : ''}); Karpenter does not apply it`,
      },
    ];
  });
}

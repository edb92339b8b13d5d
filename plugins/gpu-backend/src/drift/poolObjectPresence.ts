/**
 * A pool's object in Git and in the cluster, whatever kind the pool is
 * (Karpenter NodePool, EKS Auto Mode's NodePool included, Cluster API
 * MachineDeployment, NFD NodeFeatureRule, GKE ComputeClass): in Git but not in the cluster, or in the cluster though
 * Git no longer has it. One rule for every kind; the words name the kind
 * and what its absence, or its staying, does.
 */
import {
  MANAGED_BY,
  poolProviderOf,
  WELL_KNOWN_KEYS,
  type ClusterProfile,
  type DriftFinding,
  type DriftKind,
  type PoolState,
  type RepoState,
} from '@gpu-gitops/plugin-gpu-common';

/** The kinds a pool's object has, by provider (gpu-common `PoolProvider.poolKind`). */
export type PoolObjectKind =
  | 'NodePool'
  | 'MachineDeployment'
  | 'NodeFeatureRule'
  | 'ComputeClass';

/**
 * The kind of the cluster's pool objects (its provider's `poolKind`), or
 * undefined where the product writes none: a static cluster without a node
 * inventory (gpu-common `providers/staticNodes.ts`), whose nodes' labels
 * and taint are the platform's to set.
 */
export function poolObjectKind(
  profile: ClusterProfile,
): PoolObjectKind | undefined {
  const kind = poolProviderOf(profile).poolKind;
  if (!(kind in KINDS)) return undefined;
  return kind === 'NodeFeatureRule' && !profile.staticNodes
    ? undefined
    : (kind as PoolObjectKind);
}

const KINDS: Record<
  PoolObjectKind,
  {
    missing: DriftKind;
    notInGit: DriftKind;
    /** What the pool lacks while its object is not in the cluster. */
    absent: string;
    /** What an object Git no longer has keeps doing. */
    staying: string;
  }
> = {
  NodePool: {
    missing: 'nodepool-missing',
    notInGit: 'nodepool-not-in-git',
    absent: 'no node of this pool can start',
    staying: 'its nodes still cost money',
  },
  MachineDeployment: {
    missing: 'machinedeployment-missing',
    notInGit: 'machinedeployment-not-in-git',
    absent: 'Cluster API creates no machine for this pool',
    staying: 'its machines still run and cost money',
  },
  NodeFeatureRule: {
    missing: 'nodefeaturerule-missing',
    notInGit: 'nodefeaturerule-not-in-git',
    absent:
      "nfd-master gives the pool's nodes neither its labels nor its taint, so no pod of the pool is placed there",
    staying: 'nfd-master still labels and taints its nodes',
  },
  ComputeClass: {
    missing: 'computeclass-missing',
    notInGit: 'computeclass-not-in-git',
    absent:
      "GKE creates no node pool for it, and its pods (selecting cloud.google.com/compute-class) stay Pending",
    staying:
      'GKE still creates nodes for pods that select it, and the nodes it made still cost money',
  },
};

/** An object's name as the API addresses it: `<namespace>/<name>` when namespaced. */
function qualifiedName(metadata: { name: string; namespace?: string }) {
  return metadata.namespace
    ? `${metadata.namespace}/${metadata.name}`
    : metadata.name;
}

/** `NodePool/gpu-t4-ts4`, `MachineDeployment/capi-dev/gpu-t4-ts4`: a finding's `object`. */
export function objectRef(
  kind: PoolObjectKind,
  metadata: { name: string; namespace?: string },
): string {
  return `${kind}/${qualifiedName(metadata)}`;
}

/** The pool's object (named after the pool) is in Git but not in the cluster. */
export function missingFromCluster(
  kind: PoolObjectKind,
  pool: PoolState,
  namespace?: string,
): DriftFinding {
  const name = qualifiedName({ name: pool.name, namespace });
  return {
    kind: KINDS[kind].missing,
    object: `${kind}/${name}`,
    message: `${kind} ${name} is in Git (${pool.path}) but not in the cluster: not synced yet, or the sync failed; ${KINDS[kind].absent}`,
  };
}

/**
 * The cluster's objects of the pool's kind that we generated (our
 * `app.kubernetes.io/managed-by`) and Git no longer has; a hand-written
 * one is not Git's to miss.
 */
export function notInGit(
  kind: PoolObjectKind,
  live: {
    metadata: {
      name: string;
      namespace?: string;
      labels?: Record<string, string>;
    };
  }[],
  repoState: RepoState,
): DriftFinding[] {
  const inGit = new Set([
    ...repoState.pools.map(p => p.name),
    ...(repoState.otherNodePools ?? []),
  ]);
  return live
    .filter(
      o =>
        o.metadata.labels?.[WELL_KNOWN_KEYS.managedBy] === MANAGED_BY &&
        !inGit.has(o.metadata.name),
    )
    .map(o => ({
      kind: KINDS[kind].notInGit,
      object: objectRef(kind, o.metadata),
      message: `${kind} ${qualifiedName(o.metadata)} runs in the cluster but Git no longer has it: the sync does not prune it (${KINDS[kind].staying})`,
    }));
}

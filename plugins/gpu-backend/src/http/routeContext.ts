/**
 * What every route group of the gpu backend's API shares: the router's
 * options, the caller's credentials and the `?cluster=` lookup.
 */
import type express from 'express';
import type {
  AuthService,
  BackstageCredentials,
  HttpAuthService,
  LoggerService,
} from '@backstage/backend-plugin-api';
import { InputError } from '@backstage/errors';
import type { CatalogService } from '@backstage/plugin-catalog-node';
import type {
  AllocationUtilization,
  ClusterProfile,
  DriftFinding,
  GpuAllocation,
  GpuCatalog,
  LiveDataStatus,
  PoolUtilization,
} from '@gpu-gitops/plugin-gpu-common';
import type { GpuPolicy } from '@gpu-gitops/plugin-gpu-node';
import type { AllocationQueries } from '../allocation/AllocationQueries';
import type { Readiness } from '../health/Readiness';
import type { IndexSnapshot } from '../repoIndex/indexSnapshot';

/** @public */
export interface RouterOptions {
  httpAuth: HttpAuthService;
  /**
   * The plugin's own credentials, to tell a request whose component the
   * catalog does not hold (named, with its record's owner) from one the
   * caller may not read (counted only). Without it, both are counted only.
   */
  auth?: AuthService;
  catalog: CatalogService;
  logger?: LoggerService;
  /** The current index snapshot (replaced on every refresh). */
  snapshot(): IndexSnapshot;
  queries: AllocationQueries;
  gpuCatalog: GpuCatalog;
  clusters: ClusterProfile[];
  defaultCluster: string;
  /** `gpu.policy`: the owners' allowed models and modes and GPU quotas (default: none). */
  policy?: GpuPolicy;
  /** What must have worked once before /health answers 200 (default: nothing). */
  readiness?: Readiness;
  /** Live figures from the clusters' Prometheus (`gpu.utilization`); without it, intent only. */
  live?: LiveAllocationData;
  /** Drift from the clusters' Kubernetes API (`gpu.utilization`); without it, intent only. */
  drift?: AllocationDriftData;
}

/**
 * What the allocation routes ask of live data: an allocation's figures, a
 * cluster's pools' figures, and whether each cluster had any (and why not).
 *
 * @public
 */
export interface LiveAllocationData {
  utilizationOf(allocation: GpuAllocation): AllocationUtilization | undefined;
  /**
   * Each of the cluster's `pools` (name to the price of one GPU: its node's
   * cents over its GPUs), its GPUs found by the pods of `workloads` (with
   * their pool) on them; undefined when the cluster has no live data.
   */
  poolUtilizationOf(
    cluster: string,
    workloads: readonly { namespace: string; name: string; pool?: string }[],
    pools: ReadonlyMap<
      string,
      { nodeCents: number; gpusPerNode: number } | undefined
    >,
  ): Map<string, PoolUtilization> | undefined;
  statusOf(clusters: string[]): LiveDataStatus[];
}

/**
 * What the allocation route asks of drift: where the cluster differs from
 * Git for an allocation, and whether each cluster was read (and why not).
 *
 * @public
 */
export interface AllocationDriftData {
  /** Compared with the Git of `snapshot`, the one the answer comes from. */
  driftOf(
    allocation: GpuAllocation,
    snapshot: IndexSnapshot,
  ): DriftFinding[] | undefined;
  /** A pool's own findings (its NodePool, MachineDeployment or NodeFeatureRule, overlays, its nodes). */
  poolDriftOf(
    cluster: string,
    pool: string,
    snapshot: IndexSnapshot,
  ): DriftFinding[] | undefined;
  /** What runs in the cluster that Git no longer has. */
  notInGitOf(
    cluster: string,
    snapshot: IndexSnapshot,
  ): DriftFinding[] | undefined;
  statusOf(clusters: string[]): LiveDataStatus[];
}

export interface RouteContext {
  options: RouterOptions;
  /** The caller's user or service credentials (refused without). */
  credentialsOf(req: express.Request): Promise<BackstageCredentials>;
  /** The profile `value` names, or the default cluster's when empty; unknown names are a 400. */
  clusterOf(value: unknown): ClusterProfile;
}

/**
 * The profile `value` names, or the default cluster's when empty; an unknown
 * name is refused with the configured ones (the routes' `?cluster=`, the
 * actions' `cluster` input).
 */
export function clusterProfileOf(
  options: Pick<RouterOptions, 'clusters' | 'defaultCluster'>,
  value: unknown,
): ClusterProfile {
  const name =
    typeof value === 'string' && value !== '' ? value : options.defaultCluster;
  const profile = options.clusters.find(c => c.name === name);
  if (!profile) {
    throw new InputError(
      `unknown cluster "${name}"; configured clusters: ${options.clusters
        .map(c => c.name)
        .join(', ')}`,
    );
  }
  return profile;
}

export function routeContext(options: RouterOptions): RouteContext {
  const { httpAuth } = options;
  const credentialsOf = (req: express.Request) =>
    httpAuth.credentials(req, { allow: ['user', 'service'] });
  const clusterOf = (value: unknown) => clusterProfileOf(options, value);
  return { options, credentialsOf, clusterOf };
}

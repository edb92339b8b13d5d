import { createApiRef } from '@backstage/frontend-plugin-api';
import type {
  AllocationResponse,
  ClustersResponse,
  GpuPullRequestDetail,
  GpuPullRequestMergeResponse,
  GpuPullRequestsResponse,
  GpuRequest,
  PlanPreviewResponse,
  PoolSummary,
  PoolsResponse,
  QuotaUse,
  RightSizeResponse,
  WorkloadKind,
  WorkloadsResponse,
} from '@gpu-gitops/plugin-gpu-common';

/**
 * What the frontend needs from the `gpu` backend (plugins/gpu-backend). The
 * shapes are the shared HTTP contract in gpu-common's `allocation/types.ts`.
 *
 * @public
 */
export interface GpuApi {
  /** The GPU requests of one catalog entity (`kind:namespace/name`). */
  getAllocation(entityRef: string): Promise<AllocationResponse>;
  /** The planner's fit for what each of the entity's measured requests really used. */
  getRightSize(entityRef: string): Promise<RightSizeResponse>;
  /** Every GPU pool of the GitOps repository (optionally of one cluster profile). */
  getPools(options?: { cluster?: string }): Promise<PoolsResponse>;
  /** One pool by name. */
  getPool(name: string): Promise<PoolSummary>;
  /**
   * The GitOps repository's workloads of a name (Deployment, StatefulSet, Job,
   * CronJob; GPU or not) with their containers and replicas: an empty list
   * when the repository holds none.
   */
  getWorkloads(query: {
    name: string;
    namespace?: string;
    kind?: WorkloadKind;
  }): Promise<WorkloadsResponse>;
  /**
   * A dry-run plan of a request against the current repository. Rejects with
   * `GpuPlanRejectedError` (the issues name field and rule) when the request
   * is invalid or cannot be planned.
   */
  previewPlan(
    request: GpuRequest,
    options?: { cluster?: string },
  ): Promise<PlanPreviewResponse>;
  /**
   * The configured cluster profiles (provider, region) and what each can
   * run; with `owner`, the models and sharing modes its policy forbids are
   * unavailable too, each with the reason.
   */
  getClusters(options?: { owner?: string }): Promise<ClustersResponse>;
  /**
   * What an owner holds on a cluster and its quota there; `workload`
   * (`namespace`, `name`) is left out, as a request that replaces it counts.
   */
  getQuota(query: {
    owner: string;
    cluster?: string;
    namespace?: string;
    name?: string;
  }): Promise<QuotaUse>;
  /** The open GPU pull requests (of one entity: those of its workload). */
  listPullRequests(options?: {
    entityRef?: string;
  }): Promise<GpuPullRequestsResponse>;
  /** One pull request of the local forge with its diff; `id` is the branch without `gpu/`. */
  getPullRequest(id: string): Promise<GpuPullRequestDetail>;
  /** Merges it into the base; `head` is the commit the reviewer saw. */
  mergePullRequest(
    id: string,
    head: string,
  ): Promise<GpuPullRequestMergeResponse>;
  /** Closes it without merging; `head` is the commit the reviewer saw. */
  closePullRequest(id: string, head: string): Promise<void>;
}

/**
 *  Works in both frontend systems (legacy `createApiFactory` and `ApiBlueprint`).
 *
 * @public
 */
export const gpuApiRef = createApiRef<GpuApi>().with({
  id: 'plugin.gpu.api',
  pluginId: 'gpu',
});

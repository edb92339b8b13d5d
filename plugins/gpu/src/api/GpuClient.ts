import type { DiscoveryApi, FetchApi } from '@backstage/core-plugin-api';
import { ResponseError } from '@backstage/errors';
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
import type { GpuApi } from './GpuApi';
import { GpuPlanRejectedError } from './GpuPlanRejectedError';

/**
 * GpuApi over HTTP. `fetchApi` adds the user's Backstage token; a non-2xx
 * answer becomes a `ResponseError` carrying the backend's error body (e.g.
 * the 400 issues of an invalid request), so the UI can show it.
 *
 * @public
 */
export class GpuClient implements GpuApi {
  private readonly discoveryApi: DiscoveryApi;
  private readonly fetchApi: FetchApi;

  constructor(options: { discoveryApi: DiscoveryApi; fetchApi: FetchApi }) {
    this.discoveryApi = options.discoveryApi;
    this.fetchApi = options.fetchApi;
  }

  getAllocation(entityRef: string): Promise<AllocationResponse> {
    return this.request(
      `/allocation?entityRef=${encodeURIComponent(entityRef)}`,
    );
  }

  getRightSize(entityRef: string): Promise<RightSizeResponse> {
    return this.request(
      `/right-size?entityRef=${encodeURIComponent(entityRef)}`,
    );
  }

  getPools(options?: { cluster?: string }): Promise<PoolsResponse> {
    return this.request(`/pools${clusterQuery(options?.cluster)}`);
  }

  getPool(name: string): Promise<PoolSummary> {
    return this.request(`/pools/${encodeURIComponent(name)}`);
  }

  getWorkloads(query: {
    name: string;
    namespace?: string;
    kind?: WorkloadKind;
  }): Promise<WorkloadsResponse> {
    const params = new URLSearchParams({ name: query.name });
    if (query.namespace) params.set('namespace', query.namespace);
    if (query.kind) params.set('kind', query.kind);
    return this.request(`/workloads?${params}`);
  }

  previewPlan(
    request: GpuRequest,
    options?: { cluster?: string },
  ): Promise<PlanPreviewResponse> {
    return this.request(`/plan${clusterQuery(options?.cluster)}`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify(request),
    });
  }

  getClusters(options?: { owner?: string }): Promise<ClustersResponse> {
    const params = new URLSearchParams();
    if (options?.owner) params.set('owner', options.owner);
    const query = params.toString();
    return this.request(`/clusters${query ? `?${query}` : ''}`);
  }

  getQuota(query: {
    owner: string;
    cluster?: string;
    namespace?: string;
    name?: string;
  }): Promise<QuotaUse> {
    const params = new URLSearchParams({ owner: query.owner });
    for (const key of ['cluster', 'namespace', 'name'] as const) {
      const value = query[key];
      if (value) params.set(key, value);
    }
    return this.request(`/quota?${params}`);
  }

  listPullRequests(options?: {
    entityRef?: string;
  }): Promise<GpuPullRequestsResponse> {
    const query = options?.entityRef
      ? `?entityRef=${encodeURIComponent(options.entityRef)}`
      : '';
    return this.request(`/pull-requests${query}`);
  }

  getPullRequest(id: string): Promise<GpuPullRequestDetail> {
    return this.request(`/pull-requests/${encodeURIComponent(id)}`);
  }

  mergePullRequest(
    id: string,
    head: string,
  ): Promise<GpuPullRequestMergeResponse> {
    return this.request(`/pull-requests/${encodeURIComponent(id)}/merge`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ head }),
    });
  }

  async closePullRequest(id: string, head: string): Promise<void> {
    await this.request(`/pull-requests/${encodeURIComponent(id)}/close`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ head }),
    });
  }

  private async request<T>(path: string, init?: RequestInit): Promise<T> {
    const baseUrl = await this.discoveryApi.getBaseUrl('gpu');
    const response = await this.fetchApi.fetch(`${baseUrl}${path}`, init);
    if (!response.ok) {
      const rejected =
        response.status === 400
          ? await planRejection(response.clone())
          : undefined;
      throw rejected ?? (await ResponseError.fromResponse(response));
    }
    // 204 No Content (close) has no body.
    if (response.status === 204) return undefined as T;
    return (await response.json()) as T;
  }
}

function clusterQuery(cluster: string | undefined): string {
  return cluster ? `?cluster=${encodeURIComponent(cluster)}` : '';
}

/** The backend's 400 for a request it cannot plan: `{ error, issues, quota? }` (PlanRefusalResponse). */
async function planRejection(
  response: Response,
): Promise<GpuPlanRejectedError | undefined> {
  try {
    const body = await response.json();
    if (Array.isArray(body?.issues)) {
      return new GpuPlanRejectedError(
        String(body.error?.message ?? 'The GPU request cannot be planned'),
        body.issues,
        body.quota,
      );
    }
  } catch {
    // Not JSON: the generic ResponseError below describes it.
  }
  return undefined;
}

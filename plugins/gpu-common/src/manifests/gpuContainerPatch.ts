import { isNvidiaResource } from '../scheduling/podScheduling';
import { replacedListWithOurs } from './patchListOrder';
import { DRA_CLAIM_NAME, type PodPlacement } from './podPlacement';
import { DRA_REQUEST_NAME } from './resourceClaimTemplate';
import type { ContainerView } from './workloadShape';

/**
 * The workload patch's item for the container that gets the GPU: its name
 * (`containers` merge by `name`, so the other containers are untouched), the
 * image when the product sets it, and its GPU `resources`: the plan's limits,
 * every other NVIDIA resource it asked for removed with `null` (the
 * strategic-merge delete), or its DRA claim.
 */
export function gpuContainerPatch(
  own: ContainerView | undefined,
  name: string,
  image: string | undefined,
  placement: PodPlacement,
  isDra: boolean,
): Record<string, unknown> {
  const container: Record<string, unknown> = { name };
  if (image !== undefined && own?.image !== image) container.image = image;
  const resources: Record<string, unknown> = {};
  const limits = gpuLimitsPatch(own, placement.limits);
  const requests = gpuRequestsPatch(own, placement.limits);
  if (Object.keys(limits).length > 0) resources.limits = limits;
  if (Object.keys(requests).length > 0) resources.requests = requests;
  if (isDra) resources.claims = containerClaims(own);
  container.resources = resources;
  return container;
}

/** The plan's limits, and `null` for each other NVIDIA limit the container has. */
function gpuLimitsPatch(
  own: ContainerView | undefined,
  planned: Record<string, string>,
): Record<string, unknown> {
  const limits: Record<string, unknown> = {};
  for (const key of Object.keys(own?.limits ?? {})) {
    if (isNvidiaResource(key) && !(key in planned)) limits[key] = null;
  }
  return Object.assign(limits, planned);
}

/**
 * The container's NVIDIA requests made equal to the plan's limits (Kubernetes
 * requires requests = limits for extended resources), or `null` for one the
 * plan does not limit. A container that requests none gets none.
 */
function gpuRequestsPatch(
  own: ContainerView | undefined,
  planned: Record<string, string>,
): Record<string, unknown> {
  const requests: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(own?.requests ?? {})) {
    if (!isNvidiaResource(key)) continue;
    if (!(key in planned)) requests[key] = null;
    else if (String(value) !== planned[key]) requests[key] = planned[key];
  }
  return requests;
}

/** The GPU container's `resources.claims`: its own, then the request's. */
function containerClaims(
  own: ContainerView | undefined,
): Record<string, unknown>[] {
  return replacedListWithOurs(own?.claims ?? [], {
    name: DRA_CLAIM_NAME,
    request: DRA_REQUEST_NAME,
  });
}

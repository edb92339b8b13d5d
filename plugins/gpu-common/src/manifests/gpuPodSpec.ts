import type { PodPlacement } from './podPlacement';
import { DRA_CLAIM_NAME } from './podPlacement';
import {
  DRA_REQUEST_NAME,
  resourceClaimTemplateName,
} from './resourceClaimTemplate';

/**
 * The pod spec part every GPU workload gets, new or patched: one container
 * asking for the GPU (limits, or the DRA claim), the pool's nodeSelector and
 * tolerations, and for DRA the pod-level claim from the request's template.
 */
export function gpuPodSpec(options: {
  placement: PodPlacement;
  isDra: boolean;
  /** The GPU container: its name, and its image for a new workload. */
  container: { name: string; image?: string };
  /** The request name the ResourceClaimTemplate is named after (DRA). */
  requestName: string;
}): Record<string, unknown> {
  const { placement, isDra, requestName } = options;
  const container: Record<string, unknown> = {
    ...options.container,
    resources: isDra
      ? { claims: [{ name: DRA_CLAIM_NAME, request: DRA_REQUEST_NAME }] }
      : { limits: { ...placement.limits } },
  };
  const podSpec: Record<string, unknown> = {
    ...(placement.schedulerName
      ? { schedulerName: placement.schedulerName }
      : {}),
    nodeSelector: placement.nodeSelector,
    tolerations: placement.tolerations,
    containers: [container],
  };
  if (isDra) {
    podSpec.resourceClaims = [
      {
        name: DRA_CLAIM_NAME,
        resourceClaimTemplateName: resourceClaimTemplateName(requestName),
      },
    ];
  }
  return podSpec;
}

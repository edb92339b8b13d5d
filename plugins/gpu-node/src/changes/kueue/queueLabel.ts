/**
 * The label that puts the request's workload in its team's LocalQueue, on
 * the workload object of the manifests (the new Deployment, or the patch of
 * an existing workload, which the release removes whole or undoes).
 */
import {
  QUEUE_NAME_LABEL,
  type ManifestSet,
} from '@gpu-gitops/plugin-gpu-common';

const WORKLOAD_KINDS = new Set(['Deployment', 'StatefulSet']);

export function withQueueLabel(
  manifests: ManifestSet,
  queue: string | undefined,
): ManifestSet {
  if (queue === undefined) return manifests;
  const objects = manifests.workload.objects.map(o => {
    if (!WORKLOAD_KINDS.has(o.kind)) return o;
    const metadata = o.metadata ?? {};
    return {
      ...o,
      metadata: {
        ...metadata,
        labels: { ...(metadata.labels ?? {}), [QUEUE_NAME_LABEL]: queue },
      },
    };
  });
  return { ...manifests, workload: { ...manifests.workload, objects } };
}

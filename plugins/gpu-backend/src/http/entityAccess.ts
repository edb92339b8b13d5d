/**
 * Maps workloads to catalog entities through `backstage.io/kubernetes-id`,
 * asking the catalog on behalf of the caller: an entity the caller may not
 * read is never returned, so its allocations are never shown.
 */
import type { BackstageCredentials } from '@backstage/backend-plugin-api';
import { stringifyEntityRef, type Entity } from '@backstage/catalog-model';
import type { CatalogService } from '@backstage/plugin-catalog-node';
import { compareText } from '../compareText';

export const KUBERNETES_ID_ANNOTATION = 'backstage.io/kubernetes-id';
export const KUBERNETES_NAMESPACE_ANNOTATION =
  'backstage.io/kubernetes-namespace';

/** Which workloads an entity stands for. */
export interface WorkloadSelector {
  kubernetesId: string;
  /** When the entity pins a namespace, only workloads there match. */
  namespace?: string;
}

/**
 * The entity's workloads: its `backstage.io/kubernetes-id` annotation, or its
 * name when it has none (the Kubernetes plugin's convention), optionally
 * narrowed by `backstage.io/kubernetes-namespace`.
 */
export function workloadSelector(entity: Entity): WorkloadSelector {
  const annotations = entity.metadata.annotations ?? {};
  const selector: WorkloadSelector = {
    kubernetesId: annotations[KUBERNETES_ID_ANNOTATION] ?? entity.metadata.name,
  };
  const namespace = annotations[KUBERNETES_NAMESPACE_ANNOTATION];
  if (namespace) selector.namespace = namespace;
  return selector;
}

export function selects(
  selector: WorkloadSelector,
  workload: { kubernetesId?: string; namespace: string },
): boolean {
  return (
    workload.kubernetesId === selector.kubernetesId &&
    (selector.namespace === undefined ||
      selector.namespace === workload.namespace)
  );
}

const CHUNK = 100;

/**
 * Entities the caller may read that carry one of these kubernetes ids, keyed
 * by id (sorted by entity ref, so the choice among several is stable).
 */
export async function readableEntitiesByKubernetesId(
  catalog: CatalogService,
  kubernetesIds: string[],
  credentials: BackstageCredentials,
): Promise<Map<string, { ref: string; selector: WorkloadSelector }[]>> {
  const ids = [...new Set(kubernetesIds)].sort();
  const out = new Map<string, { ref: string; selector: WorkloadSelector }[]>();
  for (let i = 0; i < ids.length; i += CHUNK) {
    const { items } = await catalog.getEntities(
      {
        filter: {
          [`metadata.annotations.${KUBERNETES_ID_ANNOTATION}`]: ids.slice(
            i,
            i + CHUNK,
          ),
        },
        fields: [
          'kind',
          'metadata.name',
          'metadata.namespace',
          'metadata.annotations',
        ],
      },
      { credentials },
    );
    for (const entity of items) {
      const selector = workloadSelector(entity);
      const list = out.get(selector.kubernetesId) ?? [];
      list.push({ ref: stringifyEntityRef(entity), selector });
      out.set(selector.kubernetesId, list);
    }
  }
  for (const list of out.values()) {
    list.sort((a, b) => compareText(a.ref, b.ref));
  }
  return out;
}

/**
 * Maps workloads to catalog entities through `backstage.io/kubernetes-id`,
 * asking the catalog on behalf of the caller: an entity the caller may not
 * read is never returned, so its allocations are never shown.
 */
import type { BackstageCredentials } from '@backstage/backend-plugin-api';
import { stringifyEntityRef, type Entity } from '@backstage/catalog-model';
import type { CatalogService } from '@backstage/plugin-catalog-node';
import {
  compareStrings,
  entityWorkload,
  WELL_KNOWN_KEYS,
  type EntityWorkload,
} from '@gpu-gitops/plugin-gpu-common';

/** Which workloads an entity stands for (gpu-common `entityWorkload`). */
export type WorkloadSelector = EntityWorkload;

/** The entity's workloads, by the rule the frontend applies too. */
export function workloadSelector(entity: Entity): WorkloadSelector {
  return entityWorkload(entity);
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
          [`metadata.annotations.${WELL_KNOWN_KEYS.backstageKubernetesId}`]:
            ids.slice(i, i + CHUNK),
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
    list.sort((a, b) => compareStrings(a.ref, b.ref));
  }
  return out;
}

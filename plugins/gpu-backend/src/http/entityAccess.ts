/**
 * Maps workloads to catalog entities through `backstage.io/kubernetes-id`,
 * asking the catalog on behalf of the caller: an entity the caller may not
 * read is never returned, so its allocations are never shown.
 */
import type { BackstageCredentials } from '@backstage/backend-plugin-api';
import { InputError, NotFoundError } from '@backstage/errors';
import {
  parseEntityRef,
  stringifyEntityRef,
  type Entity,
} from '@backstage/catalog-model';
import type { CatalogService } from '@backstage/plugin-catalog-node';
import { runBounded } from '@gpu-gitops/plugin-gpu-node';
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

/** Ids per catalog lookup: each is a filter value in the lookup's query string. */
const CHUNK = 100;
/**
 * Catalog lookups in flight at once: the GPU page of 100k workloads asks
 * the catalog 1,000 times, each a round trip that one after another would
 * add up to seconds.
 */
const LOOKUPS_IN_FLIGHT = 4;

/** A readable entity of a workload, and its owner (a full ref) when it names one. */
export interface ReadableWorkloadEntity {
  ref: string;
  selector: WorkloadSelector;
  owner?: string;
}

/**
 * The entity's `spec.owner` as a full ref, relative to the entity's
 * namespace as the catalog resolves it (kind `group` when left out).
 */
function ownerRefOf(entity: Entity): string | undefined {
  const owner = entity.spec?.owner;
  if (typeof owner !== 'string' || owner === '') return undefined;
  try {
    return stringifyEntityRef(
      parseEntityRef(owner, {
        defaultKind: 'group',
        defaultNamespace: entity.metadata.namespace ?? 'default',
      }),
    );
  } catch {
    return undefined;
  }
}

/** One catalog lookup: the entities the caller may read that carry one of `ids`. */
async function entitiesWithIds(
  catalog: CatalogService,
  ids: string[],
  credentials: BackstageCredentials,
): Promise<Entity[]> {
  const { items } = await catalog.getEntities(
    {
      filter: {
        [`metadata.annotations.${WELL_KNOWN_KEYS.backstageKubernetesId}`]: ids,
      },
      fields: [
        'kind',
        'metadata.name',
        'metadata.namespace',
        'metadata.annotations',
        'spec.owner',
      ],
    },
    { credentials },
  );
  return items;
}

/**
 * Entities the caller may read that carry one of these kubernetes ids, keyed
 * by id (sorted by entity ref, so the choice among several is stable).
 */
export async function readableEntitiesByKubernetesId(
  catalog: CatalogService,
  kubernetesIds: Iterable<string>,
  credentials: BackstageCredentials,
): Promise<Map<string, ReadableWorkloadEntity[]>> {
  const ids = [
    ...(kubernetesIds instanceof Set ? kubernetesIds : new Set(kubernetesIds)),
  ];
  const chunks: string[][] = [];
  for (let i = 0; i < ids.length; i += CHUNK) {
    chunks.push(ids.slice(i, i + CHUNK));
  }
  const answers = await runBounded(
    chunks.map(chunk => () => entitiesWithIds(catalog, chunk, credentials)),
    LOOKUPS_IN_FLIGHT,
  );
  const out = new Map<string, ReadableWorkloadEntity[]>();
  for (const items of answers) {
    for (const entity of items) {
      const selector = workloadSelector(entity);
      const list = out.get(selector.kubernetesId) ?? [];
      const owner = ownerRefOf(entity);
      list.push({
        ref: stringifyEntityRef(entity),
        selector,
        ...(owner ? { owner } : {}),
      });
      out.set(selector.kubernetesId, list);
    }
  }
  for (const list of out.values()) {
    list.sort((a, b) => compareStrings(a.ref, b.ref));
  }
  return out;
}

/**
 * The entity a request's `entityRef` query names (kind `component` and
 * namespace `default` when left out), as the caller may read it: a
 * malformed ref is a 400, an entity the caller cannot read a 404.
 */
export async function readableEntityOfQuery(
  raw: unknown,
  catalog: CatalogService,
  credentials: BackstageCredentials,
): Promise<{ entityRef: string; entity: Entity }> {
  if (typeof raw !== 'string' || raw === '') {
    throw new InputError('query parameter entityRef must be an entity ref');
  }
  let entityRef: string;
  try {
    entityRef = stringifyEntityRef(
      parseEntityRef(raw, {
        defaultKind: 'component',
        defaultNamespace: 'default',
      }),
    );
  } catch (error) {
    throw new InputError(`entityRef: ${(error as Error).message}`);
  }
  // The caller's own view of the catalog: not readable = not found.
  const entity = await catalog.getEntityByRef(entityRef, { credentials });
  if (!entity) throw new NotFoundError(`entity ${entityRef} not found`);
  return { entityRef, entity };
}

import { WELL_KNOWN_KEYS } from '../manifests/metadataKeys';

/**
 *  What an entity stands for in the repository's workloads.
 *
 * @public
 */
export interface EntityWorkload {
  /** The workloads' `backstage.io/kubernetes-id` label value. */
  kubernetesId: string;
  /** When the entity pins a namespace, only workloads there are its own. */
  namespace?: string;
}

/**
 *  The part of a catalog entity the rule reads (any Backstage `Entity` fits).
 *
 * @public
 */
export interface EntityMetadataView {
  metadata: { name: string; annotations?: Record<string, string> };
}

/**
 * The workloads an entity stands for, by the Kubernetes plugin's convention
 * (Backstage docs, "Kubernetes: Configuring component annotations"): its
 * `backstage.io/kubernetes-id` annotation, or its name when it has none,
 * narrowed by `backstage.io/kubernetes-namespace` when set. The card, the
 * tab, the Request GPUs button and the backend's access filter all use it.
 *
 * @public
 */
export function entityWorkload(entity: EntityMetadataView): EntityWorkload {
  const annotations = entity.metadata.annotations ?? {};
  const namespace = annotations[WELL_KNOWN_KEYS.backstageKubernetesNamespace];
  return {
    kubernetesId:
      annotations[WELL_KNOWN_KEYS.backstageKubernetesId] ??
      entity.metadata.name,
    ...(namespace ? { namespace } : {}),
  };
}

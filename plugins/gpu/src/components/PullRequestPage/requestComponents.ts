import type { Entity } from '@backstage/catalog-model';
import { useApiHolder } from '@backstage/core-plugin-api';
import { catalogApiRef } from '@backstage/plugin-catalog-react';
import { entityWorkload, WELL_KNOWN_KEYS } from '@gpu-gitops/plugin-gpu-common';
import useAsync from 'react-use/esm/useAsync';

/**
 * The catalog components a request stands for, by the rule the card and
 * the backend read an entity's workloads with (gpu-common entityWorkload):
 * its `backstage.io/kubernetes-id` (or name) and, when the entity pins one,
 * its namespace. Empty without a request, or an app without a catalog.
 */
export function useRequestComponents(request?: {
  namespace: string;
  name: string;
}): Entity[] {
  const catalogApi = useApiHolder().get(catalogApiRef);
  const { value } = useAsync(async () => {
    if (!request || !catalogApi) return [];
    const { items } = await catalogApi.getEntities({
      filter: [
        {
          kind: 'component',
          [`metadata.annotations.${WELL_KNOWN_KEYS.backstageKubernetesId}`]:
            request.name,
        },
        { kind: 'component', 'metadata.name': request.name },
      ],
    });
    return items.filter(entity => {
      const workload = entityWorkload(entity);
      return (
        workload.kubernetesId === request.name &&
        (workload.namespace === undefined ||
          workload.namespace === request.namespace)
      );
    });
  }, [catalogApi, request?.namespace, request?.name]);
  return value ?? [];
}

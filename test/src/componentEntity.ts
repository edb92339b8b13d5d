import type { Entity } from '@backstage/catalog-model';

/**
 * A catalog component of team ml-platform whose `backstage.io/kubernetes-id`
 * is its name: how the cross-package tests stand for a GPU workload's owner
 * component in a mocked catalog.
 */
export function componentEntity(name: string): Entity {
  return {
    apiVersion: 'backstage.io/v1alpha1',
    kind: 'Component',
    metadata: {
      name,
      namespace: 'default',
      annotations: { 'backstage.io/kubernetes-id': name },
    },
    spec: { type: 'service', lifecycle: 'production', owner: 'ml-platform' },
  };
}

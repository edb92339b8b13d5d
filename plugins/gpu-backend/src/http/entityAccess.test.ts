import type { Entity } from '@backstage/catalog-model';
import type { CatalogService } from '@backstage/plugin-catalog-node';
import { mockCredentials } from '@backstage/backend-test-utils';
import { readableEntitiesByKubernetesId } from './entityAccess';

const ANNOTATION = 'backstage.io/kubernetes-id';

/**
 * A catalog that answers `getEntities` by the kubernetes-id filter after a
 * moment (a round trip), holds two components per id and hides the ids a
 * caller may not read; it counts its lookups and how many were in flight.
 */
function slowCatalog() {
  const seen = { lookups: 0, inFlight: 0, maxInFlight: 0 };
  const component = (name: string, id: string): Entity => ({
    apiVersion: 'backstage.io/v1alpha1',
    kind: 'Component',
    metadata: { name, namespace: 'default', annotations: { [ANNOTATION]: id } },
    spec: { owner: 'ml-platform' },
  });
  const catalog = {
    async getEntities(request: { filter: Record<string, string[]> }) {
      seen.lookups++;
      seen.inFlight++;
      seen.maxInFlight = Math.max(seen.maxInFlight, seen.inFlight);
      await new Promise(resolve => setTimeout(resolve, 5));
      seen.inFlight--;
      const ids = request.filter[`metadata.annotations.${ANNOTATION}`];
      return {
        items: ids
          .filter(id => !id.startsWith('secret-'))
          .flatMap(id => [component(`${id}-b`, id), component(`${id}-a`, id)]),
      };
    },
  } as unknown as CatalogService;
  return { catalog, seen };
}

describe('readableEntitiesByKubernetesId', () => {
  it('asks the catalog in chunks, a few at once, and keys what the caller may read by id', async () => {
    const { catalog, seen } = slowCatalog();
    const ids = Array.from({ length: 1050 }, (_, i) =>
      i % 10 === 0 ? `secret-${i}` : `app-${i}`,
    );
    const found = await readableEntitiesByKubernetesId(
      catalog,
      [...ids, ...ids.slice(0, 50)],
      mockCredentials.user(),
    );
    expect(seen.lookups).toBe(11);
    expect(seen.maxInFlight).toBeGreaterThan(1);
    expect(seen.maxInFlight).toBeLessThanOrEqual(4);
    expect(found.size).toBe(945);
    expect(found.has('secret-0')).toBe(false);
    expect(found.get('app-1')).toEqual([
      {
        ref: 'component:default/app-1-a',
        selector: { kubernetesId: 'app-1' },
        owner: 'group:default/ml-platform',
      },
      {
        ref: 'component:default/app-1-b',
        selector: { kubernetesId: 'app-1' },
        owner: 'group:default/ml-platform',
      },
    ]);
  });

  it('fails when a lookup fails, and starts none after it', async () => {
    let lookups = 0;
    const catalog = {
      async getEntities() {
        lookups++;
        throw new Error('catalog unavailable');
      },
    } as unknown as CatalogService;
    const ids = Array.from({ length: 2000 }, (_, i) => `app-${i}`);
    await expect(
      readableEntitiesByKubernetesId(catalog, ids, mockCredentials.user()),
    ).rejects.toThrow('catalog unavailable');
    expect(lookups).toBeLessThanOrEqual(4);
  });
});

/**
 * Test helper: an in-memory catalog (catalogServiceMock) that, like the real
 * catalog with permissions, hides some entities from some users.
 */
import type { BackstageCredentials } from '@backstage/backend-plugin-api';
import { stringifyEntityRef, type Entity } from '@backstage/catalog-model';
import type {
  CatalogService,
  CatalogServiceRequestOptions,
} from '@backstage/plugin-catalog-node';
import { catalogServiceMock } from '@backstage/plugin-catalog-node/testUtils';

function userOf(credentials: BackstageCredentials): string | undefined {
  const principal = credentials.principal as { userEntityRef?: string };
  return principal.userEntityRef;
}

export function permissionedCatalog(
  entities: Entity[],
  /** user entity ref -> entity refs that user may NOT read */
  hidden: Record<string, string[]>,
): CatalogService {
  const inner = catalogServiceMock({ entities });
  const canRead = (
    entity: Entity | undefined,
    options: CatalogServiceRequestOptions,
  ) =>
    !!entity &&
    !(hidden[userOf(options.credentials) ?? ''] ?? []).includes(
      stringifyEntityRef(entity),
    );
  return {
    async getEntityByRef(ref, options) {
      const entity = await inner.getEntityByRef(ref, options);
      return canRead(entity, options) ? entity : undefined;
    },
    async getEntities(request, options) {
      const { items } = await inner.getEntities(request, options);
      return { items: items.filter(e => canRead(e, options)) };
    },
  } as CatalogService;
}

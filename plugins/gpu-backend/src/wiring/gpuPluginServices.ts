import type {
  AuthService,
  DatabaseService,
  HttpAuthService,
  HttpRouterService,
  LoggerService,
  PermissionsRegistryService,
  PermissionsService,
  RootConfigService,
  SchedulerService,
} from '@backstage/backend-plugin-api';
import type { ActionsRegistryService } from '@backstage/backend-plugin-api/alpha';
import type { CatalogService } from '@backstage/plugin-catalog-node';
import type { ScaffolderService } from '@backstage/plugin-scaffolder-node';

/** The Backstage services the `gpu` backend plugin is started with (plugin.ts's deps). */
export interface GpuPluginServices {
  config: RootConfigService;
  logger: LoggerService;
  auth: AuthService;
  httpAuth: HttpAuthService;
  httpRouter: HttpRouterService;
  scheduler: SchedulerService;
  database: DatabaseService;
  catalog: CatalogService;
  permissions: PermissionsService;
  permissionsRegistry: PermissionsRegistryService;
  actionsRegistry: ActionsRegistryService;
  scaffolder: ScaffolderService;
}

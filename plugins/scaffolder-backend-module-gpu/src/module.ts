import {
  coreServices,
  createBackendModule,
} from '@backstage/backend-plugin-api';
import { scaffolderActionsExtensionPoint } from '@backstage/plugin-scaffolder-node';
import { createGpuGitopsBootstrapAction } from './actions/gpuGitopsBootstrap';
import { createGpuGitopsPullRequestAction } from './actions/gpuGitopsPullRequest';
import { createGpuGitopsImportAction } from './actions/gpuGitopsImport';
import { createGpuGitopsReleaseAction } from './actions/gpuGitopsRelease';
import { createGpuGitopsRenderAction } from './actions/gpuGitopsRender';
import { createGpuPlanAction } from './actions/gpuPlan';
import { createGpuActionServices } from './services/gpuActionServices';

/**
 * The scaffolder module that adds the GPU actions. Integrations, catalog,
 * cluster profiles and policy are read from config once, here, and shared by
 * every action (a config error stops start-up instead of failing tasks).
 *
 * @public
 */
export const scaffolderModuleGpu = createBackendModule({
  pluginId: 'scaffolder',
  moduleId: 'gpu',
  register({ registerInit }) {
    registerInit({
      deps: {
        scaffolder: scaffolderActionsExtensionPoint,
        config: coreServices.rootConfig,
        logger: coreServices.logger,
      },
      async init({ scaffolder, config, logger }) {
        const services = createGpuActionServices(config);
        scaffolder.addActions(
          createGpuPlanAction(services),
          createGpuGitopsRenderAction(services),
          createGpuGitopsPullRequestAction(services),
          createGpuGitopsBootstrapAction(services),
          createGpuGitopsReleaseAction(services),
          createGpuGitopsImportAction(services),
        );
        logger.info(
          `GPU actions ready: clusters ${services.clusters.names.join(', ')} (default ${services.clusters.defaultName}), GitOps repository ${services.gitops ? `${services.gitops.forge} ${services.gitops.baseBranch}` : 'not configured'}`,
        );
      },
    });
  },
});

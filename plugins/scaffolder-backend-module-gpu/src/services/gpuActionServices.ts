import type { Config } from '@backstage/config';
import {
  DefaultGithubCredentialsProvider,
  ScmIntegrations,
  type GithubCredentialsProvider,
  type ScmIntegrationRegistry,
} from '@backstage/integration';
import type { GpuCatalog } from '@gpu-gitops/plugin-gpu-common';
import { readGpuPolicy, type GpuPolicy } from '@gpu-gitops/plugin-gpu-node';
import { readClusterProfiles, type ClusterProfiles } from './clusterProfiles';
import { readGpuCatalog } from './gpuCatalog';
import { readGitOpsSettings, type GitOpsSettings } from './gitopsSettings';

/**
 * Everything the GPU actions share, built ONCE when the module starts (as
 * upstream modules build ScmIntegrations once): config errors surface at
 * start-up, and tasks do no config parsing.
 *
 * @public
 */
export interface GpuActionServices {
  integrations: ScmIntegrationRegistry;
  githubCredentialsProvider: GithubCredentialsProvider;
  catalog: GpuCatalog;
  clusters: ClusterProfiles;
  policy: GpuPolicy;
  /** Undefined when `gpu.gitops` is not configured (then every action needs a repoUrl input). */
  gitops?: GitOpsSettings;
  /** `app.baseUrl`: the local forge's pull requests are reviewed on the app's page. */
  appBaseUrl?: string;
}

/** @public */
export function createGpuActionServices(config: Config): GpuActionServices {
  const integrations = ScmIntegrations.fromConfig(config);
  const gpu = config.getOptionalConfig('gpu');
  return {
    integrations,
    githubCredentialsProvider:
      DefaultGithubCredentialsProvider.fromIntegrations(integrations),
    catalog: readGpuCatalog(gpu?.getOptionalConfig('catalog')),
    clusters: readClusterProfiles(gpu?.getOptionalConfig('clusters')),
    policy: readGpuPolicy(gpu?.getOptionalConfig('policy')),
    gitops: readGitOpsSettings(gpu?.getOptionalConfig('gitops')),
    appBaseUrl: config.getOptionalString('app.baseUrl'),
  };
}

import type { Config } from '@backstage/config';
import {
  DefaultGithubCredentialsProvider,
  ScmIntegrations,
  type GithubCredentialsProvider,
  type ScmIntegrationRegistry,
} from '@backstage/integration';
import type { GpuCatalog } from '@gpu-gitops/plugin-gpu-common';
import {
  readGpuConfig,
  type GitOpsConfig,
  type GpuPolicy,
} from '@gpu-gitops/plugin-gpu-node';
import { clusterProfilesLookup, type ClusterProfiles } from './clusterProfiles';

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
  gitops?: GitOpsConfig;
  /** `app.baseUrl`: the local forge's pull requests are reviewed on the app's page. */
  appBaseUrl?: string;
}

/** @public */
export function createGpuActionServices(config: Config): GpuActionServices {
  const integrations = ScmIntegrations.fromConfig(config);
  // The same reader as the gpu backend's: one set of keys, one set of defaults.
  const gpu = readGpuConfig(config);
  return {
    integrations,
    githubCredentialsProvider:
      DefaultGithubCredentialsProvider.fromIntegrations(integrations),
    catalog: gpu.catalog,
    clusters: clusterProfilesLookup(gpu.clusters),
    policy: gpu.policy,
    gitops: gpu.gitops,
    appBaseUrl: config.getOptionalString('app.baseUrl'),
  };
}

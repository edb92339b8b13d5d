import type { Config } from '@backstage/config';
import type { GpuCatalog } from '@gpu-gitops/plugin-gpu-common';
import type { GpuPolicy } from '../policy/gpuPolicy';
import {
  readClusterProfiles,
  type ClusterProfilesConfig,
} from './readClusterProfiles';
import { readGitOpsConfig, type GitOpsConfig } from './readGitOpsConfig';
import { readGpuCatalog } from './readGpuCatalog';
import { readGpuPolicy } from './readGpuPolicy';

/**
 * The `gpu.*` keys both backends read (schema: this package's config.d.ts),
 * so the scaffolder actions and the gpu backend see one repository with the
 * same credentials, one set of cluster profiles, one catalog and one policy.
 *
 * @public
 */
export interface GpuConfig {
  /** Undefined when `gpu.gitops` is not configured. */
  gitops?: GitOpsConfig;
  clusters: ClusterProfilesConfig;
  catalog: GpuCatalog;
  policy: GpuPolicy;
}

/**
 *  Reads the shared `gpu.*` keys from the root config; bad values fail start-up naming the key.
 *
 * @public
 */
export function readGpuConfig(rootConfig: Config): GpuConfig {
  const gpu = rootConfig.getOptionalConfig('gpu');
  return {
    gitops: readGitOpsConfig(gpu?.getOptionalConfig('gitops')),
    clusters: readClusterProfiles(gpu?.getOptionalConfig('clusters')),
    catalog: readGpuCatalog(gpu?.getOptionalConfig('catalog')),
    policy: readGpuPolicy(gpu?.getOptionalConfig('policy')),
  };
}

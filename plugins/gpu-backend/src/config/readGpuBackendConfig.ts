import path from 'node:path';
import type { Config } from '@backstage/config';
import { readDurationFromConfig } from '@backstage/config';
import type { ClusterProfile, GpuCatalog } from '@gpu-gitops/plugin-gpu-common';
import {
  readGpuConfig,
  type GitOpsConfig,
  type GpuPolicy,
} from '@gpu-gitops/plugin-gpu-node';

/**
 *  A duration as Backstage config and the scheduler take it (`{ seconds: 60 }`).
 *
 * @public
 */
export type HumanDuration = ReturnType<typeof readDurationFromConfig>;

/**
 *  What the gpu backend reads from `gpu.*` at start-up.
 *
 * @public
 */
export interface GpuBackendConfig {
  /**
   * Undefined when `gpu.gitops` is not configured: the index stays empty.
   * `cacheDirs.index` is `gpu.index.cacheDir` when that is set.
   */
  gitops?: GitOpsConfig;
  /** Sorted by name. */
  clusters: ClusterProfile[];
  defaultCluster: string;
  catalog: GpuCatalog;
  /** `gpu.policy`, read as the scaffolder module reads it: POST /plan checks it as the actions do. */
  policy: GpuPolicy;
  /** `gpu.index.refresh`: how often the index fetches (and the updater looks at open pull requests). */
  refresh: HumanDuration;
}

export const DEFAULT_REFRESH: HumanDuration = { seconds: 60 };

/**
 * Reads the shared `gpu.gitops`, `gpu.clusters`, `gpu.catalog` and
 * `gpu.policy` keys with the scaffolder module's reader (gpu-node
 * `readGpuConfig`), plus this plugin's own `gpu.index`. Bad values fail
 * start-up.
 *
 * @public
 */
export function readGpuBackendConfig(rootConfig: Config): GpuBackendConfig {
  const shared = readGpuConfig(rootConfig);
  const indexConfig = rootConfig.getOptionalConfig('gpu.index');
  const indexCacheDir = indexConfig?.getOptionalString('cacheDir');
  const gitops = shared.gitops && {
    ...shared.gitops,
    cacheDirs: {
      ...shared.gitops.cacheDirs,
      index: indexCacheDir
        ? path.resolve(indexCacheDir)
        : shared.gitops.cacheDirs.index,
    },
  };
  const refresh = indexConfig?.has('refresh')
    ? readDurationFromConfig(indexConfig, { key: 'refresh' })
    : DEFAULT_REFRESH;
  return {
    gitops,
    clusters: shared.clusters.profiles,
    defaultCluster: shared.clusters.defaultCluster,
    catalog: shared.catalog,
    policy: shared.policy,
    refresh,
  };
}

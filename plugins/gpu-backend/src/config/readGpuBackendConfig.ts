import os from 'node:os';
import path from 'node:path';
import type { Config } from '@backstage/config';
import { readDurationFromConfig } from '@backstage/config';
import {
  compareStrings,
  builtinCatalog,
  catalogOverrideSchema,
  checkGitOpsRepoUrl,
  gitOpsTimeoutMs,
  defaultClusterProfile,
  mergeCatalog,
  resolveClusterProfile,
  type ClusterProfile,
  type GpuCatalog,
} from '@gpu-gitops/plugin-gpu-common';
import {
  FORGE_KINDS,
  readGpuPolicy,
  type ForgeKind,
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
  /** Undefined when `gpu.gitops` is not configured: the index stays empty. */
  gitops?: {
    repoUrl: string;
    baseBranch: string;
    /** `gpu.gitops.forge` (default local): picks the git user paired with an integration token. */
    forge: ForgeKind;
    /** The index's own clone cache (never the publisher's). */
    cacheDir: string;
    /** `gpu.gitops.timeoutSeconds`: the limit of each fetch (default 60 s). */
    timeoutMs?: number;
    /**
     * `gpu.gitops.updatePullRequests` (default true): re-render the open GPU
     * pull requests on their base whenever it moves.
     */
    updatePullRequests: boolean;
  };
  clusters: ClusterProfile[];
  defaultCluster: string;
  catalog: GpuCatalog;
  /** `gpu.policy`, read as the scaffolder module reads it: POST /plan checks it as the actions do. */
  policy: GpuPolicy;
  refresh: HumanDuration;
}

export const DEFAULT_REFRESH: HumanDuration = { seconds: 60 };

/** Local repositories may be configured relative to the working directory; git needs them absolute. */
function resolveRepoUrl(repoUrl: string): string {
  if (/^[a-z][a-z0-9+.-]*:\/\//i.test(repoUrl)) return repoUrl;
  return path.resolve(repoUrl);
}

/**
 * Reads the same `gpu.gitops`, `gpu.clusters`, `gpu.catalog` and `gpu.policy`
 * keys the scaffolder module reads (so both see one repository with the same
 * credentials, one set of cluster profiles, one catalog and one policy), plus
 * `gpu.index`. Bad values fail start-up.
 *
 * @public
 */
export function readGpuBackendConfig(rootConfig: Config): GpuBackendConfig {
  const gpu = rootConfig.getOptionalConfig('gpu');
  const gitopsConfig = gpu?.getOptionalConfig('gitops');
  const indexConfig = gpu?.getOptionalConfig('index');

  let gitops: GpuBackendConfig['gitops'];
  if (gitopsConfig) {
    const repoUrl = gitopsConfig.getString('repoUrl');
    // Fails start-up; the message shows the URL redacted.
    checkGitOpsRepoUrl(repoUrl, 'gpu.gitops.repoUrl', {
      tokenHint: 'configure the token under integrations',
    });
    const forge = (gitopsConfig.getOptionalString('forge') ??
      'local') as ForgeKind;
    if (!FORGE_KINDS.includes(forge)) {
      throw new Error(
        `gpu.gitops.forge must be one of ${FORGE_KINDS.join(', ')}, got "${forge}"`,
      );
    }
    const indexCacheDir = indexConfig?.getOptionalString('cacheDir');
    const sharedCacheDir = gitopsConfig.getOptionalString('cacheDir');
    gitops = {
      repoUrl: resolveRepoUrl(repoUrl),
      baseBranch: gitopsConfig.getOptionalString('baseBranch') ?? 'main',
      forge,
      cacheDir: path.resolve(
        indexCacheDir ??
          path.join(
            sharedCacheDir ?? path.join(os.tmpdir(), 'gpu-gitops'),
            'index',
          ),
      ),
      timeoutMs: gitOpsTimeoutMs(
        gitopsConfig.getOptionalNumber('timeoutSeconds'),
        'gpu.gitops.timeoutSeconds',
      ),
      updatePullRequests:
        gitopsConfig.getOptionalBoolean('updatePullRequests') ?? true,
    };
  }

  const clustersConfig = gpu?.getOptionalConfig('clusters');
  const profilesConfig = clustersConfig?.getOptionalConfig('profiles');
  const clusters: ClusterProfile[] = [];
  for (const name of profilesConfig?.keys() ?? []) {
    const override = profilesConfig!.getConfig(name).get<object>();
    clusters.push(resolveClusterProfile({ ...override, name }));
  }
  if (clusters.length === 0) clusters.push(resolveClusterProfile());
  clusters.sort((a, b) => compareStrings(a.name, b.name));
  const defaultCluster =
    clustersConfig?.getOptionalString('default') ??
    (clusters.length === 1 ? clusters[0].name : defaultClusterProfile.name);
  if (!clusters.some(c => c.name === defaultCluster)) {
    throw new Error(
      `gpu.clusters.default names "${defaultCluster}", but gpu.clusters.profiles has only: ${clusters
        .map(c => c.name)
        .join(', ')}`,
    );
  }

  let catalog = builtinCatalog;
  const catalogConfig = gpu?.getOptionalConfig('catalog');
  if (catalogConfig) {
    const parsed = catalogOverrideSchema.safeParse(catalogConfig.get());
    if (!parsed.success) {
      throw new Error(
        `gpu.catalog is invalid: ${parsed.error.issues
          .map(i => `${i.path.join('.')}: ${i.message}`)
          .join('; ')}`,
      );
    }
    catalog = mergeCatalog(builtinCatalog, parsed.data);
  }

  const refresh = indexConfig?.has('refresh')
    ? readDurationFromConfig(indexConfig, { key: 'refresh' })
    : DEFAULT_REFRESH;

  const policy = readGpuPolicy(gpu?.getOptionalConfig('policy'));

  return { gitops, clusters, defaultCluster, catalog, policy, refresh };
}

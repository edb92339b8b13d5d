import path from 'node:path';
import type { Config } from '@backstage/config';
import {
  checkGitOpsRepoUrl,
  gitOpsTimeoutMs,
} from '@gpu-gitops/plugin-gpu-common';
import type { GitAuthor } from '../git/GitOpsRepository';
import { FORGE_KINDS } from '../forges/createForge';
import type { ForgeKind } from '../forges/types';
import { gitOpsCacheDirs, type GitOpsCacheDirs } from './cacheDirs';

/**
 *  `gpu.gitops`, as both backends read it.
 *
 * @public
 */
export interface GitOpsConfig {
  /** Absolute for a local repository (see {@link resolveLocalRepoPath}). */
  repoUrl: string;
  /** `gpu.gitops.baseBranch`, default `main`. */
  baseBranch: string;
  /** `gpu.gitops.forge`, default `local`: where pull requests live, and the git user paired with an integration token. */
  forge: ForgeKind;
  /** `gpu.gitops.author`, default {@link DEFAULT_AUTHOR}: who commits and merges. */
  author: GitAuthor;
  /** The cache folder of each clone user, under `gpu.gitops.cacheDir`. */
  cacheDirs: GitOpsCacheDirs;
  /** `gpu.gitops.timeoutSeconds`: the limit of each git command and forge request; undefined = the default 60 s. */
  timeoutMs?: number;
  /** `gpu.gitops.updatePullRequests`, default true: re-render open GPU pull requests when their base moves. */
  updatePullRequests: boolean;
}

/** @public */
export const DEFAULT_AUTHOR: GitAuthor = {
  name: 'Backstage GPU',
  email: 'gpu-bot@backstage.local',
};

/**
 * A local bare repository may be configured relative to the backend's working
 * directory; git needs it absolute (it runs in the clone cache).
 *
 * @public
 */
export function resolveLocalRepoPath(repoUrl: string): string {
  if (/^[a-z][a-z0-9+.-]*:\/\//i.test(repoUrl)) return repoUrl;
  return path.resolve(repoUrl);
}

/**
 * Reads `gpu.gitops` (pass that sub-config, or undefined when it is not
 * configured). Bad values fail start-up with an error naming the key; a
 * `repoUrl` with credentials is shown redacted.
 */
export function readGitOpsConfig(
  config: Config | undefined,
): GitOpsConfig | undefined {
  if (!config) return undefined;
  const forge = (config.getOptionalString('forge') ?? 'local') as ForgeKind;
  if (!FORGE_KINDS.includes(forge)) {
    throw new Error(
      `gpu.gitops.forge must be one of ${FORGE_KINDS.join(', ')}, got "${forge}"`,
    );
  }
  const repoUrl = config.getString('repoUrl');
  checkGitOpsRepoUrl(repoUrl, 'gpu.gitops.repoUrl', {
    tokenHint: 'configure the token under integrations',
  });
  return {
    repoUrl: resolveLocalRepoPath(repoUrl),
    baseBranch: config.getOptionalString('baseBranch') ?? 'main',
    forge,
    author: {
      name: config.getOptionalString('author.name') ?? DEFAULT_AUTHOR.name,
      email: config.getOptionalString('author.email') ?? DEFAULT_AUTHOR.email,
    },
    cacheDirs: gitOpsCacheDirs(config.getOptionalString('cacheDir')),
    timeoutMs: gitOpsTimeoutMs(
      config.getOptionalNumber('timeoutSeconds'),
      'gpu.gitops.timeoutSeconds',
    ),
    updatePullRequests: config.getOptionalBoolean('updatePullRequests') ?? true,
  };
}

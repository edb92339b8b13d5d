import path from 'node:path';
import type { Config } from '@backstage/config';
import {
  checkGitOpsRepoUrl,
  gitOpsTimeoutMs,
} from '@gpu-gitops/plugin-gpu-common';
import type { ForgeKind } from '@gpu-gitops/plugin-gpu-node';

/** @public */
export interface GitOpsSettings {
  repoUrl: string;
  baseBranch: string;
  forge: ForgeKind;
  author: { name: string; email: string };
  cacheDir?: string;
  /** `gpu.gitops.timeoutSeconds`: the limit of each git command and forge request (default 60 s). */
  timeoutMs?: number;
}

export const DEFAULT_AUTHOR = {
  name: 'Backstage GPU',
  email: 'gpu-bot@backstage.local',
};

const FORGES: ForgeKind[] = ['local', 'github', 'gitlab', 'gitea'];

/**
 * A local bare repository may be configured relative to the backend's working
 * directory; git needs it absolute (it runs in the clone cache).
 */
export function resolveLocalRepoPath(repoUrl: string): string {
  if (/^[a-z][a-z0-9+.-]*:\/\//i.test(repoUrl)) return repoUrl;
  return path.resolve(repoUrl);
}

/** Reads `gpu.gitops` (pass that sub-config, or undefined). */
export function readGitOpsSettings(
  config: Config | undefined,
): GitOpsSettings | undefined {
  if (!config) return undefined;
  const forge = (config.getOptionalString('forge') ?? 'local') as ForgeKind;
  if (!FORGES.includes(forge)) {
    throw new Error(
      `gpu.gitops.forge must be one of ${FORGES.join(', ')}, got "${forge}"`,
    );
  }
  const repoUrl = config.getString('repoUrl');
  // Fails start-up; the message shows the URL redacted.
  checkGitOpsRepoUrl(repoUrl, 'gpu.gitops.repoUrl', {
    tokenHint: 'configure the token under integrations',
  });
  const cacheDir = config.getOptionalString('cacheDir');
  return {
    repoUrl: resolveLocalRepoPath(repoUrl),
    baseBranch: config.getOptionalString('baseBranch') ?? 'main',
    forge,
    author: {
      name: config.getOptionalString('author.name') ?? DEFAULT_AUTHOR.name,
      email: config.getOptionalString('author.email') ?? DEFAULT_AUTHOR.email,
    },
    cacheDir: cacheDir ? path.resolve(cacheDir) : undefined,
    timeoutMs: gitOpsTimeoutMs(
      config.getOptionalNumber('timeoutSeconds'),
      'gpu.gitops.timeoutSeconds',
    ),
  };
}

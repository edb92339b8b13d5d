/**
 * How the backend's own publishers (the expiry releases, the pull-request
 * updater) reach the GitOps repository and its forge: what they hand
 * gpu-node's publishers of `gpu.gitops` and the integration's credentials.
 */
import type { LoggerService } from '@backstage/backend-plugin-api';
import type { ScmIntegrationRegistry } from '@backstage/integration';
import {
  forgeApiBaseUrl,
  type GitOpsConfig,
  type GitOpsTargetOptions,
} from '@gpu-gitops/plugin-gpu-node';
import { integrationCredentials } from '../repoIndex/integrationCredentials';

/** The part of gpu-node's `GitOpsTargetOptions` the backend's publishers share. */
export type GitOpsPublishTarget = Pick<
  GitOpsTargetOptions,
  | 'repoUrl'
  | 'baseBranch'
  | 'forge'
  | 'forgeApiBaseUrl'
  | 'token'
  | 'tokenUsername'
  | 'cacheDir'
  | 'timeoutMs'
  | 'logger'
>;

/**
 * The target of one publisher, on its own clone (`cacheDir`: never the
 * index's, never another publisher's). Called once a run: the credentials
 * are resolved again each time, since a GitHub App installation token
 * expires after an hour. gpu-node's progress lines go to debug, its
 * warnings stay warnings.
 */
export function gitopsPublishTarget(options: {
  gitops: GitOpsConfig;
  integrations: ScmIntegrationRegistry;
  logger: LoggerService;
  cacheDir: string;
}): () => Promise<GitOpsPublishTarget> {
  const { gitops, integrations, logger, cacheDir } = options;
  const credentials = integrationCredentials({
    repoUrl: gitops.repoUrl,
    forge: gitops.forge,
    integrations,
  });
  return async () => {
    const auth = await credentials();
    return {
      repoUrl: gitops.repoUrl,
      baseBranch: gitops.baseBranch,
      forge: gitops.forge,
      forgeApiBaseUrl: forgeApiBaseUrl(
        gitops.repoUrl,
        gitops.forge,
        integrations,
      ),
      token: auth.token,
      tokenUsername: auth.username,
      cacheDir,
      timeoutMs: gitops.timeoutMs,
      logger: {
        info: message => logger.debug(message),
        warn: message => logger.warn(message),
      },
    };
  };
}

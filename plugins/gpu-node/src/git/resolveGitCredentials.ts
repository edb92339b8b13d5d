/**
 * Credentials for the GitOps repository from Backstage's `integrations`
 * config — one rule for every git client of the project (the scaffolder
 * module's publisher and the gpu backend's allocation index), so a repository
 * the publisher can push to is one the index can read.
 */

import {
  DefaultGithubCredentialsProvider,
  type GithubCredentialsProvider,
  type ScmIntegrationRegistry,
} from '@backstage/integration';
import type { ForgeKind } from '../forges/types';

/**
 *  What git and the forge API need to authenticate. Never logged.
 *
 * @public
 */
export interface GitCredentials {
  /** Token (or Gitea password) for HTTPS git and the forge API; undefined = anonymous. */
  token?: string;
  /** Username for HTTP basic auth where the forge wants one (Gitea). */
  username?: string;
  /** Where the token came from, for the task log (never the token itself). */
  source: 'input' | 'integration' | 'github-app' | 'none';
}

/**
 *  `https://host/...` → host; local paths and file:// URLs → undefined.
 *
 * @public
 */
export function remoteHost(repoUrl: string): string | undefined {
  if (!/^[a-z][a-z0-9+.-]*:\/\//i.test(repoUrl)) return undefined;
  const url = new URL(repoUrl);
  return url.protocol === 'file:' ? undefined : url.host;
}

/**
 * Credentials for the GitOps repository, following the Backstage order:
 * a user token given as input wins, then the `integrations` entry for the
 * repository host (GitHub token or GitHub App, GitLab token, Gitea password).
 *
 * @public
 */
export async function resolveGitCredentials(options: {
  repoUrl: string;
  forge: ForgeKind;
  integrations: ScmIntegrationRegistry;
  githubCredentialsProvider?: GithubCredentialsProvider;
  userToken?: string;
}): Promise<GitCredentials> {
  const { repoUrl, forge, integrations, userToken } = options;
  const host = remoteHost(repoUrl);
  if (userToken) {
    const gitea = host ? integrations.gitea.byHost(host) : undefined;
    return {
      token: userToken,
      username: forge === 'gitea' ? gitea?.config.username : undefined,
      source: 'input',
    };
  }
  if (!host) return { source: 'none' };

  const github = integrations.github.byHost(host);
  if (github) {
    if (github.config.token) {
      return { token: github.config.token, source: 'integration' };
    }
    const provider =
      options.githubCredentialsProvider ??
      DefaultGithubCredentialsProvider.fromIntegrations(integrations);
    const { token } = await provider.getCredentials({
      url: repoUrl.replace(/\.git$/, ''),
    });
    return token ? { token, source: 'github-app' } : { source: 'none' };
  }
  const gitlab = integrations.gitlab.byHost(host);
  if (gitlab?.config.token) {
    return { token: gitlab.config.token, source: 'integration' };
  }
  const gitea = integrations.gitea.byHost(host);
  if (gitea?.config.password) {
    return {
      token: gitea.config.password,
      username: gitea.config.username,
      source: 'integration',
    };
  }
  return { source: 'none' };
}

/**
 * The basic-auth user git pairs with the token: the integration's own (Gitea),
 * `oauth2` for GitLab, otherwise git's default `x-access-token` (GitHub).
 *
 * @public
 */
export function gitTokenUsername(
  forge: ForgeKind,
  credentials: GitCredentials,
): string | undefined {
  if (credentials.username) return credentials.username;
  if (forge === 'gitlab') return 'oauth2';
  return undefined;
}

import {
  DefaultGithubCredentialsProvider,
  type ScmIntegrationRegistry,
} from '@backstage/integration';
import {
  gitTokenUsername,
  resolveGitCredentials,
  type ForgeKind,
} from '@gpu-gitops/plugin-gpu-node';
import type { FetchCredentials } from './gitSnapshot';

/**
 * The index reads the GitOps repository with the credentials the scaffolder
 * module pushes with: the `integrations` entry for the repoUrl host (GitHub
 * token or GitHub App, GitLab token, Gitea username/password), paired with
 * the same basic-auth user. Resolved again for every fetch, because a GitHub
 * App installation token expires after an hour (the provider, built once,
 * caches it until shortly before that).
 */
export function integrationCredentials(options: {
  repoUrl: string;
  forge: ForgeKind;
  integrations: ScmIntegrationRegistry;
}): FetchCredentials {
  const { repoUrl, forge, integrations } = options;
  const githubCredentialsProvider =
    DefaultGithubCredentialsProvider.fromIntegrations(integrations);
  return async () => {
    const credentials = await resolveGitCredentials({
      repoUrl,
      forge,
      integrations,
      githubCredentialsProvider,
    });
    return {
      token: credentials.token,
      username: gitTokenUsername(forge, credentials),
    };
  };
}

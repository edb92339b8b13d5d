import type { ScmIntegrationRegistry } from '@backstage/integration';
import type { ForgeKind } from '../forges/types';
import { remoteHost } from './resolveGitCredentials';

/**
 * The forge API root for the repository host, as the Backstage integration
 * declares it (GitHub Enterprise, self-hosted GitLab / Gitea); undefined
 * lets the forge derive it from the repository URL.
 *
 * @public
 */
export function forgeApiBaseUrl(
  repoUrl: string,
  forge: ForgeKind,
  integrations: ScmIntegrationRegistry,
): string | undefined {
  const host = remoteHost(repoUrl);
  if (!host) return undefined;
  switch (forge) {
    case 'github':
      return integrations.github.byHost(host)?.config.apiBaseUrl;
    case 'gitlab':
      return integrations.gitlab.byHost(host)?.config.apiBaseUrl;
    case 'gitea': {
      const baseUrl = integrations.gitea.byHost(host)?.config.baseUrl;
      return baseUrl ? `${baseUrl.replace(/\/+$/, '')}/api/v1` : undefined;
    }
    default:
      return undefined;
  }
}

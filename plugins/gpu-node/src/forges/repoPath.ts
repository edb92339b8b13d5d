/**
 * Splits a forge repository URL (`https://host/group/sub/repo(.git)`) into the
 * host origin and the path segments the APIs need. Credentials in the URL are
 * refused: tokens travel in headers only.
 */
import {
  redactRepoUrl,
  repoUrlCarriesCredentials,
} from '@gpu-gitops/plugin-gpu-common';

export interface ForgeRepoPath {
  /** `https://host[:port]`. */
  origin: string;
  host: string;
  /** Namespace path without the repository, e.g. `group/sub`. */
  owner: string;
  repo: string;
  /** `owner/repo`. */
  fullPath: string;
}

export function parseForgeRepoUrl(repoUrl: string): ForgeRepoPath {
  let url: URL;
  try {
    url = new URL(repoUrl);
  } catch {
    throw new Error(
      `repoUrl must be an http(s) URL like https://host/owner/repo for a forge, got "${redactRepoUrl(repoUrl)}"`,
    );
  }
  if (repoUrlCarriesCredentials(repoUrl)) {
    throw new Error(
      'repoUrl must not contain credentials; pass the token separately (it is sent in a header)',
    );
  }
  const segments = url.pathname
    .replace(/\.git\/?$/, '')
    .split('/')
    .filter(Boolean);
  if (segments.length < 2) {
    throw new Error(
      `repoUrl must name owner and repository (https://host/owner/repo), got "${url.origin}${url.pathname}"`,
    );
  }
  const repo = segments[segments.length - 1];
  const owner = segments.slice(0, -1).join('/');
  return {
    origin: url.origin,
    host: url.host,
    owner,
    repo,
    fullPath: `${owner}/${repo}`,
  };
}

/**
 * The forge repository for a PR: parsed from `repoUrl`, or given explicitly
 * as `owner/repo` (`group/sub/repo` on GitLab) when the git remote is not the
 * forge URL (a mirror, a local path in tests, an SSH remote).
 */
export function resolveForgeRepo(
  repoUrl: string,
  repository?: string,
): ForgeRepoPath {
  if (!repository) return parseForgeRepoUrl(repoUrl);
  const segments = repository.split('/').filter(Boolean);
  if (segments.length < 2 || segments.some(s => !/^[A-Za-z0-9_.-]+$/.test(s))) {
    throw new Error(
      `forge repository must be "owner/repo", got "${repository}"`,
    );
  }
  let origin = '';
  let host = '';
  try {
    const url = new URL(repoUrl);
    if (/^https?:$/.test(url.protocol)) {
      origin = url.origin;
      host = url.host;
    }
  } catch {
    // not a URL (local path): the caller must give apiBaseUrl
  }
  const repo = segments[segments.length - 1];
  const owner = segments.slice(0, -1).join('/');
  return { origin, host, owner, repo, fullPath: `${owner}/${repo}` };
}

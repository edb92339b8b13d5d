/**
 * Splits a forge repository URL (`https://host/group/sub/repo(.git)`) into the
 * host origin and the path segments the APIs need. Credentials in the URL are
 * refused: tokens travel in headers only.
 */
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
      `repoUrl must be an http(s) URL like https://host/owner/repo for a forge, got "${repoUrl.replace(
        /\/\/[^@/]*@/,
        '//***@',
      )}"`,
    );
  }
  if (url.username || url.password) {
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

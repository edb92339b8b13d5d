/**
 * Credentials for git over HTTP(S): an `http.extraHeader` passed through the
 * GIT_CONFIG_COUNT / GIT_CONFIG_KEY_n / GIT_CONFIG_VALUE_n environment, so the
 * token is never in the remote URL (which git stores in .git/config and echoes
 * in errors) nor in process arguments (visible in `ps`).
 */

/** Environment keys simple-git refuses (or that would redirect git); never inherited. */
const UNSAFE_INHERITED_ENV = new Set([
  'editor',
  'visual',
  'pager',
  'prefix',
  'ssh_askpass',
]);

export function isHttpRemote(repoUrl: string): boolean {
  return /^https?:\/\//i.test(repoUrl);
}

/**
 *  True for local paths and file:// URLs, where no credentials are needed.
 *
 * @public
 */
export function isLocalRemote(repoUrl: string): boolean {
  return (
    /^file:\/\//i.test(repoUrl) || !/^[a-z][a-z0-9+.-]*:\/\//i.test(repoUrl)
  );
}

/** @public */
export interface GitAuth {
  token?: string;
  /** Basic-auth user paired with the token: `x-access-token` (GitHub), `oauth2` (GitLab), any for Gitea. */
  username?: string;
}

export function basicAuthHeader(auth: GitAuth): string | undefined {
  if (!auth.token) return undefined;
  const pair = `${auth.username ?? 'x-access-token'}:${auth.token}`;
  return `Authorization: Basic ${Buffer.from(pair, 'utf8').toString('base64')}`;
}

/**
 * The environment every git process of a run gets: the inherited one minus
 * variables that could redirect git (GIT_DIR, editors, pagers, askpass), no
 * terminal prompts (a missing token must fail, not hang), and the auth header
 * for HTTP(S) remotes.
 *
 * @public
 */
export function gitEnvironment(
  repoUrl: string,
  auth: GitAuth,
  extra: Record<string, string> = {},
): Record<string, string> {
  const env: Record<string, string> = {};
  for (const [key, value] of Object.entries(process.env)) {
    const lower = key.toLowerCase();
    if (value === undefined) continue;
    if (lower.startsWith('git_') || UNSAFE_INHERITED_ENV.has(lower)) continue;
    env[key] = value;
  }
  env.GIT_TERMINAL_PROMPT = '0';
  const header = isHttpRemote(repoUrl) ? basicAuthHeader(auth) : undefined;
  if (header) {
    env.GIT_CONFIG_COUNT = '1';
    env.GIT_CONFIG_KEY_0 = 'http.extraHeader';
    env.GIT_CONFIG_VALUE_0 = header;
  }
  return { ...env, ...extra };
}

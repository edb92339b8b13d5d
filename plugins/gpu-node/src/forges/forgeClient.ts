/**
 * What every forge takes (token, repository, API root, retries, redaction,
 * timeout) and the HTTP client it builds from them: the forges differ only in
 * their name, default API root, Authorization scheme and extra headers.
 */
import { checkForgeApiUrl } from '@gpu-gitops/plugin-gpu-common';
import { Redactor } from '../redact';
import { ForgeHttpClient, RetryOptions } from './http';

/** @public */
export interface ForgeOptions {
  token?: string;
  /** `owner/repo` on the forge when the git remote URL does not show it. */
  repository?: string;
  /** API root override (GitHub Enterprise, self-hosted GitLab / Gitea, tests). */
  apiBaseUrl?: string;
  retry?: RetryOptions;
  redactor?: Redactor;
  fetch?: typeof fetch;
  /** Per-request timeout of the forge API (default 60 s). */
  timeoutMs?: number;
}

/** How one forge's API is reached. */
export interface ForgeApi {
  /** For messages, e.g. `GitHub`. */
  forgeName: string;
  /**
   * The API root when `apiBaseUrl` is not given; asked only then, since it is
   * derived from the remote URL, which may be a local path when the root is given.
   */
  defaultApiBaseUrl: () => string;
  /** The Authorization header's value for a token. */
  authorization: (token: string) => string;
  extraHeaders?: Record<string, string>;
}

/** The HTTP client of one forge, from the options every forge takes. */
export function forgeHttpClient(
  options: ForgeOptions,
  api: ForgeApi,
): ForgeHttpClient {
  if (options.apiBaseUrl !== undefined) checkForgeApiUrl(options.apiBaseUrl);
  return new ForgeHttpClient({
    forgeName: api.forgeName,
    apiBaseUrl: options.apiBaseUrl ?? api.defaultApiBaseUrl(),
    token: options.token,
    authorization: api.authorization,
    extraHeaders: api.extraHeaders,
    retry: options.retry,
    redactor: options.redactor,
    fetch: options.fetch,
    timeoutMs: options.timeoutMs,
  });
}

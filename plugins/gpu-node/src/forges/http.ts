/**
 * The one HTTP client every forge uses: JSON in and out through Node's global
 * fetch, the token only in the Authorization header, a timeout per request,
 * bounded retries with an injectable backoff for 5xx and network failures,
 * and errors that say what to fix (a 401/403 means the token is missing or
 * lacks scope) — always redacted.
 */
import { DEFAULT_GITOPS_TIMEOUT_MS } from '@gpu-gitops/plugin-gpu-common';
import { formatSeconds } from '../git/runGit';
import { Redactor } from '../redact';

/** @public */
export interface RetryOptions {
  /** Total attempts for 5xx / network failures (default 3). */
  attempts?: number;
  /** Delay before retry `n` (1-based), in ms (default 250·2^(n-1)). */
  backoffMs?: (retry: number) => number;
  /** Injectable sleep so tests do not wait. */
  sleep?: (ms: number) => Promise<void>;
}

export interface ForgeHttpOptions {
  /** API root, e.g. `https://api.github.com`, `https://gitlab.example.com/api/v4`. */
  apiBaseUrl: string;
  /** Builds the Authorization header value from the token, e.g. `Bearer <t>`. */
  authorization?: (token: string) => string;
  token?: string;
  extraHeaders?: Record<string, string>;
  retry?: RetryOptions;
  redactor?: Redactor;
  /** For tests / proxies; defaults to the global fetch. */
  fetch?: typeof fetch;
  /** Forge name for messages, e.g. `GitHub`. */
  forgeName: string;
  /**
   * Each request (response body included) is aborted after this long;
   * default 60 s. A forge that accepts the connection and never answers must
   * not hold the run. A timed-out request is not retried: a POST may have
   * been applied, and a stalled forge rarely recovers within the same run.
   */
  timeoutMs?: number;
}

function isTimeout(error: unknown): boolean {
  const name = (error as Error)?.name;
  return name === 'TimeoutError' || name === 'AbortError';
}

export interface ForgeResponse<T = any> {
  status: number;
  json: T;
}

/** Any forge API failure. `status` is the HTTP status, 0 for network errors. */
export class ForgeError extends Error {
  readonly status: number;
  constructor(message: string, status: number) {
    super(message);
    this.name = 'ForgeError';
    this.status = status;
  }
}

const defaultSleep = (ms: number) =>
  new Promise<void>(resolve => setTimeout(resolve, ms));

/** A response body: its JSON, else its text (an HTML error page), undefined when empty. */
function parseBody(text: string): any {
  try {
    return text ? JSON.parse(text) : undefined;
  } catch {
    return text;
  }
}

/** The human part of a forge error body (GitHub, GitLab and Gitea all differ). */
export function forgeErrorMessage(json: unknown): string {
  if (json === null || json === undefined) return '';
  if (typeof json === 'string') return json;
  if (typeof json !== 'object') return String(json);
  const body = json as Record<string, unknown>;
  const parts: string[] = [];
  const message = body.message ?? body.error;
  if (typeof message === 'string') parts.push(message);
  else if (Array.isArray(message)) parts.push(message.map(String).join('; '));
  else if (message && typeof message === 'object') {
    // GitLab: { message: { field: ['is invalid'] } }
    for (const [field, problems] of Object.entries(message)) {
      parts.push(
        `${field} ${Array.isArray(problems) ? problems.join(', ') : String(problems)}`,
      );
    }
  }
  if (Array.isArray(body.errors)) {
    // GitHub: { message: 'Validation Failed', errors: [{ message } | { field, code }] }
    for (const e of body.errors as Array<Record<string, unknown>>) {
      if (typeof e === 'string') parts.push(e);
      else if (typeof e?.message === 'string') parts.push(e.message);
      else if (e?.field) parts.push(`${e.field} ${e.code ?? 'invalid'}`);
    }
  }
  return parts.join(': ');
}

export class ForgeHttpClient {
  private readonly options: ForgeHttpOptions;
  private readonly redactor: Redactor;

  constructor(options: ForgeHttpOptions) {
    this.options = options;
    this.redactor = options.redactor ?? new Redactor();
    this.redactor.add(options.token);
  }

  get forgeName() {
    return this.options.forgeName;
  }

  /**
   * Sends one request. Resolves for 2xx and for the statuses the caller
   * handles itself (`expect`), throws a redacted ForgeError otherwise.
   * A 5xx or a network failure is tried again after the backoff; any other
   * status, and a timeout, is final.
   */
  async request<T = any>(
    method: string,
    path: string,
    body?: unknown,
    expect: number[] = [],
  ): Promise<ForgeResponse<T>> {
    const { retry = {} } = this.options;
    const attempts = Math.max(1, retry.attempts ?? 3);
    const backoff = retry.backoffMs ?? (n => 250 * 2 ** (n - 1));
    const sleep = retry.sleep ?? defaultSleep;
    let lastError: ForgeError | undefined;
    for (let attempt = 1; attempt <= attempts; attempt++) {
      if (attempt > 1) await sleep(backoff(attempt - 1));
      const answer = await this.send(method, path, body);
      if (answer instanceof ForgeError) {
        lastError = answer;
        continue;
      }
      const { status, json } = answer;
      if ((status >= 200 && status < 300) || expect.includes(status)) {
        return answer;
      }
      lastError = this.statusError(method, path, status, json);
      if (status < 500) throw lastError;
    }
    throw this.error(
      `${lastError?.message ?? 'request failed'} (gave up after ${attempts} attempts)`,
      lastError?.status ?? 0,
    );
  }

  /**
   * One fetch, body read, within the timeout. A network failure comes back
   * as the ForgeError to retry on; a timeout is thrown (never retried).
   */
  private async send(
    method: string,
    path: string,
    body: unknown,
  ): Promise<ForgeResponse | ForgeError> {
    const timeoutMs = this.options.timeoutMs ?? DEFAULT_GITOPS_TIMEOUT_MS;
    const doFetch = this.options.fetch ?? fetch;
    let response: Response;
    let text: string;
    try {
      response = await doFetch(
        `${this.options.apiBaseUrl.replace(/\/+$/, '')}${path}`,
        {
          method,
          headers: this.headers(body),
          body: body === undefined ? undefined : JSON.stringify(body),
          signal: AbortSignal.timeout(timeoutMs),
        },
      );
      text = await response.text();
    } catch (error) {
      if (isTimeout(error)) {
        throw this.error(
          `${this.options.forgeName} did not answer within ${formatSeconds(timeoutMs)} ` +
            `(${method} ${path}): the forge or a proxy accepted the connection and stalled`,
          0,
        );
      }
      return this.error(
        `${method} ${path} failed: ${(error as Error).message}`,
        0,
      );
    }
    return { status: response.status, json: parseBody(text) };
  }

  /** JSON in and out; the token only in the Authorization header. */
  private headers(body: unknown): Record<string, string> {
    const headers: Record<string, string> = {
      accept: 'application/json',
      'user-agent': 'gpu-gitops',
      ...this.options.extraHeaders,
    };
    if (this.options.token) {
      headers.authorization = (
        this.options.authorization ?? (t => `Bearer ${t}`)
      )(this.options.token);
    }
    if (body !== undefined) headers['content-type'] = 'application/json';
    return headers;
  }

  /** A status the caller did not expect, said with what to fix (a 401/403: the token). */
  private statusError(
    method: string,
    path: string,
    status: number,
    json: unknown,
  ): ForgeError {
    const detail = forgeErrorMessage(json);
    const withDetail = detail ? `: ${detail}` : '';
    if (status === 401 || status === 403) {
      return this.error(
        `${this.options.forgeName} rejected the credentials (HTTP ${status}${withDetail}) on ${method} ${path}: ` +
          `the token is missing, invalid or lacks the scope to ` +
          `create pull requests (GitHub: repo / pull_requests:write, GitLab: api, Gitea: write:repository)`,
        status,
      );
    }
    return this.error(
      `${this.options.forgeName} ${method} ${path} failed with HTTP ${status}${withDetail}`,
      status,
    );
  }

  private error(message: string, status: number): ForgeError {
    return new ForgeError(this.redactor.redact(message), status);
  }
}

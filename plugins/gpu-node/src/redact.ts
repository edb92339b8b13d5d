/**
 * Secret redaction. Every log line, error message, output and PR body the
 * publisher produces passes through a `Redactor`, because git and forge
 * errors echo URLs and headers back verbatim, and a token that leaks into a
 * scaffolder task log is readable by everyone who can see the task.
 */
import { escapeRegExp } from './escapeRegExp';

const MASK = '***';

/** Secrets shorter than this are not registered: masking them would shred ordinary text. */
const MIN_SECRET_LENGTH = 4;

/** Usernames git hosts pair with a token in HTTP basic auth. */
const BASIC_AUTH_USERS = ['x-access-token', 'oauth2', 'git', 'token'];

/**
 * `scheme://user:password@host` or `scheme://token@host` (any scheme) →
 * `scheme://***@host`. Up to the last `@` before the path, so a password
 * holding an `@` is masked whole.
 */
const URL_CREDENTIALS = /\b([a-z][a-z0-9+.-]*:\/\/)[^\s/'"<>]*@/gi;

/**
 * Query parameters that carry credentials (`?access_token=`, `&private_token=`,
 * `?sig=`, `X-Amz-Signature=`, …): the value is masked, the name kept.
 */
const CREDENTIAL_QUERY_PARAMETER =
  /([?&;][a-z0-9_.~-]*?(?:token|secret|passw(?:or)?d|pwd|key|sig|auth|credential|session)[a-z0-9_.~-]*=)[^&#\s'"<>]+/gi;

/**
 * scp-style `user@host:path` → `***@host:path` (the user part may be a
 * token). `git@`, the ssh user every forge uses, is no secret and is kept.
 */
const SCP_USER =
  /(^|[\s'"(<=,;])(?!git@)([^\s@/:'"<>()[\]]+)@((?:[a-z0-9-]+\.)*[a-z0-9-]+|\[[0-9a-f:.]+\]):(?=\S)/gim;

/** `x-access-token:TOKEN@host` without a scheme (a basic-auth pair pasted bare). */
const BARE_BASIC_AUTH_PAIR =
  /\b((?:x-access-token|oauth2|gitlab-ci-token|token):)[^\s@/'"<>]+@/gi;

/** `Authorization: Bearer x`, `Authorization: token x`, `PRIVATE-TOKEN: x`, `http.extraHeader=...`. */
const AUTH_HEADER =
  /\b(authorization\s*[:=]\s*"?)(bearer|basic|token|digest)?(\s*)([^\s"',;]+)/gi;
const TOKEN_HEADER =
  /\b((?:private-token|x-gitlab-token|x-api-key)\s*[:=]\s*"?)([^\s"',;]+)/gi;
/** A bare `Bearer <credential>` / `Basic <credential>` outside a header line. */
// The credential must look like one (a digit, `+`, `/` or `=`), so prose such as
// "basic authentication" is left alone.
const BARE_SCHEME =
  /\b(bearer|basic)(\s+)((?=[A-Za-z0-9._~+/=-]*[0-9+/=])[A-Za-z0-9._~+/=-]{8,})/gi;

function base64(text: string): string {
  return Buffer.from(text, 'utf8').toString('base64');
}

/** Every form a token can take on the wire or in a log. */
function secretForms(secret: string): string[] {
  const forms = new Set<string>([secret]);
  forms.add(encodeURIComponent(secret));
  forms.add(base64(secret));
  for (const user of BASIC_AUTH_USERS) {
    const pair = `${user}:${secret}`;
    forms.add(base64(pair));
    forms.add(encodeURIComponent(pair));
  }
  // base64 without padding, as some tools print it.
  for (const form of [...forms]) forms.add(form.replace(/=+$/, ''));
  return [...forms].filter(f => f.length >= MIN_SECRET_LENGTH);
}

/**
 * Redacts credential patterns only (no registered secrets): URL user-info in
 * any scheme, scp-style users, credential query parameters, auth headers.
 *
 * @public
 */
export function redactCredentialPatterns(text: string): string {
  return text
    .replace(URL_CREDENTIALS, `$1${MASK}@`)
    .replace(BARE_BASIC_AUTH_PAIR, `$1${MASK}@`)
    .replace(SCP_USER, `$1${MASK}@$3:`)
    .replace(CREDENTIAL_QUERY_PARAMETER, `$1${MASK}`)
    .replace(
      AUTH_HEADER,
      (_m, head: string, scheme: string | undefined, space: string) =>
        `${head}${scheme ?? ''}${scheme ? space || ' ' : space}${MASK}`,
    )
    .replace(TOKEN_HEADER, `$1${MASK}`)
    .replace(BARE_SCHEME, `$1$2${MASK}`);
}

/**
 * Holds the secrets of one run (tokens, passwords) and removes them, in all
 * their encodings, from any text; also masks credential-shaped patterns
 * (URL user-info, auth headers) even for secrets it was never told about.
 *
 * @public
 */
export class Redactor {
  private readonly forms = new Set<string>();
  private pattern: RegExp | undefined;

  constructor(secrets: Iterable<string | undefined> = []) {
    for (const secret of secrets) this.add(secret);
  }

  /** Register a secret; undefined / empty values are ignored. */
  add(secret: string | undefined): this {
    if (!secret || secret.length < MIN_SECRET_LENGTH) return this;
    for (const form of secretForms(secret)) this.forms.add(form);
    // Longest first, so a base64 form is replaced before a shorter raw form inside it.
    const sorted = [...this.forms].sort((a, b) => b.length - a.length);
    this.pattern = new RegExp(sorted.map(escapeRegExp).join('|'), 'g');
    return this;
  }

  redact(text: string): string {
    let result = text;
    if (this.pattern) result = result.replace(this.pattern, MASK);
    return redactCredentialPatterns(result);
  }

  /** Redacts any value: strings, errors, and (via JSON) plain data. */
  redactValue<T>(value: T): T {
    if (typeof value === 'string') return this.redact(value) as unknown as T;
    if (value === null || typeof value !== 'object') return value;
    return JSON.parse(this.redact(JSON.stringify(value))) as T;
  }

  /**
   * A new Error with the message (and stack) redacted. The original is not
   * attached as `cause`, because its message still holds the secret.
   */
  redactError(error: unknown): Error {
    const source =
      error instanceof Error
        ? error
        : new Error(String(error ?? 'unknown error'));
    const redacted = new Error(this.redact(source.message));
    // Keep the class (GitOpsError, ForgeError, ...) so callers can still branch on it.
    Object.setPrototypeOf(redacted, Object.getPrototypeOf(source));
    redacted.name = source.name;
    redacted.stack = source.stack ? this.redact(source.stack) : undefined;
    for (const key of Object.keys(source)) {
      (redacted as unknown as Record<string, unknown>)[key] = this.redactValue(
        (source as unknown as Record<string, unknown>)[key],
      );
    }
    return redacted;
  }
}

/**
 *  A logger whose every message is redacted before it reaches the sink.
 *
 * @public
 */
export interface PublishLogger {
  info(message: string): void;
  warn(message: string): void;
  error?(message: string): void;
}

export function redactingLogger(
  logger: PublishLogger | undefined,
  redactor: Redactor,
): PublishLogger {
  return {
    info: m => logger?.info(redactor.redact(m)),
    warn: m => logger?.warn(redactor.redact(m)),
    error: m =>
      (logger?.error ?? logger?.warn)?.call(logger, redactor.redact(m)),
  };
}

/**
 * The one rule for what a GitOps repository URL may be, checked before
 * anything runs (no clone, no fetch, no file read) by every entry point: the
 * CLI's `--repo`, the publisher, the git client, the scaffolder actions and
 * the `gpu.gitops.repoUrl` config readers.
 *
 * Allowed: `https://host/path`, `http://host/path`, `file://…` and local
 * paths. The product authenticates with the integration's token in an HTTP
 * header, so only HTTP(S) remotes can be written to; everything that could
 * carry a credential is refused, in any form:
 *
 * - user-info in any scheme (`scheme://user@…`, `scheme://user:token@…`);
 * - a query string or fragment (a git remote has neither; `?access_token=…`);
 * - scp-style `[user@]host:path` and every scheme but http(s)/file
 *   (`ssh://`, `git://`, `<transport>::<address>` remote helpers).
 *
 * How git itself tells the forms apart (git 2.39, `Documentation/urls.txt`
 * and `connect.c` `url_is_local_not_ssh`): `scheme://` is a URL,
 * `<transport>::<address>` names a remote helper, and a colon before the
 * first slash makes an scp-style ssh address, except a DOS drive prefix
 * (`C:\…`), which git on Windows reads as a local path.
 *
 * Isomorphic (no Node APIs): the frontend form may check a URL too.
 */
import { GpuInputError, type InputIssue } from '../errors';

/**
 *  What a checked URL names: an HTTP(S) remote, a `file://` URL or a local path.
 *
 * @public
 */
export type GitOpsRepoUrlKind = 'http' | 'file' | 'path';

const MASK = '***';
const SCHEME_URL = /^([A-Za-z][A-Za-z0-9+.-]*):\/\/(.*)$/s;
const REMOTE_HELPER = /^[A-Za-z][A-Za-z0-9+.-]*::/;
const DRIVE_PREFIX = /^[A-Za-z]:[\\/]/;
// eslint-disable-next-line no-control-regex
const CONTROL_CHARACTERS = /[\u0000-\u001f\u007f]/g;

interface ParsedUrl {
  scheme: string;
  /** User-info without its `@`, when there is one. */
  userInfo?: string;
  host: string;
  path: string;
  query?: string;
  fragment?: string;
}

function parseSchemeUrl(scheme: string, rest: string): ParsedUrl {
  // The authority ends at the first `/`, `?` or `#`; its user-info at the last `@`.
  const authorityEnd = rest.search(/[/?#]/);
  const authority = authorityEnd < 0 ? rest : rest.slice(0, authorityEnd);
  let tail = authorityEnd < 0 ? '' : rest.slice(authorityEnd);
  const at = authority.lastIndexOf('@');
  const parsed: ParsedUrl = {
    scheme: scheme.toLowerCase(),
    host: at < 0 ? authority : authority.slice(at + 1),
    path: '',
  };
  if (at >= 0) parsed.userInfo = authority.slice(0, at);
  const hash = tail.indexOf('#');
  if (hash >= 0) {
    parsed.fragment = tail.slice(hash + 1);
    tail = tail.slice(0, hash);
  }
  const question = tail.indexOf('?');
  if (question >= 0) {
    parsed.query = tail.slice(question + 1);
    tail = tail.slice(0, question);
  }
  parsed.path = tail;
  return parsed;
}

/** `[user@]host:path`, as git reads a colon before the first slash. */
function parseScpStyle(
  url: string,
): { user?: string; host: string; path: string } | undefined {
  const colon = url.indexOf(':');
  if (colon < 0 || DRIVE_PREFIX.test(url)) return undefined;
  const slash = url.indexOf('/');
  if (slash >= 0 && slash < colon) return undefined;
  // `[::1]:path`: the brackets hold the colons of an IPv6 host.
  const bracketEnd = url.startsWith('[') ? url.indexOf(']:') : -1;
  const hostEnd = bracketEnd > 0 ? bracketEnd + 1 : colon;
  const address = url.slice(0, hostEnd);
  const at = address.lastIndexOf('@');
  return {
    user: at < 0 ? undefined : address.slice(0, at),
    host: at < 0 ? address : address.slice(at + 1),
    path: url.slice(hostEnd + 1),
  };
}

/** Control characters escaped, so a pasted newline or tab shows as such. */
function visible(text: string): string {
  return text.replace(
    CONTROL_CHARACTERS,
    c => `\\x${c.charCodeAt(0).toString(16).padStart(2, '0')}`,
  );
}

/**
 * The URL with everything that may be a credential masked (user-info, the
 * scp-style user, query string, fragment) and control characters escaped:
 * the only form in which a refused URL is ever shown.
 *
 * @public
 */
export function redactRepoUrl(url: string): string {
  // White space pasted around a URL must not hide its scheme from the parse
  // (" https://u:token@host" read as scp-style would show the token whole).
  const padding = /^\s*/.exec(url)![0];
  if (padding !== '') {
    return `${visible(padding)}${redactRepoUrl(url.slice(padding.length))}`;
  }
  const scheme = SCHEME_URL.exec(url);
  if (scheme) {
    const parsed = parseSchemeUrl(scheme[1], scheme[2]);
    return visible(
      `${scheme[1]}://${parsed.userInfo !== undefined ? `${MASK}@` : ''}${
        parsed.host
      }${parsed.path}${parsed.query !== undefined ? `?${MASK}` : ''}${
        parsed.fragment !== undefined ? `#${MASK}` : ''
      }`,
    );
  }
  if (REMOTE_HELPER.test(url)) {
    return visible(`${url.slice(0, url.indexOf('::'))}::${MASK}`);
  }
  const scp = parseScpStyle(url);
  if (scp) {
    return visible(
      `${scp.user !== undefined ? `${MASK}@` : ''}${scp.host}:${scp.path}`,
    );
  }
  return visible(url);
}

/**
 * Whether the URL carries a user name or token before an `@` (user-info of
 * any scheme, or the user of an scp-style address): the `url-credentials`
 * rule of `checkGitOpsRepoUrl`, for callers that parse a URL for their own
 * purpose (a forge's API path).
 *
 * @public
 */
export function repoUrlCarriesCredentials(padded: string): boolean {
  const url = padded.trimStart();
  const scheme = SCHEME_URL.exec(url);
  if (scheme) {
    return parseSchemeUrl(scheme[1], scheme[2]).userInfo !== undefined;
  }
  if (REMOTE_HELPER.test(url)) return false;
  return parseScpStyle(url)?.user !== undefined;
}

/** The https URL to suggest for an ssh / git / scp-style address: host and path only. */
function httpsSuggestion(host: string, path: string): string {
  const bareHost = host.startsWith('[')
    ? host.slice(0, host.indexOf(']') + 1)
    : host.replace(/:\d*$/, '');
  return `https://${bareHost}/${path.replace(/^\/+/, '')}`;
}

const ONLY_HTTP =
  'only https:// (or http://) remotes, file:// URLs and local paths are supported, because the token is sent in an HTTP header';

/** An issue of the URL, naming the caller's field. */
type IssueOf = (rule: string, message: string) => InputIssue;

function issuesOf(url: string, field: string, tokenHint: string): InputIssue[] {
  const shown = redactRepoUrl(url);
  const issue: IssueOf = (rule, message) => ({ path: field, rule, message });
  if (url.trim() === '') {
    return [issue('required', 'names no GitOps repository')];
  }
  if (url.trim() !== url) {
    return [
      issue(
        'url-characters',
        `"${shown}" starts or ends with white space (pasted with it?): give the URL alone`,
      ),
      ...issuesOf(url.trim(), field, tokenHint),
    ];
  }
  if (url.search(CONTROL_CHARACTERS) >= 0) {
    return [
      issue(
        'url-characters',
        `${shown} contains control characters (a newline or tab pasted with it?)`,
      ),
    ];
  }
  const credentials = () =>
    issue(
      'url-credentials',
      `${shown} carries credentials (a user name or token before "@"): credentials never go in the URL; ` +
        `${tokenHint} (it is sent in an HTTP header)`,
    );
  const scheme = SCHEME_URL.exec(url);
  if (scheme) {
    const parsed = parseSchemeUrl(scheme[1], scheme[2]);
    return schemeUrlIssues(url, parsed, shown, issue, credentials);
  }
  if (REMOTE_HELPER.test(url)) {
    return [
      issue(
        'url-scheme',
        `${shown} names a git remote helper (<transport>::<address>); ${ONLY_HTTP}`,
      ),
    ];
  }
  const scp = parseScpStyle(url);
  if (!scp) return [];
  return [
    ...(repoUrlCarriesCredentials(url) ? [credentials()] : []),
    issue(
      'url-scheme',
      `${shown} is an scp-style ssh address; ${ONLY_HTTP}: use ${redactRepoUrl(
        httpsSuggestion(scp.host, scp.path),
      )}`,
    ),
  ];
}

/** A `scheme://` URL's issues: credentials, a scheme other than http(s)/file, no host, a query or fragment. */
function schemeUrlIssues(
  url: string,
  parsed: ParsedUrl,
  shown: string,
  issue: IssueOf,
  credentials: () => InputIssue,
): InputIssue[] {
  const issues: InputIssue[] = [];
  if (repoUrlCarriesCredentials(url)) issues.push(credentials());
  if (!['http', 'https', 'file'].includes(parsed.scheme)) {
    issues.push(
      issue(
        'url-scheme',
        `${shown} is a ${parsed.scheme}:// remote; ${ONLY_HTTP}: use ${redactRepoUrl(
          httpsSuggestion(parsed.host, parsed.path),
        )}`,
      ),
    );
  } else if (parsed.scheme !== 'file' && parsed.host === '') {
    issues.push(issue('url-host', `${shown} names no host`));
  }
  if (parsed.query !== undefined || parsed.fragment !== undefined) {
    issues.push(
      issue(
        'url-query',
        `${shown} has a query string or fragment: a git remote URL or forge API root has neither, and one may carry a token`,
      ),
    );
  }
  return issues;
}

/** @public */
export interface CheckGitOpsRepoUrlOptions {
  /** Where the caller takes the token from, e.g. `configure it under integrations`. */
  tokenHint?: string;
}

/**
 * Checks a GitOps repository URL against the policy above and says what it
 * names; throws a GpuInputError naming `field` (`repoUrl`, `--repo`,
 * `gpu.gitops.repoUrl`, …) with one issue per broken rule (`url-credentials`,
 * `url-query`, `url-scheme`, `url-host`, `url-characters`, `required`). The
 * URL appears in messages only as `redactRepoUrl` shows it.
 *
 * @public
 */
export function checkGitOpsRepoUrl(
  url: string,
  field = 'repoUrl',
  options: CheckGitOpsRepoUrlOptions = {},
): GitOpsRepoUrlKind {
  const issues = issuesOf(
    url,
    field,
    options.tokenHint ?? 'give the token separately',
  );
  if (issues.length > 0) throw new GpuInputError(issues);
  const scheme = SCHEME_URL.exec(url)?.[1].toLowerCase();
  if (scheme === 'file') return 'file';
  return scheme ? 'http' : 'path';
}

/**
 * Checks a forge's API root (`--api-url`, an integration's `apiBaseUrl`) by
 * the same rule as a repository URL, and more strictly: it must be an
 * http(s) URL. The token travels only in the Authorization header; a root
 * holding `?private_token=…` or `user:token@` would put it in every request's
 * URL, where proxies and the forge's access log keep it. Throws a
 * GpuInputError naming `field`; the URL shows redacted.
 *
 * @public
 */
export function checkForgeApiUrl(url: string, field = 'apiBaseUrl'): void {
  const issues = issuesOf(url, field, 'give the token separately');
  if (issues.length === 0 && !/^https?:\/\//i.test(url)) {
    issues.push({
      path: field,
      rule: 'url-scheme',
      message: `${redactRepoUrl(url)} is no forge API root: give its https:// URL (e.g. https://gitlab.example.com/api/v4)`,
    });
  }
  if (issues.length > 0) throw new GpuInputError(issues);
}

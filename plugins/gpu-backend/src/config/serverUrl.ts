/**
 * A live-data server's base URL from config (a cluster's Prometheus, its
 * Kubernetes API server): http(s) only, no user-info (a token has a key of
 * its own), no trailing slash. A value that is no URL is not repeated in the
 * error: it may be a secret pasted into the wrong key.
 */

/** What the caller's error says for credentials in the URL (where the token goes instead). */
export interface ServerUrlWords {
  credentials: string;
}

/** The URL in `value` of config key `key`, or an error `<key>: <rule>`. */
export function readServerUrl(
  key: string,
  value: string,
  words: ServerUrlWords,
): string {
  const fail = (rule: string): never => {
    throw new Error(`${key}: ${rule}`);
  };
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return fail(
      'is not a URL (the value is not repeated: it may hold a secret)',
    );
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    fail('must be an http:// or https:// URL');
  }
  if (url.username || url.password) {
    fail(words.credentials);
  }
  return url.toString().replace(/\/+$/, '');
}

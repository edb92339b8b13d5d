/**
 * Test helper: where a token could leak to. Git's basic auth sends it base64
 * encoded with a user, so the raw token alone is not enough to look for.
 */
import { promises as fs } from 'node:fs';
import path from 'node:path';

/** The token as it could appear: raw, URL-encoded, base64 alone and with each basic-auth user. */
export function tokenForms(token: string): string[] {
  const base64 = (text: string) => Buffer.from(text).toString('base64');
  return [
    token,
    encodeURIComponent(token),
    base64(token),
    ...['x-access-token', 'oauth2', 'bot'].map(user =>
      base64(`${user}:${token}`),
    ),
  ];
}

/** The forms of `token` found in `text` (empty when none). */
export function leakedForms(text: string, token: string): string[] {
  return tokenForms(token).filter(form => text.includes(form));
}

/**
 * Every file under `dir` that holds a form of `token`. Where a token would
 * land — git config, FETCH_HEAD, the saved index state — is plain text.
 */
export async function filesLeaking(
  dir: string,
  token: string,
): Promise<string[]> {
  const leaking: string[] = [];
  for (const entry of await fs.readdir(dir, {
    recursive: true,
    withFileTypes: true,
  })) {
    if (!entry.isFile()) continue;
    const file = path.join(entry.parentPath, entry.name);
    const text = await fs.readFile(file, 'latin1');
    if (leakedForms(text, token).length > 0) leaking.push(file);
  }
  return leaking;
}

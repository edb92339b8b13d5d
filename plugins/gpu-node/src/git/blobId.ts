import { createHash } from 'node:crypto';

/**
 * The id git gives a file of this content (`git hash-object`: SHA-1 of
 * `blob <bytes>\0<content>`), so a file read from disk and one git lists
 * (`checkoutListing.ts`) share one key for what they hold.
 */
export function gitBlobId(text: string): string {
  const content = Buffer.from(text, 'utf8');
  return createHash('sha1')
    .update(`blob ${content.length}\0`)
    .update(content)
    .digest('hex');
}

/**
 * `GET /pools` written as JSON text in pieces: the index's part of each
 * pool is stringified once per snapshot and kept; only what the caller's
 * view adds (consumers, live figures, drift) is written per request, a few
 * hundred pools at a time. At 20k pools the page is 16 MB of JSON: one
 * string of it per request (`JSON.stringify`) made the backend's old
 * generation grow, and each request paid major collections of a heap
 * holding the index (`npm run bench -- scale`).
 *
 * Each piece is one string, encoded once as the socket takes it. Pieces
 * joined from a Buffer per pool (and the copy `Buffer.concat` makes of
 * them) added about twice the page's size in buffers per request: memory
 * outside the JavaScript heap whose growth V8 answers with full
 * collections of the heap holding the index.
 */
import type { PoolsResponse } from '@gpu-gitops/plugin-gpu-common';
import type { IndexedPoolSummary } from '../allocation/poolSummaries';
import { indexedFields, type PoolView } from './visiblePools';

/**
 * The index's pools are one snapshot's and never change: the text of
 * their part is kept as long as they are, and written into each response.
 */
const indexedPartTexts = new WeakMap<IndexedPoolSummary, string>();

/** The pool's fields as the index holds them, without those a caller's view replaces: `{…` (its closing brace left for the view's fields). */
function indexedPart(pool: IndexedPoolSummary): string {
  let text = indexedPartTexts.get(pool);
  if (text === undefined) {
    text = JSON.stringify(indexedFields(pool)).slice(0, -1);
    indexedPartTexts.set(pool, text);
  }
  return text;
}

/**
 * Each pool's index part stringified and kept ahead of the first page, one
 * pool at a time in turns of the event loop; stops once `wanted()` is false.
 */
export async function keepIndexedParts(
  pools: Iterable<IndexedPoolSummary>,
  turn: () => Promise<void>,
  wanted: () => boolean,
): Promise<void> {
  for (const pool of pools) {
    if (!wanted()) return;
    await turn();
    indexedPart(pool);
  }
}

/** The view's fields after the index's: `,"consumers":[…]…}` (no comma when the index gave none). */
function viewPart(indexed: string, view: PoolView['view']): string {
  const text = JSON.stringify(view);
  if (text === '{}') return '}';
  return indexed.length > 1 ? `,${text.slice(1)}` : text.slice(1);
}

/** Pools written per piece: about 180 KB of JSON at 20k pools' sizes. */
const POOLS_PER_PIECE = 256;

/**
 * The JSON of `{ pools, ...rest }` in pieces, each pool the index's part
 * joined with its view. Each view is drawn as its piece is written
 * (`poolViews`).
 */
export function* poolsJsonPieces(
  pools: Iterable<PoolView>,
  rest: Omit<PoolsResponse, 'pools'>,
): Generator<string> {
  yield '{"pools":[';
  let parts: string[] = [];
  let written = 0;
  for (const { indexed, view } of pools) {
    const text = indexedPart(indexed);
    if (written > 0) parts.push(',');
    parts.push(text, viewPart(text, view));
    written += 1;
    if (written % POOLS_PER_PIECE === 0) {
      yield parts.join('');
      parts = [];
    }
  }
  if (parts.length > 0) yield parts.join('');
  const restText = JSON.stringify(rest);
  yield restText === '{}' ? ']}' : `],${restText.slice(1)}`;
}

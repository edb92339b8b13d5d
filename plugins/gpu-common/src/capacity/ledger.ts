/**
 * A pool's request ledger: which requests hold capacity in a NodePool, and how
 * much. It is written on the NodePool as ONE annotation line,
 *
 *   gpu.backstage.io/requests: ml/chat=2, ml/train=3x2
 *
 * (`<namespace>/<name>=<replicas>[x<units per replica>]`, sorted), and the
 * pool's limit is derived from it. One line on purpose: two pull requests
 * that both change a pool's ledger change the same line differently, so git
 * never merges them cleanly into a pool whose limit counts only one of them
 * (two requests adding 3 replicas each would otherwise both write "limit 1"
 * and merge into a short pool). The second pull request conflicts and is
 * re-rendered on the new base instead.
 */

/**
 *  One request's share of a pool.
 *
 * @public
 */
export interface LedgerEntry {
  /** `<namespace>/<name>` of the GpuRequest (or of a workload found on the pool). */
  request: string;
  replicas: number;
  /** Units of the pool's resource one replica asks for. */
  unitsPerReplica: number;
}

const ENTRY = /^([a-z0-9][-a-z0-9.]*\/[a-z0-9][-a-z0-9.]*)=(\d+)(?:x(\d+))?$/;

function compareRequests(a: LedgerEntry, b: LedgerEntry): number {
  if (a.request === b.request) return 0;
  return a.request < b.request ? -1 : 1;
}

/**
 *  The annotation value: entries sorted by request, `x1` left out.
 *
 * @public
 */
export function formatLedger(entries: readonly LedgerEntry[]): string {
  return [...entries]
    .filter(e => e.replicas > 0)
    .sort(compareRequests)
    .map(
      e =>
        `${e.request}=${e.replicas}${e.unitsPerReplica === 1 ? '' : `x${e.unitsPerReplica}`}`,
    )
    .join(', ');
}

/**
 * Parses an annotation value. Undefined for text that is not a ledger (a
 * hand edit gone wrong): callers then rebuild the ledger from the workloads.
 *
 * @public
 */
export function parseLedger(text: unknown): LedgerEntry[] | undefined {
  if (typeof text !== 'string') return undefined;
  const entries: LedgerEntry[] = [];
  for (const part of text.split(',')) {
    const item = part.trim();
    if (item === '') continue;
    const match = ENTRY.exec(item);
    if (!match) return undefined;
    entries.push({
      request: match[1],
      replicas: Number(match[2]),
      unitsPerReplica: match[3] === undefined ? 1 : Number(match[3]),
    });
  }
  return entries.sort(compareRequests);
}

/** The ledger with `entry` in place of the request's previous entry (removed when it has no replicas). */
export function withLedgerEntry(
  ledger: readonly LedgerEntry[],
  entry: LedgerEntry,
): LedgerEntry[] {
  const others = ledger.filter(e => e.request !== entry.request);
  return (entry.replicas > 0 ? [...others, entry] : others).sort(
    compareRequests,
  );
}

/** The ledger without the request. */
export function withoutLedgerEntry(
  ledger: readonly LedgerEntry[],
  request: string,
): LedgerEntry[] {
  return ledger.filter(e => e.request !== request);
}

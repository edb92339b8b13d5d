/**
 * Swapping a few workloads in a list sorted by id without touching the
 * rest: a one-commit refresh of a 100k-workload index must cost what the
 * commit changed, not a filter and a sort of every workload (for the whole
 * list and for each cluster's).
 */
import { compareStrings } from '@gpu-gitops/plugin-gpu-common';

/** Past this many swaps, one filter and sort is cheaper than splicing each. */
const MAX_SPLICES = 64;

/** The index of `id` in `list` (sorted by id), or where it would go. */
function searchId<T extends { id: string }>(list: T[], id: string): number {
  let low = 0;
  let high = list.length;
  while (low < high) {
    const middle = (low + high) >>> 1;
    if (compareStrings(list[middle].id, id) < 0) low = middle + 1;
    else high = middle;
  }
  return low;
}

/**
 * `list` (sorted by id, ids unique) without the ids in `removed` and with
 * `added` (ids unique among them), sorted by id — a new list, `list` is
 * left as it is. Undefined when an added id is one `list` keeps.
 */
export function swapSortedById<T extends { id: string }>(
  list: readonly T[],
  removed: ReadonlySet<string>,
  added: readonly T[],
): T[] | undefined {
  if (removed.size + added.length > MAX_SPLICES) {
    const kept = list.filter(w => !removed.has(w.id));
    const addedIds = new Set(added.map(w => w.id));
    if (kept.some(w => addedIds.has(w.id))) return undefined;
    return [...kept, ...added].sort((a, b) => compareStrings(a.id, b.id));
  }
  const out = list.slice();
  for (const id of removed) {
    const at = searchId(out, id);
    if (out[at]?.id === id) out.splice(at, 1);
  }
  for (const workload of added) {
    const at = searchId(out, workload.id);
    if (out[at]?.id === workload.id) return undefined;
    out.splice(at, 0, workload);
  }
  return out;
}

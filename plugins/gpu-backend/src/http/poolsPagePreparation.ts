/**
 * The GPU page (`GET /pools`) prepared after each refresh of the index, in
 * turns of the event loop: its pools summarised (`AllocationQueries`) and
 * their index part stringified (`poolsJson.ts`). Without it, the first
 * viewer after a merge paid for both: about 450 ms on the scale bench's
 * 20k pools, and a second in a new process.
 */
import type { LoggerService } from '@backstage/backend-plugin-api';
import { eventLoopTurns } from '@gpu-gitops/plugin-gpu-node';
import type { AllocationQueries } from '../allocation/AllocationQueries';
import type { IndexSnapshot } from '../repoIndex/indexSnapshot';
import { keepIndexedParts } from './poolsJson';

/**
 * Work between two turns of the event loop: shorter than the index's own
 * slices (gpu-node `eventLoopTurns`), as nobody waits on a preparation but
 * the API's requests wait on each slice of it. With the index's 15 ms, a
 * preparation running under the scale bench's load of 200 `GET /allocation`
 * a second held its p95 at 24–29 ms (goal 20 ms).
 */
const PREPARATION_SLICE_MS = 5;

export interface PoolsPagePreparation {
  /** Resolves when no preparation is left to run (each finished or given up). */
  settled(): Promise<void>;
  /** Prepares no later snapshot. */
  stop(): void;
}

/**
 * Prepares the current snapshot now and each one `onSnapshot` reports. One
 * preparation runs at a time; a snapshot that is no longer the current one
 * is given up between clusters, and a request in the meantime computes what
 * is still missing itself, so the page never waits on a preparation.
 */
export function preparePoolsPages({
  queries,
  snapshot,
  onSnapshot,
  logger,
  turn = eventLoopTurns(PREPARATION_SLICE_MS),
}: {
  queries: AllocationQueries;
  snapshot: () => IndexSnapshot;
  onSnapshot: (listener: (snapshot: IndexSnapshot) => void) => () => void;
  logger?: LoggerService;
  turn?: () => Promise<void>;
}): PoolsPagePreparation {
  let latest = Promise.resolve();
  const prepare = (next: IndexSnapshot) => {
    const wanted = () => snapshot() === next;
    latest = latest.then(async () => {
      try {
        const pools = await queries.preparePools(next, { turn, wanted });
        if (pools) await keepIndexedParts(pools, turn, wanted);
      } catch (error) {
        // The page computes what it needs itself, and says what failed.
        logger?.warn(
          `GPU page not prepared ahead: ${(error as Error).message}`,
        );
      }
    });
  };
  const stop = onSnapshot(prepare);
  prepare(snapshot());
  const settled = async () => {
    // A snapshot may land while the one before is prepared.
    for (let waited: Promise<void> | undefined; waited !== latest;) {
      waited = latest;
      await waited;
    }
  };
  return { settled, stop };
}

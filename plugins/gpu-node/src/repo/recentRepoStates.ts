/**
 * The repository states read lately, by what they were read from: the
 * updater's pass re-renders its open pull requests one after another on one
 * base commit, and each re-render read the same cluster's state again. On
 * the scale repository (`bench/scaleRepo.ts`: 131k files, 89k workloads
 * counted on each cluster) that was 12 s per re-render with every file's
 * parse kept (`parseCache.ts`), nearly all of it spent turning the same
 * parsed files into the same pools and workloads.
 *
 * A state is kept only when its tree names every file it holds by path and
 * blob id (`RepoTree.contentKey`: a git checkout nothing was written to), so
 * the same key means the same files, and with the same cluster, layout and
 * reader options the same state. The states are frozen (`readRepoState`
 * freezes every state it gives), so every reader of one key shares one: a
 * copy for each reader took 2.3 s of the event loop for a scale cluster's
 * state of 60 MB. Two states are kept, and none for longer than a minute
 * unused: a state of a 100k-workload repository is tens of MiB.
 */
import { createHash } from 'node:crypto';

/**
 * States kept at once: the updater's pass re-renders one cluster's pull
 * requests one after another, a few at a time, so at most two clusters are
 * under way at once.
 */
const MOST_STATES = 2;
/** How long a state is kept unused: its cluster's re-renders are over by then. */
const KEPT_FOR_MS = 60_000;

interface KeptState<T> {
  state: T;
  dropTimer: NodeJS.Timeout;
}

/** @internal */
export class RecentRepoStates<T> {
  private readonly kept = new Map<string, KeptState<T>>();
  /**
   * Reads under way, by key: a second reader of a key being read waits for
   * that read rather than start its own (the updater's renders in flight on
   * one cluster would each read its state cold, 16–52 s at scale).
   */
  private readonly reading = new Map<string, Promise<T>>();

  constructor(
    private readonly most = MOST_STATES,
    private readonly keptForMs = KEPT_FOR_MS,
  ) {}

  /**
   * The state read under `key`, or being read, else `read`'s, kept for the
   * next reader; with no key, `read`'s alone. One state goes to every
   * reader of its key: `read` must give a state no reader can change
   * (frozen). A read that fails is not kept: each reader waiting on it
   * gets its error, and the next reader reads again.
   */
  async recall(key: string | undefined, read: () => Promise<T>): Promise<T> {
    if (key === undefined) return read();
    const kept = this.kept.get(key);
    if (kept) {
      this.keep(key, kept.state);
      return kept.state;
    }
    const underWay = this.reading.get(key);
    if (underWay) return underWay;
    const reading = read();
    this.reading.set(key, reading);
    try {
      const state = await reading;
      this.keep(key, state);
      return state;
    } finally {
      this.reading.delete(key);
    }
  }

  /** How many states are kept (for tests). */
  get size(): number {
    return this.kept.size;
  }

  private keep(key: string, state: T): void {
    const was = this.kept.get(key);
    if (was) clearTimeout(was.dropTimer);
    this.kept.delete(key);
    const dropTimer = setTimeout(() => this.kept.delete(key), this.keptForMs);
    // A kept state never holds the process open.
    dropTimer.unref();
    this.kept.set(key, { state, dropTimer });
    for (const [oldest, entry] of this.kept) {
      if (this.kept.size <= this.most) break;
      clearTimeout(entry.dropTimer);
      this.kept.delete(oldest);
    }
  }
}

/** One key from what a state is read from: the tree's content key and the reader's inputs. */
export function repoStateKey(
  contentKey: string | undefined,
  inputs: unknown,
): string | undefined {
  if (contentKey === undefined) return undefined;
  return createHash('sha256')
    .update(contentKey)
    .update('\0')
    .update(JSON.stringify(inputs) ?? '')
    .digest('hex');
}

import { eventLoopTurns } from '@gpu-gitops/plugin-gpu-node';
import type { RepoSource } from './gitSnapshot';
import type { IndexStore } from './indexStore';

/**
 * The blob reads of one refresh. It counts every file it reads as parsed (the
 * refresh's `parsedPaths`) and keeps the texts of the files `keepText`
 * names, which the GPU stacks read again. Only those: a first index reads
 * 24k files, and holding every text to the end of the refresh moved them
 * all into the old generation (GC work). A file the stacks open that was
 * not kept (a values file elsewhere) is read from git again, by blob.
 */
export class RefreshReader {
  readonly parsedPaths: string[] = [];
  readonly texts = new Map<string, string>();

  constructor(
    private readonly source: RepoSource,
    private readonly store: IndexStore,
    private readonly keepText: (path: string) => boolean,
  ) {}

  /** Reads the current blobs of `paths` (one git process) and counts them as parsed. */
  async read(paths: string[]): Promise<Map<string, string>> {
    const shas = paths.map(p => this.store.blobs.get(p)!);
    // Counted in the order asked, not the order answered: two reads are in
    // flight at a time (`RepoIndex.batchTexts`), and the decoding below gives
    // the event loop turns, so answers may arrive either way round.
    this.parsedPaths.push(...paths);
    const blobs = await this.source.readBlobs(shas);
    const texts = new Map<string, string>();
    // 20k pool files in one read on a first index: the event loop gets its turns.
    const yieldTurn = eventLoopTurns();
    for (const [i, p] of paths.entries()) {
      await yieldTurn();
      const text = blobs.get(shas[i]) ?? '';
      texts.set(p, text);
      if (this.keepText(p)) this.texts.set(p, text);
    }
    return texts;
  }

  /** Reads those of `paths` that still exist (the others were deleted). */
  readPresent(paths: Iterable<string>): Promise<Map<string, string>> {
    return this.read([...paths].filter(p => this.store.blobs.has(p)));
  }
}

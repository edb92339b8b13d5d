/**
 * The index's state file: the store's parse results saved to disk, so a
 * restarted backend re-reads only the files whose blob changed since instead
 * of parsing the whole repository again. A file written with other settings
 * (clusters, catalog, layout, parse rules) is ignored.
 */
import { createHash } from 'node:crypto';
import { promises as fs } from 'node:fs';
import { dirname } from 'node:path';
import type { IndexStore, SavedStore } from './indexStore';

/** Bump when the saved state's shape or the parse rules change. */
const STATE_VERSION = 11;

export class SavedIndexState {
  private readonly fingerprint: string;
  private lastSaved?: number;
  private saving: Promise<void> = Promise.resolve();

  /** `settings`: what the parse results depend on besides the files. */
  constructor(
    private readonly file: string | undefined,
    settings: Record<string, unknown>,
  ) {
    this.fingerprint = createHash('sha256')
      .update(JSON.stringify({ version: STATE_VERSION, ...settings }))
      .digest('hex');
  }

  /** Resolves when the latest save (if any) has finished. */
  whenSaved(): Promise<void> {
    return this.saving;
  }

  /**
   * Saves the store in the background (after a full read, then at most every
   * 10 minutes): stringifying a big index costs tens of ms, which a refresh
   * should not wait for.
   */
  scheduleSave(store: IndexStore, full: boolean): void {
    const file = this.file;
    if (!file) return;
    const now = Date.now();
    if (
      !full &&
      this.lastSaved !== undefined &&
      now - this.lastSaved < 600_000
    ) {
      return;
    }
    this.lastSaved = now;
    this.saving = this.saving.then(async () => {
      try {
        await fs.mkdir(dirname(file), { recursive: true });
        const temp = `${file}.${process.pid}.tmp`;
        const text = JSON.stringify({
          fingerprint: this.fingerprint,
          ...store.toSaved(),
        });
        await fs.writeFile(temp, text, 'utf8');
        await fs.rename(temp, file);
      } catch {
        // Only a cache: the next start parses again.
      }
    });
  }

  /** Loads saved parse results made with the same settings into `store`; false when there are none. */
  async restore(store: IndexStore): Promise<boolean> {
    if (!this.file) return false;
    let saved: (SavedStore & { fingerprint?: string }) | undefined;
    try {
      saved = JSON.parse(await fs.readFile(this.file, 'utf8'));
    } catch {
      return false;
    }
    if (saved?.fingerprint !== this.fingerprint || !saved.revision) {
      return false;
    }
    store.load(saved);
    return true;
  }
}

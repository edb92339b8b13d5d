/**
 * Long parse loops of a refresh, cut into slices of a few milliseconds with
 * a turn of the event loop between them. Two reasons: the backend answers
 * its routes while a first index of 100k workloads is parsed, and the
 * index's `git cat-file --batch` (`catFileBatch.ts`) keeps streaming the
 * next batch's blobs: git blocks once the pipe holds 64 KiB, and Node only
 * drains the pipe when the loop turns, so without the turns git sat idle
 * while JavaScript parsed, and JavaScript sat idle while git read.
 */
import { setImmediate as nextTurn } from 'node:timers/promises';

/** Work between two turns of the event loop, in milliseconds. */
export const SLICE_MS = 10;

export class EventLoopSlices {
  private sliceStart = performance.now();

  constructor(private readonly sliceMs = SLICE_MS) {}

  /** Lets the event loop turn when the current slice has used its time. */
  async maybeYield(): Promise<void> {
    if (performance.now() - this.sliceStart < this.sliceMs) return;
    await nextTurn();
    this.sliceStart = performance.now();
  }
}

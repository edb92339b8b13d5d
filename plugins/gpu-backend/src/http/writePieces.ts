/**
 * A response body written piece by piece: each piece waits until the
 * socket has taken the last (a slow reader holds one piece in the
 * backend's memory, not the whole body, and the event loop turns between
 * pieces); a client that goes away stops the writing.
 */
import type express from 'express';

function drainedOrClosed(res: express.Response): Promise<void> {
  return new Promise(resolve => {
    const done = () => {
      res.off('drain', done);
      res.off('close', done);
      resolve();
    };
    res.on('drain', done);
    res.on('close', done);
  });
}

export async function writePieces(
  res: express.Response,
  pieces: Iterable<string | Uint8Array>,
): Promise<void> {
  for (const piece of pieces) {
    if (res.destroyed) return;
    if (!res.write(piece)) await drainedOrClosed(res);
  }
  if (!res.destroyed) res.end();
}

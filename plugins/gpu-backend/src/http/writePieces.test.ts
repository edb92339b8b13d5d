import http from 'node:http';
import type { AddressInfo } from 'node:net';
import express from 'express';
import { writePieces } from './writePieces';

const MiB = 2 ** 20;

/** A server whose one route writes `count` pieces of 1 MiB; what it pulled and whether it finished. */
async function servePieces(count: number) {
  const state = { pulled: 0, finished: undefined as Promise<void> | undefined };
  function* pieces() {
    for (let i = 0; i < count; i++) {
      state.pulled++;
      yield Buffer.alloc(MiB, 'x');
    }
  }
  const app = express().get('/', (_req, res) => {
    res.type('text');
    state.finished = writePieces(res, pieces());
  });
  const server = http.createServer(app);
  await new Promise<void>(resolve => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    port,
    state,
    close: () => new Promise<void>(resolve => server.close(() => resolve())),
  };
}

describe('writePieces', () => {
  it('writes every piece, in order, and ends the response', async () => {
    const served = await servePieces(5);
    try {
      const body = await new Promise<Buffer>((resolve, reject) => {
        http
          .get({ host: '127.0.0.1', port: served.port, path: '/' }, res => {
            const chunks: Buffer[] = [];
            res.on('data', c => chunks.push(c));
            res.on('end', () => resolve(Buffer.concat(chunks)));
          })
          .on('error', reject);
      });
      expect(body.length).toBe(5 * MiB);
      await served.state.finished;
      expect(served.state.pulled).toBe(5);
    } finally {
      await served.close();
    }
  });

  it('stops, and lets go of the response, when the client goes away', async () => {
    const served = await servePieces(200);
    try {
      await new Promise<void>((resolve, reject) => {
        const req = http.get(
          { host: '127.0.0.1', port: served.port, path: '/' },
          res => {
            // Read nothing more: the socket's buffers fill, then the client leaves.
            res.pause();
            setTimeout(() => {
              req.destroy();
              resolve();
            }, 200);
          },
        );
        req.on('error', error => {
          if ((error as NodeJS.ErrnoException).code !== 'ECONNRESET') {
            reject(error);
          }
        });
      });
      await served.state.finished;
      expect(served.state.pulled).toBeLessThan(200);
    } finally {
      await served.close();
    }
  });
});

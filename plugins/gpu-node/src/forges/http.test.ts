import net from 'node:net';
import type { AddressInfo } from 'node:net';
import { createForge } from './createForge';
import { ForgeError, ForgeHttpClient } from './http';

const TOKEN = 'canary-forge-token-3c4d5e6f';

/**
 * A server that accepts connections and never answers (or, with
 * `partialReply`, sends response headers and part of the body, then stalls).
 */
async function startStalledServer(partialReply?: string) {
  const sockets: net.Socket[] = [];
  const server = net.createServer(socket => {
    sockets.push(socket);
    socket.on('error', () => undefined);
    if (partialReply) socket.write(partialReply);
  });
  await new Promise<void>(resolve => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    baseUrl: `http://127.0.0.1:${port}`,
    connections: () => sockets.length,
    close: () =>
      new Promise<void>(resolve => {
        sockets.forEach(s => s.destroy());
        server.close(() => resolve());
      }),
  };
}

describe('ForgeHttpClient timeout', () => {
  it.each([
    ['never answers', undefined],
    [
      'stalls in the body',
      'HTTP/1.1 201 Created\r\ncontent-type: application/json\r\ncontent-length: 100\r\n\r\n{"number":',
    ],
  ])(
    'ends a forge that %s, says so, and does not retry',
    async (_case, partialReply) => {
      const server = await startStalledServer(partialReply);
      try {
        const client = new ForgeHttpClient({
          forgeName: 'GitHub',
          apiBaseUrl: server.baseUrl,
          token: TOKEN,
          timeoutMs: 1000,
          retry: { sleep: async () => undefined },
        });
        const started = Date.now();
        const error = await client
          .request('POST', '/repos/o/r/pulls', { title: 't' })
          .catch(e => e);
        // A hang guard, not a speed goal.
        expect(Date.now() - started).toBeLessThan(20_000);
        expect(error).toBeInstanceOf(ForgeError);
        expect(error.status).toBe(0);
        expect(error.message).toContain(
          'GitHub did not answer within 1 s (POST /repos/o/r/pulls)',
        );
        expect(error.message).not.toContain(TOKEN);
        expect(server.connections()).toBe(1);
      } finally {
        await server.close();
      }
    },
  );

  it('reaches every forge through createForge', async () => {
    const server = await startStalledServer();
    try {
      const forge = createForge('gitlab', {
        token: TOKEN,
        apiBaseUrl: server.baseUrl,
        timeoutMs: 1000,
      });
      const error = await forge
        .createOrUpdatePullRequest({
          repoUrl: 'https://gitlab.example.com/o/r.git',
          baseBranch: 'main',
          headBranch: 'gpu/ml-llm',
          title: 't',
          body: 'b',
        })
        .catch(e => e);
      expect(error.message).toContain('GitLab did not answer within 1 s');
    } finally {
      await server.close();
    }
  });
});

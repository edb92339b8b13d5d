import { promises as fs } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { GitAuth } from '@gpu-gitops/plugin-gpu-node';
import {
  processesLeftTalkingTo,
  startGitHttpServer,
} from '@gpu-gitops/plugin-gpu-node/testUtils';
import {
  createFixtureRemote,
  type FixtureRemote,
} from '../__testUtils__/fixtureRemote';
import { filesLeaking, leakedForms } from '../__testUtils__/secretLeaks';
import { FetchTimeoutError, GitFetchSource } from './gitSnapshot';

jest.setTimeout(60_000);

const CANARY = 'canary-index-token-7f3e9a1c5b';

const basic = (user: string, token: string) =>
  `Basic ${Buffer.from(`${user}:${token}`).toString('base64')}`;

describe('GitFetchSource over smart HTTP with credentials', () => {
  let remote: FixtureRemote;
  let cacheDir: string;
  /** The header the server accepts right now. */
  let accepted: string;
  let server: Awaited<ReturnType<typeof startGitHttpServer>>;
  /** While true the server accepts requests and never answers them. */
  let stalled: boolean;

  beforeEach(async () => {
    remote = await createFixtureRemote();
    cacheDir = await fs.mkdtemp(path.join(os.tmpdir(), 'gpu-index-http-'));
    accepted = basic('x-access-token', CANARY);
    stalled = false;
    server = await startGitHttpServer({
      projectRoot: remote.root,
      authorization: () => accepted,
      stall: () => stalled,
    });
  });

  afterEach(async () => {
    await server.close();
    await remote.cleanup();
    await fs.rm(cacheDir, { recursive: true, force: true });
  });

  const repoUrl = () => `${server.baseUrl}/remote.git`;

  it('sends the token in a header and asks for credentials again on every fetch (tokens rotate)', async () => {
    let current = CANARY;
    const asked: string[] = [];
    const source = new GitFetchSource({
      repoUrl: repoUrl(),
      baseBranch: 'main',
      cacheDir,
      credentials: async (): Promise<GitAuth> => {
        asked.push(current);
        return { token: current };
      },
    });

    const first = await source.sync();
    const { blobs } = await source.listBlobs(first.revision, ['clusters']);
    expect(blobs.has('clusters/dev/gpu/nodepools/gpu-t4-ts4.yaml')).toBe(true);

    // The token is replaced (a new GitHub App installation token) and the
    // repository moves on: the next fetch must use the new one.
    current = 'rotated-index-token-2d8b6f';
    accepted = basic('x-access-token', current);
    const moved = await remote.commit(
      { 'docs/notes.md': 'moved on\n' },
      'move',
    );
    const second = await source.sync();
    expect(second).toEqual({ revision: moved });
    expect(moved).not.toBe(first.revision);
    expect(asked).toEqual([CANARY, current]);

    // Every request carried the header (git never had to ask).
    expect(server.requests.length).toBeGreaterThan(0);
    expect(server.requests.filter(r => r.authorization === undefined)).toEqual(
      [],
    );
    // Nothing in the cache keeps either token.
    expect(await filesLeaking(cacheDir, CANARY)).toEqual([]);
    expect(await filesLeaking(cacheDir, current)).toEqual([]);
  });

  it('pairs the token with the user it is given (GitLab oauth2, Gitea user)', async () => {
    accepted = basic('oauth2', CANARY);
    const source = new GitFetchSource({
      repoUrl: repoUrl(),
      baseBranch: 'main',
      cacheDir,
      credentials: async () => ({ token: CANARY, username: 'oauth2' }),
    });
    await expect(source.sync()).resolves.toEqual({
      revision: expect.stringMatching(/^[0-9a-f]{40}$/),
    });
  });

  it('keeps a refused token out of the error', async () => {
    accepted = basic('x-access-token', 'the-token-the-server-wants');
    const source = new GitFetchSource({
      repoUrl: repoUrl(),
      baseBranch: 'main',
      cacheDir,
      credentials: async () => ({ token: CANARY }),
    });
    const error: Error = await source.sync().then(
      () => {
        throw new Error('the fetch should have been refused');
      },
      (e: Error) => e,
    );
    expect(error.message).toMatch(/^git fetch failed/);
    expect(leakedForms(`${error.message}\n${error.stack}`, CANARY)).toEqual([]);
    expect(await filesLeaking(cacheDir, CANARY)).toEqual([]);
  });

  it('without credentials says which host needs an integrations entry', async () => {
    const source = new GitFetchSource({
      repoUrl: repoUrl(),
      baseBranch: 'main',
      cacheDir,
      credentials: async () => ({}),
    });
    const host = new URL(server.baseUrl).host;
    await expect(source.sync()).rejects.toThrow(
      `No credentials were sent to ${host}: configure an integrations entry (github, gitlab or gitea) for ${host}`,
    );
  });

  it('never asks for credentials for a local path or file:// URL', async () => {
    for (const url of [remote.url, `file://${remote.url}`]) {
      const source = new GitFetchSource({
        repoUrl: url,
        baseBranch: 'main',
        cacheDir,
        credentials: () => {
          throw new Error('a local repository needs no credentials');
        },
      });
      await expect(source.sync()).resolves.toEqual({
        revision: expect.stringMatching(/^[0-9a-f]{40}$/),
      });
    }
  });

  it('ends a fetch the remote never answers, kills git and its helpers, and fetches again later', async () => {
    stalled = true;
    const source = new GitFetchSource({
      repoUrl: repoUrl(),
      baseBranch: 'main',
      cacheDir,
      credentials: async () => ({}),
      timeoutMs: 1000,
    });
    const started = Date.now();
    const error: Error = await source.sync().then(
      () => new Error('the fetch should have timed out'),
      (e: Error) => e,
    );
    // A hang guard, not a speed goal.
    expect(Date.now() - started).toBeLessThan(20_000);
    expect(error).toBeInstanceOf(FetchTimeoutError);
    expect(error.message).toContain('git fetch did not finish within 1 s');
    expect(error.message).toContain('the index keeps its last snapshot');
    expect(error.message).not.toContain('No credentials were sent');
    const port = new URL(server.baseUrl).port;
    expect(await processesLeftTalkingTo(port)).toEqual([]);

    stalled = false;
    accepted = basic('x-access-token', CANARY);
    const answering = new GitFetchSource({
      repoUrl: repoUrl(),
      baseBranch: 'main',
      cacheDir,
      credentials: async () => ({ token: CANARY }),
      timeoutMs: 10_000,
    });
    await expect(answering.sync()).resolves.toEqual({
      revision: expect.stringMatching(/^[0-9a-f]{40}$/),
    });
  });
});

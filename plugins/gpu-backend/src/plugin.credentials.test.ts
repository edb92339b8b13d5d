import { execFileSync } from 'node:child_process';
import { promises as fs } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import request from 'supertest';
import { mockServices, startTestBackend } from '@backstage/backend-test-utils';
import type { Entity } from '@backstage/catalog-model';
import { catalogServiceMock } from '@backstage/plugin-catalog-node/testUtils';
import { startGitHttpServer } from '@gpu-gitops/plugin-gpu-node/testUtils';
import {
  createFixtureRemote,
  type FixtureRemote,
} from './__testUtils__/fixtureRemote';
import { filesLeaking, leakedForms } from './__testUtils__/secretLeaks';
import { gpuPlugin } from './plugin';

jest.setTimeout(120_000);

const CANARY = 'canary-integration-token-5c1d9e7a3f';

const basic = (user: string, token: string) =>
  `Basic ${Buffer.from(`${user}:${token}`).toString('base64')}`;

const chatAssistant: Entity = {
  apiVersion: 'backstage.io/v1alpha1',
  kind: 'Component',
  metadata: {
    name: 'chat-assistant',
    namespace: 'default',
    annotations: { 'backstage.io/kubernetes-id': 'chat-assistant' },
  },
  spec: { type: 'service', lifecycle: 'production', owner: 'ml-platform' },
};

describe('gpu backend plugin reading a private GitOps repository with the integration credentials', () => {
  let remote: FixtureRemote;
  let temp: string;
  let server: Awaited<ReturnType<typeof startGitHttpServer>>;
  /** The Authorization header the git server accepts. */
  let accepted: string;

  beforeAll(async () => {
    remote = await createFixtureRemote();
    server = await startGitHttpServer({
      projectRoot: remote.root,
      authorization: () => accepted,
    });
  });
  afterAll(async () => {
    await server?.close();
    await remote?.cleanup();
  });
  beforeEach(async () => {
    temp = await fs.mkdtemp(path.join(os.tmpdir(), 'gpu-backend-private-'));
  });
  afterEach(async () => {
    await fs.rm(temp, { recursive: true, force: true });
  });

  const host = () => new URL(server.baseUrl).host;

  /** Starts the backend (the index refreshes once at start-up) with a logger whose lines the test reads. */
  async function startBackend(
    forge: string,
    integrations: Record<string, Array<Record<string, string>>>,
  ) {
    const logger = mockServices.logger.mock();
    const backend = await startTestBackend({
      features: [
        gpuPlugin,
        logger.factory,
        catalogServiceMock.factory({ entities: [chatAssistant] }),
        mockServices.rootConfig.factory({
          data: {
            integrations,
            gpu: {
              gitops: {
                repoUrl: `${server.baseUrl}/remote.git`,
                forge,
                cacheDir: path.join(temp, 'cache'),
              },
              index: { refresh: '1h' },
            },
          },
        }),
      ],
    });
    const logLines = () =>
      [logger.info, logger.warn, logger.error, logger.debug]
        .flatMap(fn => fn.mock.calls)
        .map(call => call.map(String).join(' '));
    return { backend, logLines };
  }

  /** What an API user or an operator can see: routes, logs and the files the index keeps. */
  async function expectNoLeak(
    http: ReturnType<typeof request>,
    logLines: string[],
  ) {
    const routes = await Promise.all(
      [
        '/api/gpu/health',
        '/api/gpu/pools',
        '/api/gpu/allocation?entityRef=component:default/chat-assistant',
      ].map(route => http.get(route)),
    );
    const seen = [
      ...routes.map(r => `${JSON.stringify(r.headers)}${r.text}`),
      ...logLines,
    ].join('\n');
    expect(leakedForms(seen, CANARY)).toEqual([]);
    expect(await filesLeaking(temp, CANARY)).toEqual([]);
  }

  it.each([
    {
      forge: 'github',
      user: 'x-access-token',
      integrations: (h: string) => ({ github: [{ host: h, token: CANARY }] }),
    },
    {
      forge: 'gitlab',
      user: 'oauth2',
      integrations: (h: string) => ({
        gitlab: [{ host: h, apiBaseUrl: `http://${h}/api/v4`, token: CANARY }],
      }),
    },
    {
      forge: 'gitea',
      user: 'gpu-bot',
      integrations: (h: string) => ({
        gitea: [
          {
            host: h,
            baseUrl: `http://${h}`,
            username: 'gpu-bot',
            password: CANARY,
          },
        ],
      }),
    },
  ])(
    'indexes the repository with the $forge integration of its host (git user $user)',
    async ({ forge, user, integrations }) => {
      accepted = basic(user, CANARY);
      server.requests.length = 0;
      const { backend, logLines } = await startBackend(
        forge,
        integrations(host()),
      );
      const http = request(backend.server);

      const health = await http.get('/api/gpu/health');
      expect(health.body).toEqual({
        status: 'ok',
        revision: execFileSync('git', ['rev-parse', 'main'], {
          cwd: remote.url,
          encoding: 'utf8',
        }).trim(),
      });
      const allocation = await http
        .get('/api/gpu/allocation')
        .query({ entityRef: 'component:default/chat-assistant' });
      expect(allocation.status).toBe(200);
      expect(allocation.body.allocations).toEqual([
        expect.objectContaining({
          id: 'ml/chat-assistant',
          entityRef: 'component:default/chat-assistant',
        }),
      ]);
      // git sent the header on every request (no anonymous attempt first).
      expect(server.requests.length).toBeGreaterThan(0);
      expect(server.requests.filter(r => r.authorization !== accepted)).toEqual(
        [],
      );

      await expectNoLeak(http, logLines());
      await backend.stop();
    },
  );

  it('without an integration for the host, the refresh fails with an error naming the host and no token', async () => {
    accepted = basic('x-access-token', CANARY);
    const { backend, logLines } = await startBackend('github', {});
    const http = request(backend.server);

    const health = await http.get('/api/gpu/health');
    expect(health.body.revision).toBeUndefined();
    const failure = logLines().find(line =>
      line.startsWith('GPU allocation index refresh failed'),
    );
    expect(failure).toContain('git fetch failed');
    expect(failure).toContain(
      `No credentials were sent to ${host()}: configure an integrations entry`,
    );
    await backend.stop();
  });

  it('with a token the server refuses, the refresh fails and the token is nowhere', async () => {
    accepted = basic('x-access-token', 'the-token-the-server-wants');
    const { backend, logLines } = await startBackend('github', {
      github: [{ host: host(), token: CANARY }],
    });
    const http = request(backend.server);

    expect((await http.get('/api/gpu/health')).body.revision).toBeUndefined();
    expect(
      logLines().some(line =>
        line.startsWith(
          'GPU allocation index refresh failed: git fetch failed',
        ),
      ),
    ).toBe(true);
    await expectNoLeak(http, logLines());
    await backend.stop();
  });
});

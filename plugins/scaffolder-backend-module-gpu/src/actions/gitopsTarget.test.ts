import { existsSync, promises as fs } from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { InputError } from '@backstage/errors';
import { createMockActionContext } from '@backstage/plugin-scaffolder-node-test-utils';
import {
  createFixtureGitopsRepo,
  type FixtureRepo,
} from '../__testUtils__/fixtureGitopsRepo';
import { testServices } from '../__testUtils__/testServices';
import { createGpuGitopsPullRequestAction } from './gpuGitopsPullRequest';
import { createGpuGitopsRenderAction } from './gpuGitopsRender';
import { createGpuPlanAction } from './gpuPlan';

jest.setTimeout(60_000);

const CANARY = 'canary-action-url-token-4f5e6d7c';

const request = {
  name: 'chat-api',
  namespace: 'ml',
  owner: 'group:default/ml-platform',
  model: 't4',
  sharing: 'time-slicing' as const,
  replicas: 1,
  vramGiB: 3,
  image: 'ghcr.io/example/chat-api:1.0.0',
};

function capturingLogger(lines: string[]) {
  const logger = {
    info: (m: string) => lines.push(m),
    warn: (m: string) => lines.push(m),
    error: (m: string) => lines.push(m),
    debug: (m: string) => lines.push(m),
    child: () => logger,
  };
  return logger;
}

describe('repoUrl input with credentials', () => {
  let repo: FixtureRepo;
  beforeAll(async () => {
    repo = await createFixtureGitopsRepo();
  });
  afterAll(() => repo.cleanup());

  const actions = {
    'gpu:gitops:pull-request': createGpuGitopsPullRequestAction,
    'gpu:gitops:render': createGpuGitopsRenderAction,
    'gpu:plan': createGpuPlanAction,
  };

  describe.each(Object.entries(actions))('%s', (_id, create) => {
    it.each([
      [
        'https user-info',
        `https://x-access-token:${CANARY}@github.com/o/r.git`,
        'url-credentials',
      ],
      [
        'git:// user-info',
        `git://user:${CANARY}@git.example.com/o/r.git`,
        'url-credentials',
      ],
      [
        'a query token',
        `https://github.com/o/r.git?access_token=${CANARY}`,
        'url-query',
      ],
      ['an scp-style user', `${CANARY}@github.com:o/r.git`, 'url-credentials'],
    ])(
      'refuses %s with an InputError before anything runs; the token is in no log line or error',
      async (_form, repoUrl, rule) => {
        const lines: string[] = [];
        const ctx = createMockActionContext({
          input: { ...request, repoUrl },
          logger: capturingLogger(lines) as any,
        });
        const error: Error = await create(testServices(repo))
          .handler(ctx as any)
          .then(
            () => new Error('accepted'),
            (e: Error) => e,
          );
        expect(error).toBeInstanceOf(InputError);
        expect(error.message).toContain('input "repoUrl": ');
        expect(error.message).toContain(`[${rule}]`);
        expect(error.message).toContain('***');
        expect(
          `${error.message}${error.stack}${lines.join('\n')}${JSON.stringify(
            (ctx.output as jest.Mock).mock.calls,
          )}`,
        ).not.toContain(CANARY);
        // Nothing was cloned or fetched.
        expect(existsSync(repo.cacheDir)).toBe(false);
      },
    );
  });
});

describe('gpu.gitops.timeoutSeconds', () => {
  it('ends a run against a remote that never answers', async () => {
    const sockets: net.Socket[] = [];
    const server = net.createServer(socket => {
      sockets.push(socket);
      socket.on('error', () => undefined);
    });
    await new Promise<void>(resolve => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as net.AddressInfo;
    const cacheDir = await fs.mkdtemp(path.join(os.tmpdir(), 'gpu-timeout-'));
    try {
      const services = testServices(undefined, {
        gitops: {
          repoUrl: `http://127.0.0.1:${port}/gitops.git`,
          forge: 'local',
          cacheDir,
          timeoutSeconds: 1,
        },
      });
      const ctx = createMockActionContext({ input: request });
      const started = Date.now();
      const error: Error = await createGpuGitopsPullRequestAction(services)
        .handler(ctx as any)
        .then(
          () => new Error('accepted'),
          (e: Error) => e,
        );
      // A hang guard, not a speed goal.
      expect(Date.now() - started).toBeLessThan(20_000);
      expect(error.message).toContain('git clone did not finish within 1 s');
      expect(sockets.length).toBeGreaterThan(0);
    } finally {
      sockets.forEach(s => s.destroy());
      await new Promise<void>(resolve => server.close(() => resolve()));
      await fs.rm(cacheDir, { recursive: true, force: true });
    }
  });
});

import { promises as fs } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { GpuInputError, isGpuInputError } from '@gpu-gitops/plugin-gpu-common';
import { Redactor } from '../redact';
import { gitEnvironment } from './auth';
import { createSimpleGit } from './__testUtils__/simpleGitClient';
import { requestBranchName, requestTrailer } from './branchName';
import { GitOpsError } from './errors';
import { GitOpsRepository } from './GitOpsRepository';
import { BuiltCommit, PublishBranchOptions } from './publishBranch';
import {
  BareRemote,
  createBareRemote,
  refuseGpuBranchPushes,
  requireUpToDateBranches,
} from './__testUtils__/bareRemote';

const BRANCH = requestBranchName('ml', 'llm');
const TRAILER = requestTrailer('ml', 'llm');

const seed = {
  'README.md': 'gitops\n',
  'clusters/prod/gpu/kustomization.yaml': 'resources: []\n',
  'apps/other/svc/deploy.yaml': 'kind: Deployment\n',
};

describe('GitOpsRepository', () => {
  let remote: BareRemote;
  let cacheDir: string;

  beforeEach(async () => {
    remote = await createBareRemote(seed);
    cacheDir = await fs.mkdtemp(path.join(os.tmpdir(), 'gpu-gitops-cache-'));
  });
  afterEach(async () => {
    await remote.cleanup();
    await fs.rm(cacheDir, { recursive: true, force: true });
  });

  const repo = (
    extra: Partial<ConstructorParameters<typeof GitOpsRepository>[0]> = {},
  ) =>
    new GitOpsRepository({
      repoUrl: remote.url,
      cacheDir,
      author: { name: 'Platform Bot', email: 'bot@example.com' },
      ...extra,
    });

  const change = (content: string, message = 'gpu: ml/llm'): BuiltCommit => ({
    message,
    changes: [
      {
        path: 'clusters/prod/gpu/kustomization.yaml',
        action: 'update',
        content: `resources: [${content}]\n`,
      },
      {
        path: 'apps/ml/llm/deployment.yaml',
        action: 'create',
        content: `replicas: ${content}\n`,
      },
    ],
  });

  const publish = (
    r: GitOpsRepository,
    build: PublishBranchOptions['build'],
    more: Partial<PublishBranchOptions> = {},
  ) =>
    r.publishBranch({
      branch: BRANCH,
      trailer: TRAILER,
      sparsePaths: ['clusters/prod/gpu', 'apps/ml/llm'],
      build,
      ...more,
    });

  it('pushes one commit on the base with the configured author and trailer', async () => {
    const main = await remote.branchSha('main');
    const seen: string[] = [];
    const result = await publish(repo(), async ctx => {
      seen.push(
        await fs.readFile(
          path.join(ctx.workDir, 'clusters/prod/gpu/kustomization.yaml'),
          'utf8',
        ),
      );
      expect(ctx.baseSha).toBe(main);
      return change('a');
    });
    expect(seen).toEqual(['resources: []\n']);
    expect(result).toMatchObject({
      branch: 'gpu/ml-llm',
      baseSha: main,
      changed: true,
      pushed: true,
      branchExisted: false,
      attempts: 1,
      files: [
        'apps/ml/llm/deployment.yaml',
        'clusters/prod/gpu/kustomization.yaml',
      ],
    });
    expect(await remote.branchSha(BRANCH)).toBe(result.commit);
    expect((await remote.git(['rev-parse', `${BRANCH}^`])).trim()).toBe(main);
    expect(await remote.readFile(BRANCH, 'apps/ml/llm/deployment.yaml')).toBe(
      'replicas: a\n',
    );
    expect(await remote.readFile(BRANCH, 'apps/other/svc/deploy.yaml')).toBe(
      'kind: Deployment\n',
    );
    const log = await remote.git([
      'log',
      '-1',
      '--format=%an <%ae>%n%cn <%ce>%n%B',
      BRANCH,
    ]);
    expect(log).toContain(
      'Platform Bot <bot@example.com>\nPlatform Bot <bot@example.com>',
    );
    expect(log).toContain('gpu: ml/llm\n\nGpu-Request: ml/llm');
  });

  it('checks out only the sparse folders (cone mode) in the cached clone', async () => {
    const r = repo();
    await publish(r, async () => change('a'));
    const exists = (p: string) =>
      fs.access(path.join(r.workDir, p)).then(
        () => true,
        () => false,
      );
    expect(await exists('README.md')).toBe(true); // root files are always in the cone
    expect(await exists('clusters/prod/gpu/kustomization.yaml')).toBe(true);
    expect(await exists('apps/other/svc/deploy.yaml')).toBe(false);
    expect(
      await r.withBase(['apps/other'], async ({ workDir }) => ({
        workDir,
        read: await exists('apps/other/svc/deploy.yaml'),
      })),
    ).toEqual({ workDir: r.workDir, read: true });
  });

  it('clones shallow and blob-less over file:// when the remote allows filters', async () => {
    await remote.git(['config', 'uploadpack.allowFilter', 'true']);
    const r = repo({ repoUrl: `file://${remote.url}` });
    await publish(r, async () => change('a'));
    const git = createSimpleGit(r.workDir, gitEnvironment(r.workDir, {}));
    expect(
      (await git.raw(['rev-parse', '--is-shallow-repository'])).trim(),
    ).toBe('true');
    expect(
      (
        await git.raw(['config', '--get', 'remote.origin.partialclonefilter'])
      ).trim(),
    ).toBe('blob:none');
  });

  it('fetches into the cached clone instead of cloning again', async () => {
    const r = repo();
    await publish(r, async () => change('a'));
    const marker = path.join(r.workDir, '.git', 'clone-marker');
    await fs.writeFile(marker, 'x');
    const moved = await remote.commitFiles(
      { 'apps/x/y/z.yaml': 'z\n' },
      'other change',
    );
    const result = await publish(r, async ctx => {
      expect(ctx.baseSha).toBe(moved);
      return change('b');
    });
    expect(result.baseSha).toBe(moved);
    expect(await fs.readFile(marker, 'utf8')).toBe('x');
  });

  it('does nothing when the build finds the base already holds the request', async () => {
    const result = await publish(repo(), async () => ({
      message: 'm',
      changes: [],
    }));
    expect(result).toMatchObject({ changed: false, pushed: false, files: [] });
    expect(await remote.branchSha(BRANCH)).toBeUndefined();
    const same = await publish(repo(), async () => ({
      message: 'm',
      changes: [{ path: 'README.md', action: 'update', content: 'gitops\n' }],
    }));
    expect(same.changed).toBe(false);
    expect(await remote.branchSha(BRANCH)).toBeUndefined();
  });

  it('re-running updates our own branch with a lease, and skips an identical push', async () => {
    const first = await publish(repo(), async () => change('a'));
    const again = await publish(repo(), async () => change('a'));
    expect(again).toMatchObject({
      pushed: false,
      branchExisted: true,
      commit: first.commit,
    });
    const updated = await publish(repo(), async () => change('b'));
    expect(updated).toMatchObject({ pushed: true, branchExisted: true });
    expect(await remote.branchSha(BRANCH)).toBe(updated.commit);
    expect(await remote.readFile(BRANCH, 'apps/ml/llm/deployment.yaml')).toBe(
      'replicas: b\n',
    );
    // Still exactly one commit on top of main.
    expect(
      (await remote.git(['rev-list', '--count', `main..${BRANCH}`])).trim(),
    ).toBe('1');
  });

  it('updates an existing branch on an unmoved base with one build of the change', async () => {
    await publish(repo(), async () => change('a'));
    let builds = 0;
    const updated = await publish(repo(), async () => {
      builds++;
      return change('b');
    });
    expect(updated).toMatchObject({ pushed: true, branchExisted: true });
    expect(await remote.readFile(BRANCH, 'apps/ml/llm/deployment.yaml')).toBe(
      'replicas: b\n',
    );
    expect(builds).toBe(1);
  });

  it('pushes once to a branch the caller knows exists (branchExists), where a new-branch push is refused first; and still opens one that is gone', async () => {
    await publish(repo(), async () => change('a'));
    const pushesOf = async (content: string, branchExists?: boolean) => {
      let pushes = 0;
      const result = await publish(repo(), async () => change(content), {
        branchExists,
        beforePush: async () => {
          pushes++;
        },
      });
      expect(result).toMatchObject({ pushed: true, attempts: 1 });
      return pushes;
    };
    expect(await pushesOf('b')).toBe(2);
    expect(await pushesOf('c', true)).toBe(1);
    expect(await remote.readFile(BRANCH, 'apps/ml/llm/deployment.yaml')).toBe(
      'replicas: c\n',
    );
    await remote.git(['branch', '-D', BRANCH]);
    expect(await pushesOf('d', true)).toBe(1);
    expect(await remote.readFile(BRANCH, 'apps/ml/llm/deployment.yaml')).toBe(
      'replicas: d\n',
    );
  });

  it('rebuilds a stale branch on the moved base', async () => {
    await publish(repo(), async () => change('a'));
    const moved = await remote.commitFiles(
      { 'clusters/prod/gpu/other.yaml': 'x\n' },
      'moved',
    );
    const result = await publish(repo(), async () => change('a'));
    expect(result.pushed).toBe(true);
    expect((await remote.git(['rev-parse', `${BRANCH}^`])).trim()).toBe(moved);
  });

  it('refuses to overwrite a branch with foreign commits', async () => {
    await publish(repo(), async () => change('a'));
    const foreign = await remote.commitFiles(
      { 'apps/ml/llm/extra.yaml': 'mine\n' },
      'a reviewer fix',
      BRANCH,
    );
    const error = await publish(repo(), async () => change('b')).catch(e => e);
    expect(error).toBeInstanceOf(GitOpsError);
    expect(error.kind).toBe('foreign-commits');
    expect(error.message).toMatch(
      /branch gpu\/ml-llm .* has commits that were not made for this request/,
    );
    expect(await remote.branchSha(BRANCH)).toBe(foreign);
  });

  it('does not fail on a foreign branch when there is nothing to push', async () => {
    await publish(repo(), async () => change('a'));
    await remote.commitFiles(
      { 'apps/ml/llm/extra.yaml': 'mine\n' },
      'fix',
      BRANCH,
    );
    const result = await publish(repo(), async () => undefined);
    expect(result.changed).toBe(false);
  });

  it('recovers when a previous run was killed between commit and push', async () => {
    const r = repo();
    await expect(
      publish(r, async () => change('a'), {
        beforePush: async () => {
          throw new Error('killed');
        },
      }),
    ).rejects.toThrow('killed');
    expect(await remote.branchSha(BRANCH)).toBeUndefined();
    // Leftovers a hard kill could leave: stale locks and stray files.
    await fs.writeFile(path.join(r.workDir, '.git', 'index.lock'), '');
    await fs.writeFile(
      path.join(r.workDir, '.git', 'info', 'sparse-checkout.lock'),
      '',
    );
    await fs.writeFile(path.join(r.workDir, '.git', 'shallow.lock'), '');
    await fs.writeFile(
      path.join(r.workDir, 'clusters/prod/gpu/stray.yaml'),
      'stray\n',
    );
    const result = await publish(repo(), async () => change('a'));
    expect(result).toMatchObject({ pushed: true, branchExisted: false });
    expect(
      await remote.readFile(BRANCH, 'clusters/prod/gpu/stray.yaml'),
    ).toBeUndefined();
    expect(await remote.readFile(BRANCH, 'apps/ml/llm/deployment.yaml')).toBe(
      'replicas: a\n',
    );
  });

  it.each([
    [
      'a dangling link at the file',
      'apps/ml/llm/deployment.yaml',
      'apps/ml/llm/deployment.yaml',
    ],
    ['a link to an outside folder on the way', 'apps/ml', 'apps/ml'],
  ])(
    'refuses to write through %s, creates nothing at its target and pushes nothing',
    async (_case, linkPath, refusedPath) => {
      const outside = path.join(remote.root, 'outside');
      const target = path.join(outside, 'target');
      await remote.commitFiles({ [linkPath]: { symlink: target } }, 'a link');
      const error = await publish(repo(), async () => change('a')).catch(
        e => e,
      );
      expect(isGpuInputError(error)).toBe(true);
      expect(error.issues[0]).toMatchObject({
        path: refusedPath,
        rule: 'symlink',
      });
      expect(error.message).toContain('symbolic link');
      expect(await fs.readdir(remote.root)).not.toContain('outside');
      expect(await remote.branchSha(BRANCH)).toBeUndefined();
      // The lock was released: a later run with the link gone succeeds.
      await remote.commitFiles({ [linkPath]: null }, 'no link');
      const again = await publish(repo(), async () => change('b'));
      expect(again.pushed).toBe(true);
    },
  );

  it('re-clones a corrupt cache', async () => {
    const r = repo();
    await fs.mkdir(path.join(r.workDir, '.git'), { recursive: true });
    await fs.writeFile(path.join(r.workDir, '.git', 'HEAD'), 'garbage');
    const result = await publish(r, async () => change('a'));
    expect(result.pushed).toBe(true);
  });

  it('retries on the new base when the push is rejected because main moved', async () => {
    await requireUpToDateBranches(remote);
    const builds: string[] = [];
    let moved: string | undefined;
    const result = await publish(
      repo(),
      async ctx => {
        builds.push(ctx.baseSha);
        return change(`attempt${ctx.attempt}`);
      },
      {
        beforePush: async attempt => {
          if (attempt === 1) {
            moved = await remote.commitFiles(
              { 'apps/x/y/z.yaml': 'z\n' },
              'someone merged',
            );
          }
        },
      },
    );
    expect(result.attempts).toBe(2);
    expect(builds).toHaveLength(2);
    expect(builds[1]).toBe(moved);
    expect((await remote.git(['rev-parse', `${BRANCH}^`])).trim()).toBe(moved);
    expect(await remote.readFile(BRANCH, 'apps/ml/llm/deployment.yaml')).toBe(
      'replicas: attempt2\n',
    );
  });

  it('gives up after bounded retries with a clear error', async () => {
    await requireUpToDateBranches(remote);
    let n = 0;
    const error = await publish(repo(), async () => change('a'), {
      maxAttempts: 3,
      beforePush: async () => {
        await remote.commitFiles(
          { [`apps/x/y/${n++}.yaml`]: 'z\n' },
          'keeps moving',
        );
      },
    }).catch(e => e);
    expect(error.kind).toBe('push-rejected');
    expect(error.message).toMatch(/rejected 3 times/);
    expect(n).toBe(3);
    expect(await remote.branchSha(BRANCH)).toBeUndefined();
  });

  it('reports a push refused by a pre-receive hook once, quoting the remote', async () => {
    await refuseGpuBranchPushes(remote, [
      'policy: commits to gpu/* need a signed-off-by line',
      'see https://wiki.example.com/gitops-rules',
    ]);
    const attempts: number[] = [];
    const error = await publish(repo(), async () => change('a'), {
      beforePush: async attempt => {
        attempts.push(attempt);
      },
    }).catch(e => e);
    expect(attempts).toEqual([1]);
    expect(error).toBeInstanceOf(GitOpsError);
    expect(error.kind).toBe('push-refused');
    expect(error.message).toContain(
      'refs/heads/gpu/ml-llm (pre-receive hook declined)',
    );
    expect(error.message).toContain(
      'remote: policy: commits to gpu/* need a signed-off-by line',
    );
    expect(error.message).toContain(
      'remote: see https://wiki.example.com/gitops-rules',
    );
    expect(error.message).toMatch(/not retried/);
    expect(error.message).not.toMatch(/kept moving/);
    expect(await remote.branchSha(BRANCH)).toBeUndefined();
  });

  it('never retries a protected-branch refusal, even when the base moved meanwhile', async () => {
    await refuseGpuBranchPushes(remote, [
      'error: GH006: Protected branch update failed for refs/heads/gpu/ml-llm.',
    ]);
    const attempts: number[] = [];
    const error = await publish(repo(), async () => change('a'), {
      beforePush: async attempt => {
        attempts.push(attempt);
        await remote.commitFiles({ 'apps/x/y/z.yaml': 'z\n' }, 'moved');
      },
    }).catch(e => e);
    expect(attempts).toEqual([1]);
    expect(error.kind).toBe('push-refused');
    expect(error.message).toContain('GH006: Protected branch update failed');
    expect(error.message).toContain('(a protected branch)');
  });

  it('sends the token only in an auth header and redacts it from errors', async () => {
    const token = 'canary-git-token-0123456789';
    const seen: http.IncomingHttpHeaders[] = [];
    const urls: string[] = [];
    const server = http.createServer((req, res) => {
      seen.push(req.headers);
      urls.push(req.url ?? '');
      res.writeHead(403, { 'content-type': 'text/plain' });
      res.end(`denied for ${token}\n`);
    });
    await new Promise<void>(resolve => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as AddressInfo;
    try {
      const r = repo({
        repoUrl: `http://127.0.0.1:${port}/acme/gitops.git`,
        token,
        redactor: new Redactor(),
      });
      const error = await publish(r, async () => change('a')).catch(e => e);
      expect(error).toBeInstanceOf(GitOpsError);
      expect(error.kind).toBe('auth');
      expect(error.message).toMatch(
        /token is missing, invalid or lacks write access/,
      );
      expect(error.message).not.toContain(token);
      expect(error.stack ?? '').not.toContain(token);
      const expected = `Basic ${Buffer.from(`x-access-token:${token}`).toString('base64')}`;
      expect(seen[0].authorization).toBe(expected);
      expect(urls.join(' ')).not.toContain(token);
    } finally {
      await new Promise<void>(resolve => server.close(() => resolve()));
    }
  });

  it.each([
    [
      'https user-info',
      'https://bot:canary-url-secret-1@git.example.com/a/b.git',
      'url-credentials',
    ],
    [
      'git:// user-info',
      'git://bot:canary-url-secret-1@git.example.com/a/b.git',
      'url-credentials',
    ],
    [
      'a query token',
      'https://git.example.com/a/b.git?access_token=canary-url-secret-1',
      'url-query',
    ],
    [
      'an scp-style user',
      'canary-url-secret-1@git.example.com:a/b.git',
      'url-credentials',
    ],
  ])(
    'refuses a repository URL with %s before anything runs',
    async (_form, repoUrl, rule) => {
      const error = (() => {
        try {
          repo({ repoUrl });
          return undefined;
        } catch (e) {
          return e as GpuInputError;
        }
      })();
      expect(isGpuInputError(error)).toBe(true);
      expect(error!.issues.map(i => i.rule)).toContain(rule);
      expect(error!.issues[0].path).toBe('repoUrl');
      expect(`${error!.message}${error!.stack}`).not.toContain(
        'canary-url-secret-1',
      );
      // Nothing was cloned: not even the cache folder exists.
      expect(await fs.readdir(cacheDir)).toEqual([]);
    },
  );
});

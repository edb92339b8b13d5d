/**
 * Reliability of the publisher against real git: moved bases, killed runs,
 * re-runs, secrets, and many concurrent requests against one repository.
 *
 * How staleness is resolved (the product's rule, exercised below): every run
 * rebuilds the change on the current base. When a request's branch no longer
 * merges cleanly because other requests were merged first (shared files such
 * as the cluster kustomization, a shared NodePool's limits or the mig-parted
 * config), re-running the same request rebuilds its branch on the new main;
 * the rebuilt branch then merges cleanly and keeps every entry already there.
 */
import { promises as fs } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { GpuRequest } from '@gpu-gitops/plugin-gpu-common';
import { createForge } from '../forges/createForge';
import {
  on,
  startFakeForgeServer,
} from '../forges/__testUtils__/fakeForgeServer';
import { gitEnvironment } from '../git/auth';
import { createSimpleGit } from '../git/__testUtils__/simpleGitClient';
import {
  BareRemote,
  createBareRemote,
  requireUpToDateBranches,
} from '../git/__testUtils__/bareRemote';
import { readRepoState } from '../repo/readRepoState';
import { FsRepoTree } from '../repo/tree';
import {
  publishGpuRequest,
  PublishGpuRequestOptions,
} from './publishGpuRequest';
import {
  catalog,
  cluster,
  gpuRequest,
  seedFiles,
} from './__testUtils__/fixtures';

jest.setTimeout(240_000);

describe('publishGpuRequest reliability', () => {
  let remote: BareRemote;
  let tmp: string;
  let lines: string[];

  beforeEach(async () => {
    remote = await createBareRemote(seedFiles);
    tmp = await fs.mkdtemp(path.join(os.tmpdir(), 'gpu-gitops-rel-'));
    lines = [];
  });
  afterEach(async () => {
    await remote.cleanup();
    await fs.rm(tmp, { recursive: true, force: true });
  });

  const options = (
    request: GpuRequest,
    more: Partial<PublishGpuRequestOptions> = {},
  ): PublishGpuRequestOptions => ({
    request,
    cluster,
    catalog,
    repoUrl: remote.url,
    cacheDir: path.join(tmp, 'cache'),
    logger: {
      info: m => lines.push(m),
      warn: m => lines.push(m),
      error: m => lines.push(m),
    },
    ...more,
  });

  /** A full working clone of the remote, as a reviewer merging PRs would use. */
  async function mergerClone() {
    const dir = path.join(tmp, 'merger');
    const env = gitEnvironment(
      remote.url,
      {},
      {
        GIT_AUTHOR_NAME: 'Reviewer',
        GIT_AUTHOR_EMAIL: 'reviewer@example.com',
        GIT_COMMITTER_NAME: 'Reviewer',
        GIT_COMMITTER_EMAIL: 'reviewer@example.com',
      },
    );
    await createSimpleGit(tmp, env).raw(['clone', '--quiet', remote.url, dir]);
    const git = createSimpleGit(dir, env);
    return {
      dir,
      /** Merges a branch into main and pushes; false (and aborted) on conflict. */
      async merge(branch: string): Promise<boolean> {
        await git.raw(['fetch', '--quiet', 'origin']);
        await git.raw(['checkout', '--quiet', '-B', 'main', 'origin/main']);
        // simple-git does not always reject on a conflicted merge: check the index.
        const conflicted = await git
          .raw(['merge', '--no-ff', '--no-edit', `origin/${branch}`])
          .then(
            async () =>
              (
                await git.raw(['diff', '--name-only', '--diff-filter=U'])
              ).trim() !== '',
            () => true,
          );
        if (conflicted) {
          await git.raw(['merge', '--abort']);
          return false;
        }
        await git.raw(['push', '--quiet', 'origin', 'main']);
        return true;
      },
    };
  }

  it('a push rejected because main moved is retried on the new base', async () => {
    await requireUpToDateBranches(remote);
    const merger = await mergerClone();
    const other = await publishGpuRequest(
      options(gpuRequest('other'), { cacheDir: path.join(tmp, 'c2') }),
    );
    let mainAfterMerge: string | undefined;
    let mergedMeanwhile: boolean | undefined;
    const result = await publishGpuRequest(
      options(gpuRequest('llm'), {
        beforePush: async attempt => {
          if (attempt !== 1) return;
          // Someone merges another request while we are about to push.
          mergedMeanwhile = await merger.merge(other.branch);
          mainAfterMerge = await remote.branchSha('main');
        },
      }),
    );
    expect(mergedMeanwhile).toBe(true);
    expect(result.attempts).toBe(2);
    expect(result.baseSha).toBe(mainAfterMerge);
    expect((await remote.git(['rev-parse', 'gpu/ml-llm^'])).trim()).toBe(
      mainAfterMerge,
    );
    // The rebuild saw the merged request: the pool it created is reused.
    expect(result.plan.pool.name).toBe(other.plan.pool.name);
    expect(result.plan.pool.reused).toBe(true);
    expect(
      lines.some(l => /push of gpu\/ml-llm rejected \(attempt 1\/3\)/.test(l)),
    ).toBe(true);
    expect(await merger.merge(result.branch)).toBe(true);
  });

  it('a run killed between commit and push is followed by a successful re-run', async () => {
    const cacheDir = path.join(tmp, 'cache');
    await expect(
      publishGpuRequest(
        options(gpuRequest('llm'), {
          cacheDir,
          beforePush: async () => {
            throw new Error('process killed');
          },
        }),
      ),
    ).rejects.toThrow('process killed');
    expect(await remote.branchSha('gpu/ml-llm')).toBeUndefined();
    const result = await publishGpuRequest(
      options(gpuRequest('llm'), { cacheDir }),
    );
    expect(result).toMatchObject({ changed: true, updated: false });
    expect(await remote.branchSha('gpu/ml-llm')).toBe(result.commit);
  });

  it('re-running the same request updates the existing branch and PR', async () => {
    const server = await startFakeForgeServer([
      on('POST', '/repos/acme/gitops/pulls', req =>
        server.requests.filter(r => r.method === 'POST').length === 1
          ? {
              status: 201,
              json: {
                number: 5,
                html_url: 'https://github.com/acme/gitops/pull/5',
              },
            }
          : {
              status: 422,
              json: {
                message: 'Validation Failed',
                errors: [
                  {
                    resource: 'PullRequest',
                    code: 'custom',
                    message: `A pull request already exists for acme:${req.body.head}.`,
                  },
                ],
              },
            },
      ),
      on(
        'GET',
        '/repos/acme/gitops/pulls?head=acme%3Agpu%2Fml-llm&state=open',
        {
          status: 200,
          json: [
            { number: 5, html_url: 'https://github.com/acme/gitops/pull/5' },
          ],
        },
      ),
      on('PATCH', '/repos/acme/gitops/pulls/5', {
        status: 200,
        json: { number: 5, html_url: 'https://github.com/acme/gitops/pull/5' },
      }),
    ]);
    try {
      const forge = createForge('github', {
        token: 't0ken-123456',
        apiBaseUrl: server.baseUrl,
        repository: 'acme/gitops',
      });
      const first = await publishGpuRequest(
        options(gpuRequest('llm'), { forge }),
      );
      const second = await publishGpuRequest(
        options(gpuRequest('llm', { replicas: 4 }), { forge }),
      );
      expect(first).toMatchObject({ updated: false, number: 5 });
      expect(second).toMatchObject({
        updated: true,
        number: 5,
        url: 'https://github.com/acme/gitops/pull/5',
      });
      expect(await remote.branchSha('gpu/ml-llm')).toBe(second.commit);
      const patch = server.requests.find(r => r.method === 'PATCH')!;
      expect(patch.body.title).toBe(second.title);
      expect(patch.body.body).toContain('| Replicas | 4 |');
    } finally {
      await server.close();
    }
  });

  it('a canary token never appears in outputs, logs, errors or committed files', async () => {
    const canary = 'canary-Tok3n-5f1e2d3c4b5a69788796';
    const basic = Buffer.from(`x-access-token:${canary}`).toString('base64');
    let failNext = true;
    const server = await startFakeForgeServer([
      // A git remote over HTTP that refuses and echoes what it got.
      on('GET', /^\/acme\/gitops\.git\/info\/refs/, req => ({
        status: 401,
        json: {
          message: `bad credentials ${canary} ${req.headers.authorization}`,
        },
      })),
      on('POST', '/repos/acme/gitops/pulls', req => {
        if (failNext) {
          failNext = false;
          return {
            status: 403,
            json: {
              message: `token ${canary} / ${req.headers.authorization} lacks scope`,
            },
          };
        }
        return {
          status: 201,
          json: {
            number: 1,
            html_url: `https://github.com/acme/gitops/pull/1?t=${canary}`,
          },
        };
      }),
    ]);
    const outputs: string[] = [];
    try {
      const forge = () =>
        createForge('github', {
          token: canary,
          apiBaseUrl: server.baseUrl,
          repository: 'acme/gitops',
        });

      // 1. git over HTTP with the token: refused; the error is redacted.
      const gitError = await publishGpuRequest(
        options(gpuRequest('llm'), {
          repoUrl: `${server.baseUrl}/acme/gitops.git`,
          token: canary,
          forge: 'github',
        }),
      ).catch(e => e);
      outputs.push(gitError.message, gitError.stack ?? '');
      expect(gitError.message).toMatch(
        /token is missing, invalid or lacks write access/,
      );
      const gitAuth = server.requests.find(r =>
        r.url.startsWith('/acme/gitops.git'),
      )!;
      expect(gitAuth.headers.authorization).toBe(`Basic ${basic}`);

      // 2. forge refuses (403) and echoes the token: redacted error.
      const forgeError = await publishGpuRequest(
        options(gpuRequest('llm'), { token: canary, forge: forge() }),
      ).catch(e => e);
      outputs.push(forgeError.message, forgeError.stack ?? '');
      expect(forgeError.message).toMatch(/HTTP 403/);

      // 3. a full successful run (dry-run first, then for real).
      const dry = await publishGpuRequest(
        options(gpuRequest('llm'), {
          token: canary,
          forge: forge(),
          dryRun: true,
        }),
      );
      const result = await publishGpuRequest(
        options(gpuRequest('llm'), { token: canary, forge: forge() }),
      );
      outputs.push(JSON.stringify(dry), JSON.stringify(result));
      expect(result.url).toBe('https://github.com/acme/gitops/pull/1?t=***');
      expect(
        server.requests
          .filter(r => r.url === '/repos/acme/gitops/pulls')
          .every(r => r.headers.authorization === `Bearer ${canary}`),
      ).toBe(true);

      const committed = await remote.git([
        'log',
        '--all',
        '-p',
        '--format=%H%n%an%n%ae%n%B',
      ]);
      const everything = [...outputs, ...lines, committed].join('\n');
      expect(everything).not.toContain(canary);
      expect(everything).not.toContain(basic);
      expect(everything).not.toContain(encodeURIComponent(canary));
      // The cached clone's config keeps no credentials either.
      const configs = await fs.readdir(path.join(tmp, 'cache'));
      for (const dir of configs) {
        const config = await fs
          .readFile(path.join(tmp, 'cache', dir, '.git', 'config'), 'utf8')
          .catch(() => '');
        expect(config).not.toContain(canary);
      }
    } finally {
      await server.close();
    }
  });

  it('20 concurrent requests give 20 branches; merged one after another, every entry stays', async () => {
    const requests: GpuRequest[] = Array.from({ length: 20 }, (_, i) => {
      const name = `svc-${String(i + 1).padStart(2, '0')}`;
      const namespace = i % 2 === 0 ? 'team-a' : 'team-b';
      if (i % 5 === 4)
        return gpuRequest(
          name,
          { sharing: 'exclusive', replicas: 1, vramGiB: 8 },
          namespace,
        );
      return gpuRequest(name, { replicas: 1 + (i % 3) }, namespace);
    });
    const results = await Promise.all(
      requests.map((request, i) =>
        publishGpuRequest(
          options(request, { cacheDir: path.join(tmp, `cache-${i}`) }),
        ),
      ),
    );
    const branches = (
      await remote.git([
        'for-each-ref',
        '--format=%(refname:short)',
        'refs/heads/gpu/',
      ])
    )
      .split('\n')
      .filter(Boolean);
    expect(branches.sort()).toEqual(results.map(r => r.branch).sort());
    expect(branches).toHaveLength(20);

    const merger = await mergerClone();
    let rebuilt = 0;
    for (const [i, request] of requests.entries()) {
      if (await merger.merge(results[i].branch)) continue;
      // Stale: re-run the same request, which rebuilds its branch on the new main.
      rebuilt++;
      const again = await publishGpuRequest(
        options(request, { cacheDir: path.join(tmp, `cache-${i}`) }),
      );
      expect(again.updated).toBe(true);
      expect(await merger.merge(again.branch)).toBe(true);
    }
    // Shared files (kustomization, pool) make later branches conflict at least once.
    expect(rebuilt).toBeGreaterThan(0);

    const main = path.join(tmp, 'main-check');
    await createSimpleGit(tmp, gitEnvironment(remote.url, {})).raw([
      'clone',
      '--quiet',
      remote.url,
      main,
    ]);
    const state = await readRepoState(
      new FsRepoTree(main),
      undefined,
      cluster.name,
    );
    expect(state.skipped).toEqual([]);
    const ids = state.workloads.map(w => w.id).sort();
    expect(ids).toEqual(
      requests.map(r => `${r.metadata.namespace}/${r.metadata.name}`).sort(),
    );
    expect(state.pools.length).toBeGreaterThan(1);
    // Every pool's limit covers all workloads that run on it.
    for (const pool of state.pools) {
      const used = state.workloads
        .filter(w => w.pool === pool.name)
        .reduce((sum, w) => sum + w.replicas * w.perReplica, 0);
      // Limits are physical GPUs (Karpenter counts those); a shared GPU serves slicesPerGpu units.
      const physical = pool.limits?.['nvidia.com/gpu'] ?? 0;
      expect(physical * (pool.slicesPerGpu ?? 1)).toBeGreaterThanOrEqual(used);
    }
    const kustomization = await fs.readFile(
      path.join(main, 'clusters/prod/gpu/kustomization.yaml'),
      'utf8',
    );
    for (const pool of state.pools) {
      expect(kustomization).toContain(`nodepools/${pool.name}.yaml`);
    }
    // Every named device-plugin config a pool's label points at exists and is generated.
    const configNames = state.pools.flatMap(p => p.deviceConfigName ?? []);
    expect(configNames.length).toBeGreaterThan(0);
    for (const name of configNames) {
      expect(kustomization).toContain(`${name}=`);
      expect(state.devicePluginConfigs[name]).toBeDefined();
    }
    expect(seedFiles['README.md']).toBe(
      await fs.readFile(path.join(main, 'README.md'), 'utf8'),
    );
    // Re-running any request now is a no-op.
    const noop = await publishGpuRequest(
      options(requests[0], { cacheDir: path.join(tmp, 'cache-0') }),
    );
    expect(noop.changed).toBe(false);
  });
});

import { promises as fs, readdirSync, readFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { gitEnvironment } from './auth';
import { requestBranchName, requestTrailer } from './branchName';
import { GitOpsError } from './errors';
import { GitOpsRepository } from './GitOpsRepository';
import { createSimpleGit } from './__testUtils__/simpleGitClient';
import { BareRemote, createBareRemote } from './__testUtils__/bareRemote';
import {
  GitHttpServer,
  startGitHttpServer,
} from './__testUtils__/gitHttpServer';
import { processesLeftTalkingTo } from './__testUtils__/processes';

const TOKEN = 'canary-http-token-0a9b8c7d6e5f';
const AUTH = `Basic ${Buffer.from(`x-access-token:${TOKEN}`).toString('base64')}`;

/** Command lines of every running git process (Linux /proc). */
function gitCommandLines(): string[] {
  const lines: string[] = [];
  for (const pid of readdirSync('/proc').filter(p => /^\d+$/.test(p))) {
    try {
      const cmdline = readFileSync(`/proc/${pid}/cmdline`, 'utf8')
        .split('\0')
        .join(' ');
      if (/\bgit\b|git-remote-http/.test(cmdline)) lines.push(cmdline);
    } catch {
      // the process ended meanwhile
    }
  }
  return lines;
}

describe('GitOpsRepository over smart HTTP', () => {
  let remote: BareRemote;
  let server: GitHttpServer;
  let cacheDir: string;
  let commandLines: string[];
  /** While true the server accepts requests and never answers them. */
  let stalled: boolean;

  beforeEach(async () => {
    remote = await createBareRemote({
      'clusters/prod/gpu/kustomization.yaml': 'resources: []\n',
      'apps/big/other/file.yaml': 'x: 1\n',
    });
    await remote.git(['config', 'uploadpack.allowFilter', 'true']);
    await remote.git(['config', 'http.receivepack', 'true']);
    stalled = false;
    server = await startGitHttpServer({
      projectRoot: path.dirname(remote.url),
      authorization: AUTH,
      onRequest: () => commandLines.push(...gitCommandLines()),
      stall: () => stalled,
    });
    commandLines = [];
    cacheDir = await fs.mkdtemp(path.join(os.tmpdir(), 'gpu-gitops-http-'));
  });
  afterEach(async () => {
    await server.close();
    await remote.cleanup();
    await fs.rm(cacheDir, { recursive: true, force: true });
  });

  const repoUrl = () => `${server.baseUrl}/${path.basename(remote.url)}`;

  it('clones blob-less and shallow, pushes with the header, keeps no credentials', async () => {
    const repo = new GitOpsRepository({
      repoUrl: repoUrl(),
      cacheDir,
      token: TOKEN,
    });
    const publish = (content: string) =>
      repo.publishBranch({
        branch: requestBranchName('ml', 'llm'),
        trailer: requestTrailer('ml', 'llm'),
        sparsePaths: ['clusters/prod/gpu'],
        build: async () => ({
          message: 'gpu: ml/llm',
          changes: [
            { path: 'apps/ml/llm/deployment.yaml', action: 'create', content },
          ],
        }),
      });
    const first = await publish('replicas: 1\n');
    const second = await publish('replicas: 2\n'); // fetch path, lease update
    expect(first.pushed && second.pushed).toBe(true);
    expect(
      await remote.readFile('gpu/ml-llm', 'apps/ml/llm/deployment.yaml'),
    ).toBe('replicas: 2\n');
    // Every request carried the header; none carried the token in the URL.
    expect(server.requests.length).toBeGreaterThan(4);
    expect(server.requests.every(r => r.authorization === AUTH)).toBe(true);
    expect(server.requests.some(r => r.url.includes('git-receive-pack'))).toBe(
      true,
    );
    expect(server.requests.map(r => r.url).join('\n')).not.toContain(TOKEN);
    // The client's git processes were seen, and none had the token in its arguments.
    expect(commandLines.some(l => /clone|fetch|push|remote-http/.test(l))).toBe(
      true,
    );
    expect(commandLines.join('\n')).not.toContain(TOKEN);
    expect(commandLines.join('\n')).not.toContain(AUTH.split(' ')[1]);
    const git = createSimpleGit(repo.workDir, gitEnvironment(repo.workDir, {}));
    expect(
      (await git.raw(['rev-parse', '--is-shallow-repository'])).trim(),
    ).toBe('true');
    expect(
      (
        await git.raw(['config', '--get', 'remote.origin.partialclonefilter'])
      ).trim(),
    ).toBe('blob:none');
    const config = await fs.readFile(
      path.join(repo.workDir, '.git', 'config'),
      'utf8',
    );
    expect(config).not.toContain(TOKEN);
    expect(config).not.toContain(AUTH.split(' ')[1]);
    // Outside the sparse cone: not checked out.
    await expect(
      fs.access(path.join(repo.workDir, 'apps/big/other/file.yaml')),
    ).rejects.toThrow();
  });

  it('fails clearly (and redacted) with a wrong token', async () => {
    const repo = new GitOpsRepository({
      repoUrl: repoUrl(),
      cacheDir,
      token: 'wrong-token-123456',
    });
    const error = await repo
      .withBase(
        ['clusters'],
        async (): Promise<Error & { kind?: string }> => new Error('fetched'),
      )
      .catch((e: Error & { kind?: string }) => e);
    expect(error.kind).toBe('auth');
    expect(error.message).toMatch(
      /token is missing, invalid or lacks write access/,
    );
    expect(error.message).not.toContain('wrong-token-123456');
  });

  it('ends a stalled remote after the timeout, kills git and its helpers, releases the clone lock', async () => {
    stalled = true;
    const lines: string[] = [];
    const repo = new GitOpsRepository({
      repoUrl: repoUrl(),
      cacheDir,
      token: TOKEN,
      timeoutMs: 1500,
      logger: { info: m => lines.push(m), warn: m => lines.push(m) },
    });
    const publish = () =>
      repo.publishBranch({
        branch: requestBranchName('ml', 'llm'),
        trailer: requestTrailer('ml', 'llm'),
        sparsePaths: ['clusters/prod/gpu'],
        build: async () => ({
          message: 'gpu: ml/llm',
          changes: [
            {
              path: 'apps/ml/llm/deployment.yaml',
              action: 'create',
              content: 'replicas: 1\n',
            },
          ],
        }),
      });
    const started = Date.now();
    const error = await publish().catch(e => e);
    // A hang guard, not a speed goal.
    expect(Date.now() - started).toBeLessThan(20_000);
    expect(error).toBeInstanceOf(GitOpsError);
    expect(error.kind).toBe('timeout');
    expect(error.message).toContain('git clone did not finish within 1.5 s');
    expect(error.message).toContain('the remote did not answer');
    expect(error.message).not.toContain(TOKEN);
    expect(server.requests.length).toBeGreaterThan(0);
    // The whole process group was killed: no git-remote-http is left talking to the server.
    const port = new URL(server.baseUrl).port;
    expect(await processesLeftTalkingTo(port)).toEqual([]);
    // The lock is gone, and the next run (the remote answers again) succeeds at once.
    await expect(fs.access(`${repo.workDir}.lock`)).rejects.toThrow();
    stalled = false;
    const again = Date.now();
    const result = await publish();
    expect(result.pushed).toBe(true);
    expect(Date.now() - again).toBeLessThan(20_000);
    expect(lines.join('\n')).not.toMatch(/waiting for the git cache lock/);
  });
});

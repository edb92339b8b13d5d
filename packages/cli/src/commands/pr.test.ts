import { spawn } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import path from 'node:path';
import {
  createBareRemote,
  processesLeftTalkingTo,
  processesTalkingTo,
  startGitHttpServer,
  type BareRemote,
  type GitHttpServer,
} from '@gpu-gitops/plugin-gpu-node/testUtils';
import { makeWorkdir, requestYaml, runIn } from '../__testUtils__/runInTemp';
import {
  EMPTY_KUSTOMIZATION,
  SYMLINK_CASES,
  symlinkWorkdir,
} from '../__testUtils__/symlinkRepo';

// Real git, real kustomize and child processes on a shared, busy CI machine:
// a generous ceiling that catches hangs, not a speed goal.
jest.setTimeout(120_000);

const bin = path.resolve(__dirname, '../../bin/gpu-gitops');
const CANARY = 'canary-cli-url-token-5e4d3c2b1a';

/** The installed entry point in a real process: what a CI job sees. */
function runBin(
  cwd: string,
  args: string[],
  env: Record<string, string> = {},
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [bin, ...args], {
      cwd,
      env: { ...process.env, ...env },
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', d => (stdout += d));
    child.stderr.on('data', d => (stderr += d));
    child.on('error', reject);
    child.on('close', code => resolve({ code, stdout, stderr }));
  });
}

describe('gpu-gitops pr --repo with credentials', () => {
  it.each([
    ['https user-info', `https://x-access-token:${CANARY}@github.com/o/r.git`],
    ['git:// user-info', `git://user:${CANARY}@git.example.com/o/r.git`],
    ['a bare token as user', `https://${CANARY}@gitlab.example.com/o/r.git`],
    ['a query token', `https://github.com/o/r.git?access_token=${CANARY}`],
    ['scp-style', `${CANARY}@github.com:o/r.git`],
    ['ssh://', `ssh://git:${CANARY}@github.com/o/r.git`],
    ['a leading space', ` https://user:${CANARY}@github.com/o/r.git`],
  ])(
    'refuses %s before reading or cloning anything, exit 2, token nowhere',
    async (_form, repoUrl) => {
      const dir = makeWorkdir();
      const cacheDir = path.join(dir, 'cache');
      // The request file does not exist: the URL is refused before it is read.
      const run = await runBin(
        dir,
        [
          'pr',
          '--request',
          'missing.yaml',
          '--repo',
          repoUrl,
          '--forge',
          'github',
          '--cache-dir',
          cacheDir,
        ],
        { GITHUB_TOKEN: 'unrelated-env-token-1234' },
      );
      expect(run.code).toBe(2);
      expect(run.stderr).toMatch(/--repo: .*\[url-(credentials|query)\]/);
      expect(run.stderr).not.toMatch(/missing\.yaml/);
      expect(`${run.stdout}${run.stderr}`).not.toContain(CANARY);
      // Nor a part of it (the https suggestion once carried its tail).
      expect(`${run.stdout}${run.stderr}`).not.toContain(CANARY.slice(-12));
      expect(existsSync(cacheDir)).toBe(false);
    },
  );

  it('refuses an --api-url carrying the token in its query (exit 2, token nowhere, nothing cloned)', async () => {
    const dir = makeWorkdir();
    const cacheDir = path.join(dir, 'cache');
    const run = await runBin(dir, [
      'pr',
      '--request',
      'missing.yaml',
      '--repo',
      'https://gitlab.example.com/o/r.git',
      '--forge',
      'gitlab',
      '--api-url',
      `https://gitlab.example.com/api/v4?private_token=${CANARY}`,
      '--cache-dir',
      cacheDir,
    ]);
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(/--api-url: .*\[url-query\]/);
    expect(`${run.stdout}${run.stderr}`).not.toContain(CANARY);
    expect(existsSync(cacheDir)).toBe(false);
  });

  it('names the https URL to use instead of an ssh address', async () => {
    const dir = makeWorkdir({
      'req.yaml': requestYaml('model: l4\nsharing: exclusive\nvramGiB: 16'),
    });
    const run = await runBin(dir, [
      'pr',
      '--request',
      'req.yaml',
      '--repo',
      'git@github.com:acme/gitops.git',
    ]);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('use https://github.com/acme/gitops.git');
    expect(run.stderr).toContain('[url-scheme]');
  });
});

describe('gpu-gitops pr into a repository holding a symbolic link', () => {
  it.each(SYMLINK_CASES)(
    'refuses %s (exit 2, names it), writes nothing there and pushes nothing',
    async (_case, linkPath, targetExists) => {
      const { dir, outside, target } = symlinkWorkdir(targetExists);
      const remote = await createBareRemote({
        // A cluster set up for GPUs (its kustomization exists), holding the link.
        'clusters/default/gpu/kustomization.yaml': EMPTY_KUSTOMIZATION,
        [linkPath]: { symlink: target },
      });
      try {
        const run = await runIn(dir, [
          'pr',
          '--request',
          'req.yaml',
          '--repo',
          remote.url,
          '--cache-dir',
          path.join(dir, 'cache'),
        ]);
        expect(run.code).toBe(2);
        expect(run.stderr).toContain(`${linkPath}: is a symbolic link`);
        expect(run.stderr).toContain('[symlink]');
        expect(readdirSync(outside)).toEqual([]);
        expect(await remote.branchSha('gpu/ml-llm-inference')).toBeUndefined();
      } finally {
        await remote.cleanup();
      }
    },
  );
});

describe('gpu-gitops pr against a remote that never answers', () => {
  let server: GitHttpServer;
  let dir: string;
  beforeEach(async () => {
    dir = makeWorkdir({
      'req.yaml': requestYaml(
        'model: l4\nsharing: exclusive\nreplicas: 1\nvramGiB: 16',
      ),
    });
    server = await startGitHttpServer({
      projectRoot: dir,
      authorization: 'none',
      stall: () => true,
    });
  });
  afterEach(() => server.close());

  const prArgs = (timeout: string) => [
    'pr',
    '--request',
    'req.yaml',
    '--repo',
    `${server.baseUrl}/gitops.git`,
    '--cache-dir',
    path.join(dir, 'cache'),
    '--timeout',
    timeout,
  ];

  it('--timeout ends it with a clear error, releases the clone lock, and the next run does not wait', async () => {
    const started = Date.now();
    const run = await runIn(dir, prArgs('1'));
    // A hang guard, not a speed goal.
    expect(Date.now() - started).toBeLessThan(20_000);
    expect(run.code).toBe(1);
    expect(run.stderr).toContain('git clone did not finish within 1 s');
    expect(run.stderr).toContain('the remote did not answer');
    expect(
      readdirSync(path.join(dir, 'cache')).filter(f => f.endsWith('.lock')),
    ).toEqual([]);
    const next = await runIn(dir, prArgs('1'));
    expect(next.code).toBe(1);
    expect(next.stderr).not.toContain('waiting for the git cache lock');
  });

  it('refuses a --timeout that is no number of seconds (exit 2)', async () => {
    for (const value of ['0', '-1', 'soon', '99999']) {
      const run = await runIn(dir, prArgs(value));
      expect(run.code).toBe(2);
      expect(run.stderr).toContain('--timeout');
    }
    expect(server.requests).toEqual([]);
  });

  it('a Ctrl-C stops git and its helpers too', async () => {
    const child = spawn(process.execPath, [bin, ...prArgs('60')], { cwd: dir });
    let exitCode: number | null | undefined;
    const exited = new Promise<number | null>(resolve =>
      child.on('exit', code => resolve((exitCode = code))),
    );
    // Until git-remote-http has asked the stalled server.
    while (server.requests.length === 0 && exitCode === undefined) {
      await new Promise(resolve => setTimeout(resolve, 50));
    }
    expect(exitCode).toBeUndefined();
    const port = new URL(server.baseUrl).port;
    expect(processesTalkingTo(port)).not.toEqual([]);
    child.kill('SIGINT');
    expect(await exited).toBe(130);
    expect(await processesLeftTalkingTo(port)).toEqual([]);
  });
});

describe('gpu-gitops pr with spec.expiresAt', () => {
  let remote: BareRemote;
  afterEach(() => remote.cleanup());

  const expiring = (expiresAt: string) =>
    requestYaml(
      'model: t4\nsharing: exclusive\nreplicas: 1\nvramGiB: 8',
    ).replace(
      '  capacityTypes: [on-demand]',
      `  capacityTypes: [on-demand]\n  expiresAt: "${expiresAt}"`,
    );

  it('stores a future expiry in the request record, and refuses a past one (exit 2, nothing pushed)', async () => {
    remote = await createBareRemote({
      'clusters/default/gpu/kustomization.yaml': EMPTY_KUSTOMIZATION,
    });
    const future = new Date(Date.now() + 7 * 86_400_000).toISOString();
    const dir = makeWorkdir({
      'future.yaml': expiring(future),
      'past.yaml': expiring('2020-01-01T00:00:00Z'),
    });
    const cache = ['--cache-dir', path.join(dir, 'cache')];
    const past = await runIn(dir, [
      'pr',
      '--request',
      'past.yaml',
      '--repo',
      remote.url,
      ...cache,
    ]);
    expect(past.code).toBe(2);
    expect(past.stderr).toContain('spec.expiresAt');
    expect(past.stderr).toContain('[expires-in-the-past]');
    expect(await remote.branchSha('gpu/ml-llm-inference')).toBeUndefined();

    const run = await runIn(dir, [
      'pr',
      '--request',
      'future.yaml',
      '--repo',
      remote.url,
      ...cache,
    ]);
    expect(run.code).toBe(0);
    expect(
      await remote.readFile(
        'gpu/ml-llm-inference',
        'requests/ml/llm-inference.yaml',
      ),
    ).toContain(`expiresAt: ${future}\n`);
  });

  it('--json says how long each step took: fetch, read, plan, each kustomize build, commit, push', async () => {
    remote = await createBareRemote({
      'clusters/default/gpu/kustomization.yaml': EMPTY_KUSTOMIZATION,
    });
    const dir = makeWorkdir({
      'req.yaml': requestYaml(
        'model: t4\nsharing: exclusive\nreplicas: 1\nvramGiB: 8',
      ),
    });
    const run = await runIn(dir, [
      'pr',
      '--request',
      'req.yaml',
      '--repo',
      remote.url,
      '--cache-dir',
      path.join(dir, 'cache'),
      '--json',
    ]);
    expect(run.code).toBe(0);
    const stages: { stage: string; ms: number }[] = JSON.parse(
      run.stdout,
    ).stages;
    expect(stages.map(s => s.stage)).toEqual(
      expect.arrayContaining([
        'Fetch base',
        'Read repository state',
        'Plan',
        'kustomize build clusters/default/gpu (before)',
        'kustomize build clusters/default/gpu (after)',
        'Verify with kustomize',
        'Commit',
        'Push',
      ]),
    );
    expect(stages.every(s => Number.isFinite(s.ms) && s.ms >= 0)).toBe(true);
  });
});

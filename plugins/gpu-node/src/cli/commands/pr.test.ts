import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { makeWorkdir, requestYaml } from '../__testUtils__/runInTemp';

const bin = path.resolve(__dirname, '../../../bin/gpu-gitops');
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
      expect(existsSync(cacheDir)).toBe(false);
    },
  );

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

import { promises as fs } from 'node:fs';
import path from 'node:path';
import { parse } from 'yaml';
import {
  createBareRemote,
  gpuRepoFiles,
  type BareRemote,
} from '@gpu-gitops/plugin-gpu-node/testUtils';
import { makeWorkdir, runIn } from '../__testUtils__/runInTemp';

// Real git and child processes on a shared, busy CI machine: a generous
// ceiling that catches hangs, not a speed goal.
jest.setTimeout(120_000);

const VALUES = 'clusters/prod/gpu-operator/values.yaml';

describe('gpu-gitops bootstrap', () => {
  it('--dir: --dry-run prints the description and the diff and writes nothing; without it the checkout is prepared; a second run changes nothing', async () => {
    const dir = makeWorkdir(gpuRepoFiles());
    const args = ['bootstrap', '--cluster-name', 'prod', '--dir', '.'];

    const dryRun = await runIn(dir, [...args, '--dry-run']);
    expect(dryRun.stderr).toBe('');
    expect(dryRun.code).toBe(0);
    expect(dryRun.stdout).toMatch(/^GPU bootstrap for cluster prod\n/);
    expect(dryRun.stdout).toContain('Prepares cluster **prod**');
    expect(dryRun.stdout).toContain(`--- /dev/null\n+++ b/${VALUES}`);
    await expect(fs.stat(path.join(dir, VALUES))).rejects.toThrow();

    const pinned = [...args, '--operator-chart-version', 'v26.3.1'];
    const run = await runIn(dir, pinned);
    expect(run.code).toBe(0);
    const kustomization = parse(
      await fs.readFile(
        path.join(dir, 'clusters/prod/gpu-operator/kustomization.yaml'),
        'utf8',
      ),
    );
    expect(kustomization.helmCharts[0]).toMatchObject({
      name: 'gpu-operator',
      version: 'v26.3.1',
    });

    const again = await runIn(dir, [...pinned, '--json']);
    expect(again.code).toBe(0);
    expect(JSON.parse(again.stdout)).toMatchObject({
      changed: false,
      files: [],
      dryRun: false,
    });
  });

  describe('--repo', () => {
    let remote: BareRemote;
    let dir: string;
    beforeEach(async () => {
      remote = await createBareRemote(gpuRepoFiles());
      dir = makeWorkdir();
    });
    afterEach(() => remote.cleanup());
    const repo = () => [
      '--repo',
      remote.url,
      '--cache-dir',
      path.join(dir, 'cache'),
    ];

    it('opens the pull request on gpu/bootstrap-<cluster>, the same change as the scaffolder action', async () => {
      const args = ['bootstrap', '--cluster-name', 'prod', '--bin-packing'];
      const dryRun = await runIn(dir, [...args, ...repo(), '--dry-run']);
      expect(dryRun.code).toBe(2);
      expect(dryRun.stderr).toMatch(
        /kubernetesVersion: cluster prod: .*must name it with its patch.*\[bin-packing-kubernetes-version\]/,
      );

      const run = await runIn(dir, [
        'bootstrap',
        '--cluster-name',
        'prod',
        ...repo(),
        '--json',
      ]);
      expect(run.stderr).toBe('');
      expect(run.code).toBe(0);
      const out = JSON.parse(run.stdout);
      expect(out).toMatchObject({
        branch: 'gpu/bootstrap-prod',
        changed: true,
        url: `file://${remote.url}#gpu/bootstrap-prod`,
        title: 'GPU bootstrap for cluster prod',
      });
      expect(await remote.branchSha(out.branch)).toBe(out.commit);
      expect(out.files).toContain(VALUES);
      expect(await remote.readFile(out.branch, VALUES)).toContain(
        'devicePlugin:',
      );
    });

    it('refuses bad input with the option and the rule, exit 2, nothing pushed', async () => {
      const cases: [string[], RegExp][] = [
        [repo(), /exactly one of --cluster FILE or --cluster-name NAME/],
        [
          ['--cluster-name', 'prod', '--dir', '.', ...repo()],
          /exactly one of --dir DIR .* or --repo URL/,
        ],
        [['--cluster-name', 'Prod!', ...repo()], /--cluster-name: /],
        [
          [
            '--cluster-name',
            'prod',
            '--repo',
            'https://user:s3cret-token@example.com/acme/gitops',
          ],
          /--repo/,
        ],
      ];
      for (const [args, message] of cases) {
        const run = await runIn(dir, ['bootstrap', ...args]);
        expect({ args, code: run.code }).toEqual({ args, code: 2 });
        expect(run.stderr).toMatch(message);
        expect(run.stderr).not.toContain('s3cret-token');
        expect(run.stderr).not.toMatch(/\n\s+at /); // no stack trace
      }
      expect(await remote.branchSha('gpu/bootstrap-prod')).toBeUndefined();
    });
  });
});

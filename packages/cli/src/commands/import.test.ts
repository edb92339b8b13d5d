import { promises as fs } from 'node:fs';
import path from 'node:path';
import { parseAllDocuments } from 'yaml';
import {
  createBareRemote,
  legacyKarpenterRepoFiles,
  type BareRemote,
} from '@gpu-gitops/plugin-gpu-node/testUtils';
import { makeWorkdir, runIn } from '../__testUtils__/runInTemp';

// Real git, real kustomize and child processes on a shared, busy CI machine:
// a generous ceiling that catches hangs, not a speed goal.
jest.setTimeout(120_000);

const OWNER = 'group:default/ml-platform';
const PROVISIONERS = 'clusters/legacy/karpenter/provisioners.yaml';

describe('gpu-gitops import', () => {
  it('--dir: --dry-run prints the report and the diff and writes nothing; without it the checkout is converted and adopted', async () => {
    const dir = makeWorkdir(legacyKarpenterRepoFiles());
    const before = await fs.readFile(path.join(dir, PROVISIONERS), 'utf8');
    const args = ['import', '--cluster-name', 'legacy', '--owner', OWNER];

    const dryRun = await runIn(dir, [...args, '--dir', '.', '--dry-run']);
    expect(dryRun.stderr).toBe('');
    expect(dryRun.code).toBe(0);
    expect(dryRun.stdout).toMatch(
      /^Import of cluster legacy \(clusters\/legacy\/\)\n/,
    );
    expect(dryRun.stdout).toContain(
      '  ml/chat -> requests/ml/chat.yaml (pool gpu-t4, workload apps/ml/chat/deployment.yaml)\n',
    );
    expect(dryRun.stdout).toContain(
      `--- a/${PROVISIONERS}\n+++ b/${PROVISIONERS}`,
    );
    expect(await fs.readFile(path.join(dir, PROVISIONERS), 'utf8')).toBe(
      before,
    );
    await expect(fs.stat(path.join(dir, 'requests'))).rejects.toThrow();

    const run = await runIn(dir, [...args, '--dir', '.']);
    expect(run.code).toBe(0);
    expect(run.stdout).toContain(`  update ${PROVISIONERS}\n`);
    const pools = parseAllDocuments(
      await fs.readFile(path.join(dir, PROVISIONERS), 'utf8'),
    ).map(d => d.toJS());
    expect(
      pools.map(p => `${p.apiVersion} ${p.kind} ${p.metadata.name}`),
    ).toEqual([
      'karpenter.sh/v1 NodePool gpu-t4',
      'karpenter.sh/v1 NodePool gpu-a100-mig',
    ]);
    expect(pools[0].metadata.annotations['gpu.backstage.io/requests']).toBe(
      'ml/chat=3',
    );
    expect(
      await fs.readFile(path.join(dir, 'requests/ml/chat.yaml'), 'utf8'),
    ).toContain(`owner: ${OWNER}`);

    const again = await runIn(dir, [...args, '--dir', '.', '--json']);
    expect(again.code).toBe(0);
    expect(JSON.parse(again.stdout)).toMatchObject({
      files: [],
      dryRun: false,
    });
  });

  describe('--repo', () => {
    let remote: BareRemote;
    let dir: string;
    beforeEach(async () => {
      remote = await createBareRemote(legacyKarpenterRepoFiles());
      dir = makeWorkdir();
    });
    afterEach(() => remote.cleanup());
    const repo = () => [
      '--repo',
      remote.url,
      '--cache-dir',
      path.join(dir, 'cache'),
    ];

    it('opens the pull request on gpu/import-<cluster> with the report as its body', async () => {
      const args = ['import', '--cluster-name', 'legacy', '--owner', OWNER];
      const dryRun = await runIn(dir, [...args, ...repo(), '--dry-run']);
      expect(dryRun.code).toBe(0);
      expect(dryRun.stdout).toContain('GPU pools adopted:\n  gpu-t4 (');
      expect(dryRun.stdout).toContain('+++ b/requests/ml/embeddings.yaml');
      expect(await remote.branchSha('gpu/import-legacy')).toBeUndefined();

      const run = await runIn(dir, [...args, ...repo(), '--json']);
      expect(run.stderr).toBe('');
      expect(run.code).toBe(0);
      const out = JSON.parse(run.stdout);
      expect(out).toMatchObject({
        branch: 'gpu/import-legacy',
        changed: true,
        url: `file://${remote.url}#gpu/import-legacy`,
      });
      expect(await remote.branchSha(out.branch)).toBe(out.commit);
      expect(out.body).toContain('### Request records written');
      expect(out.report.records.map((r: { id: string }) => r.id)).toEqual([
        'ml/chat',
        'ml/embeddings',
      ]);
      expect(
        await remote.readFile(out.branch, 'requests/ml/embeddings.yaml'),
      ).toContain('sharing: mig');
    });

    it('refuses bad input with the option and the rule, exit 2, nothing pushed', async () => {
      const cases: [string[], RegExp][] = [
        [['--cluster-name', 'legacy', ...repo()], /--owner is required/],
        [
          ['--cluster-name', 'legacy', '--owner', 'ml-platform', ...repo()],
          /owner: .*entity ref.*got "ml-platform" \[entity-ref\]/,
        ],
        [
          ['--owner', OWNER, ...repo()],
          /exactly one of --cluster FILE or --cluster-name NAME/,
        ],
        [
          [
            '--cluster-name',
            'legacy',
            '--owner',
            OWNER,
            '--dir',
            '.',
            ...repo(),
          ],
          /exactly one of --dir DIR .* or --repo URL/,
        ],
        [
          ['--cluster-name', 'staging', '--owner', OWNER, ...repo()],
          /cluster: the cluster folder clusters\/staging\/ .* \[cluster-folder-empty\]/,
        ],
        [
          ['--cluster-name', 'Legacy!', '--owner', OWNER, ...repo()],
          /--cluster-name: /,
        ],
        [
          [
            '--cluster-name',
            'legacy',
            '--owner',
            OWNER,
            '--repo',
            'https://user:s3cret-token@example.com/acme/gitops',
          ],
          /--repo/,
        ],
      ];
      for (const [args, message] of cases) {
        const run = await runIn(dir, ['import', ...args]);
        expect({ args, code: run.code }).toEqual({ args, code: 2 });
        expect(run.stderr).toMatch(message);
        expect(run.stderr).not.toContain('s3cret-token');
        expect(run.stderr).not.toMatch(/\n\s+at /); // no stack trace
      }
      expect(await remote.branchSha('gpu/import-legacy')).toBeUndefined();
      expect(await remote.branchSha('gpu/import-staging')).toBeUndefined();
    });
  });
});

import { execFile } from 'node:child_process';
import { promises as fs } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { ensureLocalGitopsRepository } from './localGitopsRepository';

const run = promisify(execFile);
const FIXTURE = path.resolve(__dirname, '../../../test/fixtures/gitops-repo');

describe('ensureLocalGitopsRepository', () => {
  let root: string;

  beforeEach(async () => {
    root = await fs.mkdtemp(path.join(os.tmpdir(), 'backend-seed-'));
  });
  afterEach(async () => {
    await fs.rm(root, { recursive: true, force: true });
  });

  it('creates a bare repository with the fixture on main, once', async () => {
    const bareDir = path.join(root, '.data', 'gitops.git');
    const first = await ensureLocalGitopsRepository({
      bareDir,
      fixtureDir: FIXTURE,
    });
    expect(first.created).toBe(true);
    const { stdout } = await run(
      'git',
      ['ls-tree', '-r', '--name-only', 'main'],
      { cwd: bareDir },
    );
    expect(stdout.split('\n')).toEqual(
      expect.arrayContaining([
        'clusters/dev/gpu/nodepools/gpu-t4-ts4.yaml',
        'apps/ml/chat-assistant/deployment.yaml',
      ]),
    );
    const head = (
      await run('git', ['rev-parse', 'main'], { cwd: bareDir })
    ).stdout.trim();

    // A second start keeps the repository (and any pushed branches) as it is.
    await run('git', ['branch', 'gpu/ml-x', 'main'], { cwd: bareDir });
    const second = await ensureLocalGitopsRepository({
      bareDir,
      fixtureDir: FIXTURE,
    });
    expect(second.created).toBe(false);
    expect(
      (await run('git', ['rev-parse', 'main'], { cwd: bareDir })).stdout.trim(),
    ).toBe(head);
    expect(
      (await run('git', ['branch', '--list', 'gpu/ml-x'], { cwd: bareDir }))
        .stdout,
    ).toContain('gpu/ml-x');
    // No staging leftovers next to it.
    expect(await fs.readdir(path.join(root, '.data'))).toEqual(['gitops.git']);
  });
});

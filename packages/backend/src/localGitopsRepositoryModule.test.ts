import { execFile } from 'node:child_process';
import { existsSync, promises as fs } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { mockServices, startTestBackend } from '@backstage/backend-test-utils';
import { localGitopsRepositoryModule } from './localGitopsRepositoryModule';

const run = promisify(execFile);

describe('localGitopsRepositoryModule', () => {
  let root: string;

  beforeEach(async () => {
    root = await fs.mkdtemp(path.join(os.tmpdir(), 'backend-seed-module-'));
  });
  afterEach(async () => {
    await fs.rm(root, { recursive: true, force: true });
  });

  async function startWith(gitops: Record<string, string>) {
    const backend = await startTestBackend({
      features: [
        localGitopsRepositoryModule,
        mockServices.rootConfig.factory({ data: { gpu: { gitops } } }),
      ],
    });
    await backend.stop();
  }

  it('seeds the local repository gpu.gitops.repoUrl names, on gpu.gitops.baseBranch', async () => {
    const repoUrl = path.join(root, 'somewhere', 'gitops.git');
    await startWith({ repoUrl, forge: 'local', baseBranch: 'trunk' });

    const { stdout } = await run('git', [
      '--git-dir',
      repoUrl,
      'ls-tree',
      '-r',
      '--name-only',
      'trunk',
    ]);
    expect(stdout.split('\n')).toContain('clusters/dev/kustomization.yaml');
  });

  it('leaves remote repositories and other forges alone', async () => {
    const localPath = path.join(root, 'not-local-forge.git');
    await startWith({ repoUrl: localPath, forge: 'github' });
    await startWith({
      repoUrl: 'https://example.com/org/gitops.git',
      forge: 'local',
    });
    await startWith({
      repoUrl: 'git@example.com:org/gitops.git',
      forge: 'local',
    });

    expect(existsSync(localPath)).toBe(false);
    expect(await fs.readdir(root)).toEqual([]);
  });
});

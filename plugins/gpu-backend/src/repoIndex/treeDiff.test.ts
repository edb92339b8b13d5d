import { execFileSync } from 'node:child_process';
import { promises as fs } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { CatFileBatch } from './catFileBatch';
import { diffCommits } from './treeDiff';

const git = (cwd: string, args: string[]) =>
  execFileSync('git', args, {
    cwd,
    encoding: 'utf8',
    env: {
      ...process.env,
      GIT_AUTHOR_NAME: 't',
      GIT_AUTHOR_EMAIL: 't@example.invalid',
      GIT_COMMITTER_NAME: 't',
      GIT_COMMITTER_EMAIL: 't@example.invalid',
    },
  });

describe('diffCommits', () => {
  let dir: string;
  beforeEach(async () => {
    dir = await fs.mkdtemp(path.join(os.tmpdir(), 'gpu-tree-diff-'));
    git(dir, ['init', '--quiet', '--initial-branch=main']);
  });
  afterEach(() => fs.rm(dir, { recursive: true, force: true }));

  const write = async (file: string, text: string) => {
    await fs.mkdir(path.dirname(path.join(dir, file)), { recursive: true });
    await fs.writeFile(path.join(dir, file), text);
  };
  const commit = () => {
    git(dir, ['add', '-A']);
    git(dir, ['commit', '--quiet', '--allow-empty', '-m', 'c']);
    return git(dir, ['rev-parse', 'HEAD']).trim();
  };
  /** `git diff --raw` as path -> "<new mode> <new sha>" (the index's own answer before it read trees). */
  const gitDiff = (from: string, to: string, folders: string[]) => {
    const out = git(dir, [
      'diff',
      '--raw',
      '-z',
      '--no-renames',
      '--no-abbrev',
      from,
      to,
      ...(folders.includes('') ? [] : ['--', ...folders]),
    ]).split('\0');
    const answer: [string, string][] = [];
    for (let i = 0; i + 1 < out.length; i += 2) {
      const [, mode, , sha] = out[i].slice(1).split(' ');
      answer.push([out[i + 1], mode === '000000' ? 'gone' : `${mode} ${sha}`]);
    }
    return answer.sort(([a], [b]) => (a < b ? -1 : 1));
  };

  it('answers what git diff --raw answers: edits, deletions, a folder become a file, modes, links, a file among the folders', async () => {
    await write('apps/a/deployment.yaml', 'a: 1\n');
    await write('apps/b/deployment.yaml', 'b: 1\n');
    await write('apps/c/x/deep.yaml', 'c: 1\n');
    await write('apps/run.sh', 'echo\n');
    await write('clusters/prod/gpu/kustomization.yaml', 'k: 1\n');
    await write('clusters/prod/other.yaml', 'o: 1\n');
    await write('docs/readme.md', 'r\n');
    const from = commit();
    await write('apps/a/deployment.yaml', 'a: 2\n');
    await fs.rm(path.join(dir, 'apps/b'), { recursive: true });
    await fs.rm(path.join(dir, 'apps/c'), { recursive: true });
    await write('apps/c', 'now a file\n');
    await fs.chmod(path.join(dir, 'apps/run.sh'), 0o755);
    await fs.symlink('../docs/readme.md', path.join(dir, 'apps/link.yaml'));
    await write('apps/new/deployment.yaml', 'n: 1\n');
    await write('clusters/prod/gpu/kustomization.yaml', 'k: 2\n');
    await write('clusters/prod/other.yaml', 'o: 2\n');
    await write('docs/readme.md', 'r2\n');
    const to = commit();

    const batch = new CatFileBatch(path.join(dir, '.git'), {});
    try {
      for (const folders of [
        ['apps', 'clusters/prod/gpu/kustomization.yaml'],
        [''],
        ['apps/c'],
      ]) {
        const ours = (await diffCommits(batch, from, to, folders)).map(
          (c): [string, string] => [
            c.path,
            c.newMode ? `${c.newMode} ${c.newSha}` : 'gone',
          ],
        );
        expect(ours).toEqual(gitDiff(from, to, folders));
      }
      await expect(
        diffCommits(batch, '0'.repeat(40), to, ['apps']),
      ).rejects.toThrow(/not a commit/);
    } finally {
      batch.close();
    }
  });
});

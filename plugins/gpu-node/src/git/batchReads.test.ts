import { execFileSync } from 'node:child_process';
import { promises as fs } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import {
  changedPathsOfCommits,
  readObjects,
  type BatchGit,
} from './batchReads';

describe('batch reads', () => {
  let dir: string;
  let git: BatchGit;
  const commit = async (files: Record<string, string>, message: string) => {
    for (const [file, text] of Object.entries(files)) {
      await fs.mkdir(path.dirname(path.join(dir, file)), { recursive: true });
      await fs.writeFile(path.join(dir, file), text);
    }
    execFileSync('git', ['add', '-A'], { cwd: dir });
    execFileSync(
      'git',
      ['-c', 'user.name=t', '-c', 'user.email=t@e', 'commit', '-qm', message],
      { cwd: dir },
    );
    return execFileSync('git', ['rev-parse', 'HEAD'], { cwd: dir })
      .toString()
      .trim();
  };

  beforeEach(async () => {
    dir = await fs.mkdtemp(path.join(os.tmpdir(), 'gpu-batch-reads-'));
    execFileSync('git', ['init', '-q'], { cwd: dir });
    git = {
      run: async (args, options) =>
        execFileSync('git', args, {
          cwd: dir,
          input: options?.stdin,
        }).toString('utf8'),
    };
  });
  afterEach(() => fs.rm(dir, { recursive: true, force: true }));

  it('reads many objects in order, multi-byte text whole, and says which are missing', async () => {
    const first = await commit({ 'a.yaml': 'ä: ü\n', 'b.yaml': '' }, 'one');
    const second = await commit({ 'a.yaml': 'name: 名前\n' }, 'two\n\nx: y');
    const objects = await readObjects(git, [
      `${first}:a.yaml`,
      `${second}:nope.yaml`,
      `${first}:b.yaml`,
      `${second}:a.yaml`,
      second,
    ]);
    expect(objects.slice(0, 4)).toEqual([
      'ä: ü\n',
      undefined,
      '',
      'name: 名前\n',
    ]);
    expect(objects[4]).toContain(`parent ${first}`);
    expect(objects[4]).toMatch(/\n\ntwo\n\nx: y\n$/);
    expect(await readObjects(git, [])).toEqual([]);
  });

  it("gives each commit's changed paths against its parent", async () => {
    const root = await commit({ 'a.yaml': '1\n' }, 'root');
    const one = await commit({ 'b/c.yaml': '1\n', 'a.yaml': '2\n' }, 'one');
    const two = await commit({ 'd.yaml': '1\n' }, 'two');
    const paths = await changedPathsOfCommits(git, [two, one, root]);
    expect(paths.get(one)).toEqual(['a.yaml', 'b/c.yaml']);
    expect(paths.get(two)).toEqual(['d.yaml']);
    // The root commit has no parent to diff against.
    expect(paths.has(root)).toBe(false);
  });
});

/**
 * Which files a reader looking for some words must read: git's grep names
 * them among many files, and a few files are read and matched here
 * instead; both ways give the same files.
 */
import { execFileSync } from 'node:child_process';
import { promises as fs } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { filesMentioning } from './filesMentioning';
import { GitCheckoutTree } from './gitCheckoutTree';
import { ParseCache } from './parseCache';
import { parseFiles } from './parseFiles';

const NEEDLES = ['argoproj.io', 'GitRepository'];

describe('filesMentioning over a git checkout', () => {
  let dir: string;
  let tree: GitCheckoutTree;
  let greps: number;
  const paths = [
    'apps/argo.yaml',
    'apps/flux.yaml',
    'apps/web.yaml',
    'apps/changed.yaml',
  ];

  beforeEach(async () => {
    dir = await fs.mkdtemp(path.join(os.tmpdir(), 'files-mentioning-'));
    const files: Record<string, string> = {
      'apps/argo.yaml': 'apiVersion: argoproj.io/v1alpha1\nkind: Application\n',
      // Another letter case: git grep -i finds it, so must the reading.
      'apps/flux.yaml': 'kind: GITREPOSITORY\n',
      'apps/web.yaml': 'apiVersion: v1\nkind: Service\n',
      'apps/changed.yaml': 'apiVersion: v1\nkind: Service\n',
    };
    for (const [file, text] of Object.entries(files)) {
      await fs.mkdir(path.dirname(path.join(dir, file)), { recursive: true });
      await fs.writeFile(path.join(dir, file), text);
    }
    const git = (...args: string[]) => execFileSync('git', args, { cwd: dir });
    git('init', '-q');
    git('add', '-A');
    git('-c', 'user.name=t', '-c', 'user.email=t@e', 'commit', '-qm', 'c');
    // Changed since the commit, holding no needle: read all the same.
    await fs.writeFile(path.join(dir, 'apps/changed.yaml'), 'kind: Service\n');
    tree = new GitCheckoutTree(dir);
    greps = 0;
    const filesContaining = tree.filesContaining.bind(tree);
    tree.filesContaining = needles => {
      greps++;
      return filesContaining(needles);
    };
  });
  afterEach(() => fs.rm(dir, { recursive: true, force: true }));

  // Three of the four have a blob id (the changed one has none): those count.
  it('asks git to grep when the unchanged candidates are as many as the threshold', async () => {
    const found = await filesMentioning(tree, paths, NEEDLES, { grepFrom: 3 });
    expect(greps).toBe(1);
    expect(found).toEqual([
      'apps/argo.yaml',
      'apps/flux.yaml',
      'apps/changed.yaml',
    ]);
  });

  it('reads and matches fewer unchanged candidates than the threshold itself, without a grep', async () => {
    const found = await filesMentioning(tree, paths, NEEDLES, { grepFrom: 4 });
    expect(greps).toBe(0);
    expect(found).toEqual([
      'apps/argo.yaml',
      'apps/flux.yaml',
      'apps/changed.yaml',
    ]);
  });

  it('gives the same files both ways', async () => {
    for (const some of [paths, paths.slice(1), paths.slice(2, 3)]) {
      const grepped = await filesMentioning(tree, some, NEEDLES, {
        grepFrom: 0,
      });
      const read = await filesMentioning(tree, some, NEEDLES, {
        grepFrom: Infinity,
      });
      expect(read).toEqual(grepped);
    }
  });

  it('hands on a file whose parse the reader keeps without reading it, holding a needle or not', async () => {
    const parses = new ParseCache();
    await parseFiles(tree, ['apps/web.yaml'], [], parses);
    const read: string[] = [];
    const readFile = tree.readFile.bind(tree);
    tree.readFile = file => {
      read.push(file);
      return readFile(file);
    };
    const found = await filesMentioning(tree, paths, NEEDLES, {
      grepFrom: Infinity,
      parses,
    });
    expect(found).toEqual(paths);
    expect(read.sort()).toEqual(['apps/argo.yaml', 'apps/flux.yaml']);
  });
});

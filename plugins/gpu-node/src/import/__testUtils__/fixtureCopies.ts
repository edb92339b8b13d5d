/**
 * The import's fixture repositories (`../__fixtures__/<shape>`) copied to a
 * temp folder the tests may write to, and the whole text of a tree, to prove
 * which files a change left byte-identical.
 */
import { promises as fs } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { FsRepoTree } from '../../repo/tree';

const FIXTURES = path.join(__dirname, '../__fixtures__');

export async function copyOf(shape: string): Promise<FsRepoTree> {
  const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'gpu-import-'));
  await fs.cp(path.join(FIXTURES, shape), dir, { recursive: true });
  return new FsRepoTree(dir);
}

export async function snapshot(
  tree: FsRepoTree,
): Promise<Record<string, string>> {
  const out: Record<string, string> = {};
  for (const file of await tree.listFiles('')) {
    out[file] = (await tree.readFile(file))!;
  }
  return out;
}

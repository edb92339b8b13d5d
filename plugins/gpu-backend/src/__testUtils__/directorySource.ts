/**
 * Test helper: a RepoSource over a plain folder (no git), so router tests
 * build a real index from real files quickly. Blob ids are content hashes;
 * it never answers "what changed", so every refresh lists all files.
 */
import { createHash } from 'node:crypto';
import { promises as fs } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { BlobListing, RepoSource } from '../repoIndex/gitSnapshot';
import { FIXTURE_REPO } from './fixtureRemote';

async function walk(
  root: string,
  rel = '',
  out = { files: [] as string[], symlinks: [] as string[] },
) {
  for (const entry of await fs.readdir(path.join(root, rel), {
    withFileTypes: true,
  })) {
    const child = rel ? `${rel}/${entry.name}` : entry.name;
    if (entry.isDirectory()) await walk(root, child, out);
    else if (entry.isFile()) out.files.push(child);
    else if (entry.isSymbolicLink()) out.symlinks.push(child);
  }
  return out;
}

export class DirectorySource implements RepoSource {
  constructor(readonly dir: string) {}

  private readonly contents = new Map<string, string>();

  async sync() {
    const { blobs } = await this.listBlobs();
    const hash = createHash('sha1');
    for (const [file, sha] of [...blobs].sort()) {
      hash.update(`${file} ${sha}\n`);
    }
    return { revision: hash.digest('hex') };
  }

  async listBlobs(): Promise<BlobListing> {
    const blobs = new Map<string, string>();
    const { files, symlinks } = await walk(this.dir);
    for (const file of files) {
      const content = await fs.readFile(path.join(this.dir, file), 'utf8');
      const sha = createHash('sha1').update(content).digest('hex');
      this.contents.set(sha, content);
      blobs.set(file, sha);
    }
    return { blobs, symlinks };
  }

  async readBlobs(shas: string[]): Promise<Map<string, string>> {
    return new Map(shas.map(sha => [sha, this.contents.get(sha) ?? '']));
  }

  async changedBlobs(): Promise<never> {
    throw new Error('a plain folder has no history');
  }
}

/** A temp copy of a fixture repository with files added, replaced or (null) removed. */
export async function fixtureDirectory(
  changes: Record<string, string | null> = {},
  fixture: string = FIXTURE_REPO,
): Promise<string> {
  const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'gpu-backend-fixture-'));
  await fs.cp(fixture, dir, { recursive: true });
  for (const [file, content] of Object.entries(changes)) {
    const target = path.join(dir, file);
    if (content === null) await fs.rm(target, { force: true });
    else {
      await fs.mkdir(path.dirname(target), { recursive: true });
      await fs.writeFile(target, content);
    }
  }
  return dir;
}

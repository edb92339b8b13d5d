import { execFileSync } from 'node:child_process';
import { promises as fs } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import {
  createFixtureRemote,
  type FixtureRemote,
} from '../__testUtils__/fixtureRemote';
import { GitFetchSource } from './gitSnapshot';

jest.setTimeout(60_000);

describe('GitFetchSource housekeeping', () => {
  let remote: FixtureRemote;
  let cacheDir: string;

  beforeEach(async () => {
    remote = await createFixtureRemote();
    cacheDir = await fs.mkdtemp(path.join(os.tmpdir(), 'gpu-index-cache-'));
  });

  afterEach(async () => {
    await remote.cleanup();
    await fs.rm(cacheDir, { recursive: true, force: true });
  });

  const source = () =>
    new GitFetchSource({ repoUrl: remote.url, baseBranch: 'main', cacheDir });

  async function packs(gitDir: string): Promise<string[]> {
    const names = await fs.readdir(path.join(gitDir, 'objects', 'pack'));
    return names.filter(name => name.endsWith('.pack'));
  }

  it("runs git's auto maintenance after a source's first fetch, not after each fetch", async () => {
    const first = source();
    await first.sync();
    // Every fetch keeps its pack, and two packs are enough for a gc (in the foreground).
    for (const [key, value] of [
      ['fetch.unpackLimit', '1'],
      ['gc.autoPackLimit', '1'],
      ['gc.autoDetach', 'false'],
    ]) {
      execFileSync('git', ['-C', first.gitDir, 'config', key, value]);
    }
    await remote.commit({ 'notes.txt': 'one\n' }, 'one');
    await first.sync();
    const before = await packs(first.gitDir);
    const tip = await remote.commit({ 'notes.txt': 'two\n' }, 'two');

    // The next fetch leaves its pack beside the one before.
    await expect(first.sync()).resolves.toEqual({ revision: tip });
    expect(await packs(first.gitDir)).toHaveLength(before.length + 1);
    expect(before.length).toBeGreaterThan(0);

    // A restarted backend's first fetch runs the housekeeping: one pack again.
    await expect(source().sync()).resolves.toEqual({ revision: tip });
    expect(await packs(first.gitDir)).toHaveLength(1);
  });
});

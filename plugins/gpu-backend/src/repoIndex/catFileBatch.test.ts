import { execFileSync } from 'node:child_process';
import { promises as fs } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { CatFileBatch } from './catFileBatch';

jest.setTimeout(60_000);

describe('CatFileBatch', () => {
  let gitDir: string;
  /** Blob sha -> its text, in the order written. */
  let blobs: [string, string][];

  beforeAll(async () => {
    gitDir = await fs.mkdtemp(path.join(os.tmpdir(), 'gpu-cat-file-'));
    execFileSync('git', ['init', '--bare', '--quiet', gitDir]);
    // More reads than the queue keeps answered (4,096), so it drops them while reading.
    const texts = Array.from({ length: 9_000 }, (_, i) => `blob ${i}\n`);
    const shas = execFileSync(
      'git',
      ['hash-object', '-w', '--stdin-paths', '--no-filters'],
      {
        cwd: gitDir,
        input: (
          await Promise.all(
            texts.map(async (text, i) => {
              const file = path.join(gitDir, `in-${i}`);
              await fs.writeFile(file, text);
              return file;
            }),
          )
        ).join('\n'),
        encoding: 'utf8',
      },
    )
      .trim()
      .split('\n');
    blobs = shas.map((sha, i) => [sha, texts[i]]);
  });

  afterAll(async () => {
    await fs.rm(gitDir, { recursive: true, force: true });
  });

  it('answers every read with its own object, in order, across reads that overlap', async () => {
    const batch = new CatFileBatch(gitDir, {});
    try {
      const missing = '0'.repeat(40);
      const firstHalf = blobs.slice(0, 5_000);
      const secondHalf = blobs.slice(5_000);
      // Both asked before git answered the first: the queue holds them in turn.
      const [first, second] = await Promise.all([
        batch.read([...firstHalf.map(([sha]) => sha), missing]),
        batch.read(secondHalf.map(([sha]) => sha)),
      ]);
      expect(first.map(o => o?.data.toString('utf8'))).toEqual([
        ...firstHalf.map(([, text]) => text),
        undefined,
      ]);
      expect(second.map(o => o?.data.toString('utf8'))).toEqual(
        secondHalf.map(([, text]) => text),
      );
      // A later read after the queue emptied starts afresh.
      const [again] = await batch.read([blobs[7][0]]);
      expect(again).toEqual({
        type: 'blob',
        data: Buffer.from(blobs[7][1]),
      });
    } finally {
      batch.close();
    }
  });
});

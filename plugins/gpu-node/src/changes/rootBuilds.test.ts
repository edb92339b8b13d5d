/**
 * A root whose base does not build is not ours to fix: the change there is
 * reported unverified. A kustomize we stopped (it ran past its time, printed
 * past its limit) says nothing about the base: the verification did not
 * happen, so the change must not go out as if the base were broken. The
 * updater met it on the scale repository: a 2k-NodePool root's base build ran
 * past 60 s on a loaded machine and the re-render was pushed unverified.
 */
import { execFileSync } from 'child_process';
import {
  promises as fsPromises,
  existsSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'fs';
import { tmpdir } from 'os';
import { join } from 'path';
import { findKustomizeBinary } from '../kustomize/binary';
import {
  CHUNK_RESOURCES,
  CHUNKED_MIN_RESOURCES,
  chunksByName,
} from '../kustomize/chunkedBuild';
import { GitCheckoutTree } from '../repo/gitCheckoutTree';
import { FsRepoTree } from '../repo/tree';
import { buildTouchedRoots } from './rootBuilds';

const base = {
  'clusters/dev/kustomization.yaml': 'resources:\n  - pool.yaml\n',
  'clusters/dev/pool.yaml':
    'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: pool\n',
};

/** A kustomize stand-in: `script` is its body (sh). */
function fakeKustomize(dir: string, script: string): string {
  const bin = join(dir, `kustomize-${Math.random().toString(36).slice(2)}`);
  writeFileSync(bin, `#!/bin/sh\n${script}\n`, { mode: 0o755 });
  return bin;
}

describe('buildTouchedRoots', () => {
  let repo: string;
  let bins: string;

  beforeEach(async () => {
    repo = mkdtempSync(join(tmpdir(), 'gpu-root-builds-'));
    bins = mkdtempSync(join(tmpdir(), 'gpu-root-builds-bin-'));
    const tree = new FsRepoTree(repo);
    for (const [file, text] of Object.entries(base))
      await tree.writeFile(file, text);
  });
  afterEach(() => {
    rmSync(repo, { recursive: true, force: true });
    rmSync(bins, { recursive: true, force: true });
  });

  const change = {
    empty: false,
    changes: [
      {
        path: 'clusters/dev/pool.yaml',
        action: 'update' as const,
        content:
          'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: pool\ndata: { a: b }\n',
      },
    ],
  };

  it('reports the base build error of a root that does not build', async () => {
    const broken = fakeKustomize(
      bins,
      'echo "Error: accumulating resources" >&2\nexit 1',
    );
    const [build] = await buildTouchedRoots(repo, change as never, {
      env: { KUSTOMIZE_BIN: broken },
    });
    expect(build.root).toBe('clusters/dev');
    expect(build.before.error).toContain('accumulating resources');
  });

  it('fails, rather than calling the base broken, when kustomize is stopped at its timeout', async () => {
    const slow = fakeKustomize(bins, 'sleep 30');
    await expect(
      buildTouchedRoots(repo, change as never, {
        timeoutMs: 300,
        env: { KUSTOMIZE_BIN: slow },
      }),
    ).rejects.toThrow(
      /kustomize build .*clusters\/dev.* did not finish within 300 ms/,
    );
  });

  describe('of a big root that only lists its files', () => {
    const files = Array.from(
      { length: CHUNKED_MIN_RESOURCES },
      (_, i) => `clusters/big/cm-${i}.yaml`,
    );
    const configMap = (i: number, data = 'a') =>
      `apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: cm-${i}\ndata: { key: ${data} }\n`;

    beforeEach(async () => {
      const tree = new FsRepoTree(repo);
      await tree.writeFile(
        'clusters/big/kustomization.yaml',
        `resources:\n${files.map(f => `  - ${f.slice('clusters/big/'.length)}\n`).join('')}`,
      );
      for (const [i, file] of files.entries())
        await tree.writeFile(file, configMap(i));
    });

    /** A kustomize that counts its builds, then runs the real one. */
    const counting = () => {
      const log = join(bins, 'builds');
      const bin = fakeKustomize(
        bins,
        `echo "$2" >> '${log}'\nexec '${findKustomizeBinary({})}' "$@"`,
      );
      const builds = () =>
        existsSync(log)
          ? readFileSync(log, 'utf8').trim().split('\n').length
          : 0;
      return { env: { ...process.env, KUSTOMIZE_BIN: bin }, builds };
    };

    it('builds it a chunk at a time, and after the change only the chunk that changed', async () => {
      const kustomize = counting();
      const [build] = await buildTouchedRoots(
        repo,
        {
          empty: false,
          changes: [
            { path: files[7], action: 'update', content: configMap(7, 'b') },
          ],
        },
        { env: kustomize.env },
      );
      expect(build.before.objects).toHaveLength(CHUNKED_MIN_RESOURCES);
      expect(build.after.objects).toHaveLength(CHUNKED_MIN_RESOURCES);
      expect(
        build.after.objects!.find(o => o.metadata.name === 'cm-7'),
      ).toMatchObject({ data: { key: 'b' } });
      // Every chunk before, and the one holding cm-7 after.
      const chunks = chunksByName(
        files.map(f => ({ entry: f.slice('clusters/big/'.length) })),
        CHUNK_RESOURCES,
      );
      expect(chunks.length).toBeGreaterThan(1);
      expect(kustomize.builds()).toBe(chunks.length + 1);
    });

    it('copies none of its files for the build after: the unchanged ones are read where the checkout holds them', async () => {
      const cp = jest.spyOn(fsPromises, 'cp');
      try {
        const token = Math.random().toString(36).slice(2);
        const [build] = await buildTouchedRoots(
          repo,
          {
            empty: false,
            changes: [
              {
                path: files[9],
                action: 'update',
                content: configMap(9, token),
              },
            ],
          },
          { env: counting().env },
        );
        expect(cp.mock.calls.map(([from]) => String(from))).toEqual([]);
        expect(build.after.objects).toHaveLength(CHUNKED_MIN_RESOURCES);
        expect(
          build.after.objects!.find(o => o.metadata.name === 'cm-9')?.data,
        ).toEqual({ key: token });
        expect(
          build.after.objects!.find(o => o.metadata.name === 'cm-10')?.data,
        ).toEqual({ key: 'a' });
      } finally {
        cp.mockRestore();
      }
    });

    it('in a git checkout, builds the files the change writes and those changed in the work tree from their content, not from the ids git lists for the base', async () => {
      execFileSync('git', ['init', '-q'], { cwd: repo });
      execFileSync('git', ['add', '-A'], { cwd: repo });
      execFileSync(
        'git',
        ['-c', 'user.name=t', '-c', 'user.email=t@e', 'commit', '-qm', 'c'],
        { cwd: repo },
      );
      const token = Math.random().toString(36).slice(2);
      writeFileSync(join(repo, files[3]), configMap(3, `work-tree-${token}`));
      const [build] = await buildTouchedRoots(
        repo,
        {
          empty: false,
          changes: [
            {
              path: files[7],
              action: 'update',
              content: configMap(7, `change-${token}`),
            },
          ],
        },
        { env: counting().env },
        undefined,
        new GitCheckoutTree(repo),
      );
      const data = (side: 'before' | 'after', name: string) =>
        build[side].objects!.find(o => o.metadata.name === name)?.data;
      expect(data('before', 'cm-3')).toEqual({ key: `work-tree-${token}` });
      expect(data('before', 'cm-7')).toEqual({ key: 'a' });
      expect(data('after', 'cm-3')).toEqual({ key: `work-tree-${token}` });
      expect(data('after', 'cm-7')).toEqual({ key: `change-${token}` });
    });

    it('fails the build after when the change repeats an object of another chunk, as the whole build would', async () => {
      const last = CHUNKED_MIN_RESOURCES - 1;
      const [build] = await buildTouchedRoots(
        repo,
        {
          empty: false,
          changes: [
            { path: files[last], action: 'update', content: configMap(0) },
          ],
        },
        { env: counting().env },
      );
      expect(build.before.error).toBeUndefined();
      expect(build.after.error).toContain('already registered id');
    });
  });
});

describe('buildTouchedRoots of a root built whole', () => {
  let repo: string;
  beforeEach(async () => {
    repo = mkdtempSync(join(tmpdir(), 'gpu-root-builds-whole-'));
    const tree = new FsRepoTree(repo);
    for (const [file, text] of Object.entries(base))
      await tree.writeFile(file, text);
  });
  afterEach(() => rmSync(repo, { recursive: true, force: true }));

  it('asks once per side whether it is a plain root to build in chunks', async () => {
    // `plainRoot` looks for each kustomization file name; only it looks for this one.
    const lstat = jest.spyOn(fsPromises, 'lstat');
    const asked = () =>
      lstat.mock.calls.filter(([file]) =>
        String(file).endsWith(join('clusters', 'dev', 'Kustomization')),
      );
    try {
      const [build] = await buildTouchedRoots(repo, {
        empty: false,
        changes: [
          {
            path: 'clusters/dev/pool.yaml',
            action: 'update',
            content:
              'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: pool\ndata: { a: c }\n',
          },
        ],
      });
      expect(build.after.objects?.[0]).toMatchObject({ data: { a: 'c' } });
      // The base's build, and the tree after's (materialized once).
      expect(asked()).toHaveLength(2);
    } finally {
      lstat.mockRestore();
    }
  });
});

/**
 * A root whose base does not build is not ours to fix: the change there is
 * reported unverified. A kustomize we stopped (it ran past its time, printed
 * past its limit) says nothing about the base: the verification did not
 * happen, so the change must not go out as if the base were broken. The
 * updater met it on the scale repository: a 2k-NodePool root's base build ran
 * past 60 s on a loaded machine and the re-render was pushed unverified.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'fs';
import { tmpdir } from 'os';
import { join } from 'path';
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
});

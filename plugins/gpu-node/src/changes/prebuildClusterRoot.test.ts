/**
 * The base's build of the cluster's GPU root starts while the request is
 * planned (kustomize 4.5.4 spends about a second on a root holding a
 * NodePool): by the time the caller's guard runs, kustomize is at work, and
 * the verification takes that build rather than start its own.
 */
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'fs';
import { tmpdir } from 'os';
import { join } from 'path';
import { builtinCatalog } from '@gpu-gitops/plugin-gpu-common';
import { findKustomizeBinary } from '../kustomize/binary';
import { FsRepoTree } from '../repo/tree';
import { buildRequestChange } from './buildRequestChange';
import { mlRequest } from './__fixtures__/requests';
import {
  buildableRepoFiles as repoFiles,
  devCluster as cluster,
  removeTempRepo,
  writeTempRepo,
} from './__fixtures__/gitopsRepo';

// Real kustomize builds before and after on a shared two-core machine.
jest.setTimeout(300_000);

/** A kustomize that notes each build's folder, then runs the real one. */
function countingKustomize(): { bin: string; starts: () => string[] } {
  const dir = mkdtempSync(join(tmpdir(), 'gpu-prebuild-bin-'));
  const log = join(dir, 'starts');
  const bin = join(dir, 'kustomize');
  writeFileSync(
    bin,
    `#!/bin/sh\necho "$2" >> '${log}'\nexec '${findKustomizeBinary({})}' "$@"\n`,
    { mode: 0o755 },
  );
  return {
    bin,
    starts: () =>
      existsSync(log)
        ? readFileSync(log, 'utf8').trim().split('\n').filter(Boolean)
        : [],
  };
}

/** Waits (a hang guard, not a speed goal) until `seen` holds, or gives up. */
async function eventually(seen: () => boolean): Promise<boolean> {
  for (let i = 0; i < 300 && !seen(); i++) {
    await new Promise(resolve => setTimeout(resolve, 100));
  }
  return seen();
}

describe('buildRequestChange: the base build of the cluster root', () => {
  it('is under way while the request is guarded, and verified once', async () => {
    const dir = await writeTempRepo(repoFiles);
    const kustomize = countingKustomize();
    // The root that builds the cluster's GPU folder: its Argo CD folder.
    const clusterRoot = join(dir, 'clusters', 'dev');
    let startedBeforeGuard = false;
    try {
      const change = await buildRequestChange({
        tree: new FsRepoTree(dir),
        dir,
        request: mlRequest('llm', {
          model: 't4',
          sharing: 'time-slicing',
          replicas: 2,
          vramGiB: 4,
        }),
        cluster,
        catalog: builtinCatalog,
        kustomize: { env: { ...process.env, KUSTOMIZE_BIN: kustomize.bin } },
        guard: async () => {
          startedBeforeGuard = await eventually(() =>
            kustomize.starts().includes(clusterRoot),
          );
        },
      });
      expect(startedBeforeGuard).toBe(true);
      expect(change.verification?.verified).toContain('clusters/dev');
      // The base's build of the root ran once: the verification took it.
      expect(kustomize.starts().filter(s => s === clusterRoot)).toHaveLength(1);
    } finally {
      await removeTempRepo(dir);
    }
  });
});

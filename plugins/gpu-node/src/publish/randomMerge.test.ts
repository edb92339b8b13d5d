/**
 * Merges that git calls clean never leave a pool short.
 *
 * 20 requests (every sharing mode, shared and new pools) are filed at once,
 * then merged one by one in a random order, as reviewers would: a branch is
 * merged as it is when git merges it cleanly, else after the product brought
 * it up to date (`updateOpenPullRequests`); and now and then the product's
 * own update runs in between. After EVERY merge the repository must be
 * consistent: `validate` clean (every root built with the real kustomize),
 * every merged request's workload there, and every pool's limit exactly what
 * its requests need. At the end every request is merged and nothing is lost.
 *
 * The orders come from fixed seeds (reproducible); GPU_MERGE_SEEDS="1,2,3"
 * runs others.
 */
import { promises as fs } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import {
  builtinCatalog,
  derivedPoolLimit,
  GpuRequest,
  resolveClusterProfile,
  sizingOfPool,
} from '@gpu-gitops/plugin-gpu-common';
import { gitEnvironment } from '../git/auth';
import { createSimpleGit } from '../git/__testUtils__/simpleGitClient';
import { BareRemote, createBareRemote } from '../git/__testUtils__/bareRemote';
import { readRepoState } from '../repo/readRepoState';
import { FsRepoTree } from '../repo/tree';
import { validateGitOpsTree } from '../validate/validateGitOpsTree';
import { publishGpuRequest } from './publishGpuRequest';
import { gpuRequest, seedFiles } from './__testUtils__/fixtures';
import { updateOpenPullRequests } from './updateOpenPullRequests';

jest.setTimeout(1_200_000);

// MPS needs a device plugin that does not run the mixed MIG strategy.
const cluster = resolveClusterProfile({ name: 'prod', migStrategy: 'single' });
const catalog = builtinCatalog;

/** mulberry32: a tiny seeded PRNG, so an order can be replayed. */
function random(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** 20 requests: several onto one new time-sliced pool, others onto pools of their own mode. */
function twentyRequests(): GpuRequest[] {
  const shapes: Array<Partial<GpuRequest['spec']['gpu']>> = [
    { model: 't4', sharing: 'time-slicing', replicas: 3, vramGiB: 3 },
    { model: 't4', sharing: 'time-slicing', replicas: 3, vramGiB: 3 },
    { model: 't4', sharing: 'time-slicing', replicas: 2, vramGiB: 3 },
    { model: 't4', sharing: 'time-slicing', replicas: 4, vramGiB: 4 },
    { model: 't4', sharing: 'exclusive', replicas: 1, vramGiB: 12 },
    { model: 'l4', sharing: 'mps', replicas: 3, vramGiB: 5 },
    { model: 'a100-40gb', sharing: 'mig', replicas: 3, vramGiB: 9 },
    { model: 'l4', sharing: 'dra', replicas: 1, vramGiB: 16 },
  ];
  return Array.from({ length: 20 }, (_, i) =>
    gpuRequest(
      `svc-${String(i + 1).padStart(2, '0')}`,
      shapes[i % shapes.length],
      i % 2 === 0 ? 'team-a' : 'team-b',
    ),
  );
}

const seeds = (process.env.GPU_MERGE_SEEDS ?? '7')
  .split(',')
  .map(s => Number(s.trim()))
  .filter(n => Number.isInteger(n));

describe.each(seeds)('20 requests merged in a random order (seed %i)', seed => {
  let remote: BareRemote;
  let tmp: string;

  beforeAll(async () => {
    remote = await createBareRemote(seedFiles);
    tmp = await fs.mkdtemp(path.join(os.tmpdir(), 'gpu-gitops-merge-'));
  });
  afterAll(async () => {
    await remote.cleanup();
    await fs.rm(tmp, { recursive: true, force: true });
  });

  it('every request ends merged; after every merge validate is clean and every limit is exactly what the requests need', async () => {
    const next = random(seed);
    const requests = twentyRequests();
    const cacheDir = path.join(tmp, 'cache');
    const results = await Promise.all(
      requests.map((request, i) =>
        publishGpuRequest({
          request,
          cluster,
          catalog,
          repoUrl: remote.url,
          // Filed at once: each run has a clone of its own.
          cacheDir: path.join(tmp, `file-${i}`),
        }),
      ),
    );
    expect(results.every(r => r.changed)).toBe(true);

    const env = gitEnvironment(
      remote.url,
      {},
      {
        GIT_AUTHOR_NAME: 'Reviewer',
        GIT_AUTHOR_EMAIL: 'reviewer@example.com',
        GIT_COMMITTER_NAME: 'Reviewer',
        GIT_COMMITTER_EMAIL: 'reviewer@example.com',
      },
    );
    const work = path.join(tmp, 'reviewer');
    await createSimpleGit(tmp, env).raw(['clone', '--quiet', remote.url, work]);
    const git = createSimpleGit(work, env);
    /** Merges a branch as a forge's merge button would; false on a conflict. */
    const merge = async (branch: string): Promise<boolean> => {
      await git.raw(['fetch', '--quiet', 'origin']);
      await git.raw(['checkout', '--quiet', '-B', 'main', 'origin/main']);
      const clean = await git
        .raw(['merge', '--no-ff', '--no-edit', `origin/${branch}`])
        .then(
          async () =>
            (
              await git.raw(['diff', '--name-only', '--diff-filter=U'])
            ).trim() === '',
          () => false,
        );
      if (!clean) {
        await git.raw(['merge', '--abort']).catch(() => undefined);
        return false;
      }
      await git.raw(['push', '--quiet', 'origin', 'main']);
      return true;
    };
    const update = () =>
      updateOpenPullRequests({
        repoUrl: remote.url,
        cacheDir,
        clusterFor: () => cluster,
        catalogFor: () => catalog,
      });

    const open = new Map(results.map((r, i) => [r.branch, requests[i]]));
    const merged: GpuRequest[] = [];
    let conflicts = 0;
    let cleanButStale = 0;
    /** What went wrong in the loop, asserted after it: every entry is a problem. */
    const problems: unknown[] = [];
    while (open.size > 0) {
      const branches = [...open.keys()].sort();
      const branch = branches[Math.floor(next() * branches.length)];
      const base = (await remote.branchSha('main'))!;
      const parent = (await remote.git(['rev-parse', `${branch}^`])).trim();
      if (await merge(branch)) {
        if (parent !== base) cleanButStale++;
      } else {
        conflicts++;
        // The product brings the conflicting branch up to date; then it merges.
        const updates = await update();
        const mine = updates.find(u => u.branch === branch);
        if (mine?.outcome !== 'updated') problems.push({ branch, mine });
        problems.push(...updates.filter(u => u.outcome === 'failed'));
        if (!(await merge(branch))) problems.push(`${branch} still conflicts`);
      }
      merged.push(open.get(branch)!);
      open.delete(branch);
      await expectConsistent(work, merged);
      // The product's own update runs now and then, as the backend would.
      if (next() < 0.5) {
        problems.push(
          ...(await update()).filter(u =>
            ['failed', 'refused'].includes(u.outcome),
          ),
        );
      }
    }
    expect(problems).toEqual([]);
    // Concurrent requests on shared files do conflict (the ledger line makes
    // sure of it); and some stale branches still merge cleanly, rightly.
    expect(conflicts).toBeGreaterThan(0);
    expect(merged).toHaveLength(20);
    // Re-filing any request now changes nothing.
    const again = await publishGpuRequest({
      request: requests[0],
      cluster,
      catalog,
      repoUrl: remote.url,
      cacheDir,
    });
    expect(again.changed).toBe(false);
    // eslint-disable-next-line no-console
    console.info(
      `seed ${seed}: ${conflicts} conflicts (updated, then merged), ${cleanButStale} stale branches merged cleanly`,
    );
  });

  async function expectConsistent(dir: string, merged: GpuRequest[]) {
    await createSimpleGit(dir, {}).raw([
      'reset',
      '--quiet',
      '--hard',
      'origin/main',
    ]);
    expect(await validateGitOpsTree(dir, { cluster })).toEqual([]);
    const state = await readRepoState(
      new FsRepoTree(dir),
      undefined,
      cluster.name,
      {
        catalog,
      },
    );
    expect(state.skipped).toEqual([]);
    const ids = state.workloads.map(w => w.id).sort();
    for (const request of merged) {
      const id = `${request.metadata.namespace}/${request.metadata.name}`;
      expect(ids).toContain(id);
    }
    const inLedgers = state.pools.flatMap(p =>
      (p.ledger ?? []).map(e => e.request),
    );
    expect([...inLedgers].sort()).toEqual(
      merged.map(r => `${r.metadata.namespace}/${r.metadata.name}`).sort(),
    );
    for (const pool of state.pools) {
      const { key, limit } = derivedPoolLimit(
        pool,
        sizingOfPool(pool, catalog, state),
        state,
      );
      expect([pool.name, pool.limits?.[key]]).toEqual([pool.name, limit]);
    }
  }
});

/**
 * Allocation index of the gpu backend (issue 5 §4): a generated GitOps
 * repository with 2k GPU pools and 20k GPU workloads, indexed cold and again
 * after one new commit, and `GET /allocation` served at 200 requests/s.
 * All traffic goes to 127.0.0.1; request count and duration are bounded.
 */
import { promises as fs } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import {
  builtinCatalog,
  resolveClusterProfile,
} from '@gpu-gitops/plugin-gpu-common';
import {
  GitFetchSource,
  type RepoSource,
} from '@gpu-gitops/plugin-gpu-backend/src/repoIndex/gitSnapshot';
import { RepoIndex } from '@gpu-gitops/plugin-gpu-backend/src/repoIndex/RepoIndex';
import { loadAllocationApi } from './allocationLoad';
import {
  commitOneWorkload,
  createRepository,
  POOLS,
  REQUESTS,
  WORKLOADS,
} from './gpuRepo';
import { formatMs, percentile, report } from './stats';

const COMMIT_ROUNDS = 5;
const RATE_PER_SECOND = 200;
const API_SECONDS = 5;

/** Times the fetch separately from the index work (diff, read, parse). */
export class TimedSource implements RepoSource {
  syncMs = 0;
  constructor(private readonly inner: RepoSource) {}
  async sync() {
    const start = performance.now();
    const result = await this.inner.sync();
    this.syncMs = performance.now() - start;
    return result;
  }
  listBlobs(revision: string, folders: string[]) {
    return this.inner.listBlobs(revision, folders);
  }
  changedBlobs(from: string, to: string, folders: string[]) {
    return this.inner.changedBlobs(from, to, folders);
  }
  readBlobs(shas: string[]) {
    return this.inner.readBlobs(shas);
  }
}

export async function benchAllocationIndex(): Promise<void> {
  const root = await fs.mkdtemp(path.join(os.tmpdir(), 'gpu-index-bench-'));
  try {
    let start = performance.now();
    const bare = createRepository(root);
    console.log(
      `allocation-index: generated ${POOLS} pools, ${WORKLOADS} workloads, ${REQUESTS} requests in ${formatMs(performance.now() - start)}`,
    );
    const source = new TimedSource(
      new GitFetchSource({
        repoUrl: bare,
        baseBranch: 'main',
        cacheDir: path.join(root, 'cache'),
      }),
    );
    const options = {
      clusters: [resolveClusterProfile({ name: 'prod' })],
      defaultCluster: 'prod',
      catalog: builtinCatalog,
      stateFile: path.join(root, 'cache', 'index-state.json'),
    };

    // First start ever: every file is parsed.
    const first = new RepoIndex(options, source);
    start = performance.now();
    const cold = await first.refresh();
    const coldTotal = performance.now() - start;
    console.log(
      `allocation-index: first fetch ${formatMs(source.syncMs)}, ${cold.parsedPaths.length} files parsed`,
    );
    report(
      'allocation-index',
      `first index ${formatMs(coldTotal - source.syncMs)}`,
      coldTotal - source.syncMs,
      { max: 1000, unit: 'ms' },
    );
    await first.whenSaved();

    // A restarted backend: the saved parse results, then only what changed.
    const index = new RepoIndex(options, source);
    start = performance.now();
    const restart = await index.refresh();
    const restartTotal = performance.now() - start;
    if (!restart.restored)
      throw new Error('the saved index state was not used');
    report(
      'allocation-index',
      `cold restart ${formatMs(restartTotal - source.syncMs)}`,
      restartTotal - source.syncMs,
      { max: 1000, unit: 'ms' },
    );
    const snapshot = index.snapshot();
    if (
      snapshot.workloads.length !== WORKLOADS ||
      snapshot.clusters.get('prod')!.repoState.pools.length !== POOLS
    ) {
      throw new Error(
        `index incomplete: ${snapshot.workloads.length} workloads, ${snapshot.clusters.get('prod')!.repoState.pools.length} pools`,
      );
    }

    const indexMs: number[] = [];
    const totalMs: number[] = [];
    for (let round = 0; round < COMMIT_ROUNDS; round++) {
      commitOneWorkload(bare, round);
      start = performance.now();
      const result = await index.refresh();
      const took = performance.now() - start;
      if (result.full || result.changedPaths.length !== 1) {
        throw new Error(
          `expected an incremental refresh of one file, got ${JSON.stringify(result.changedPaths)}`,
        );
      }
      totalMs.push(took);
      indexMs.push(took - source.syncMs);
    }
    report(
      'allocation-index',
      `+1 commit index p50 ${formatMs(percentile(indexMs, 50))}`,
      percentile(indexMs, 50),
      { max: 50, unit: 'ms' },
    );
    report(
      'allocation-index',
      `+1 commit with fetch p50 ${formatMs(percentile(totalMs, 50))}`,
      percentile(totalMs, 50),
      { max: 50, unit: 'ms' },
    );

    const latencies = await loadAllocationApi(index, {
      ratePerSecond: RATE_PER_SECOND,
      seconds: API_SECONDS,
      // Half the lookups hit entities with a stored request (planned on first use).
      pick: n => (n % 2 === 0 ? (n * 7) % REQUESTS : (n * 13) % WORKLOADS),
    });
    console.log(
      `allocation-index: ${latencies.length} GET /allocation at ${RATE_PER_SECOND}/s, p50 ${formatMs(percentile(latencies, 50))}, max ${formatMs(Math.max(...latencies))}`,
    );
    report(
      'allocation-index',
      `GET /allocation p95 ${formatMs(percentile(latencies, 95))}`,
      percentile(latencies, 95),
      { max: 20, unit: 'ms' },
    );
  } finally {
    await fs.rm(root, { recursive: true, force: true });
  }
}

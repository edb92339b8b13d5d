import {
  builtinCatalog,
  costOfPool,
  type RepoState,
} from '@gpu-gitops/plugin-gpu-common';
import {
  existingRepoFiles,
  removeTempRepo,
  writeTempRepo,
} from '../changes/__fixtures__/gitopsRepo';
import { draRepoFiles, landingRepoFiles } from './__fixtures__/landingRepo';
import { readRepoState } from './readRepoState';
import { FsRepoTree } from './tree';

/** The pool's ledger as the planner derives it (a hand-written pool has none written). */
function ledgerShares(state: RepoState, pool: string) {
  return costOfPool(
    state.pools.find(p => p.name === pool)!,
    state,
    builtinCatalog,
  ).shares.map(s => [s.request, s.units]);
}

describe('readRepoState: where the GPU workloads land', () => {
  let dir: string;
  let state: RepoState;

  beforeAll(async () => {
    dir = await writeTempRepo({
      ...existingRepoFiles,
      ...landingRepoFiles,
      ...draRepoFiles,
    });
    state = await readRepoState(new FsRepoTree(dir), undefined, 'dev');
  });

  afterAll(() => removeTempRepo(dir));

  it('counts a workload that selects a pool only by its instance family on that pool', () => {
    expect(state.workloads.find(w => w.id === 'ml/llm-g5')).toMatchObject({
      pool: 'gpu-g5',
      replicas: 3,
      perReplica: 2,
    });
    expect(
      state.workloads.find(w => w.id === 'ml/llm-g5')?.placementWarning,
    ).toBeUndefined();
    // The planner's ledger of the pool holds its 3 × 2 GPUs.
    expect(ledgerShares(state, 'gpu-g5')).toEqual([['ml/llm-g5', 6]]);
    // The product's own workload stays on its pool.
    expect(state.workloads.find(w => w.id === 'ml/chat-assistant')?.pool).toBe(
      'gpu-t4-ts4',
    );
  });

  it('reports a workload whose selector no pool satisfies, with what blocks it', () => {
    const lost = state.workloads.find(w => w.id === 'ml/llm-p5');
    expect(lost?.pool).toBeUndefined();
    expect(lost?.placementWarning).toBe(
      'GPU workload ml/llm-p5 (apps/ml/llm-p5/deployment.yaml): its pods can land on no GPU pool of cluster dev: nodeSelector karpenter.k8s.aws/instance-family=p5: nodes of NodePool gpu-g5 carry g5 (and the same for gpu-l4-dra, gpu-t4-ts4); it is counted on none',
    );
  });

  it('lands a DRA workload only on a pool serving its DeviceClass, as its claim asks', () => {
    expect(state.workloads.find(w => w.id === 'ml/embed')).toMatchObject({
      pool: 'gpu-l4-dra',
      resourceName: 'gpu.nvidia.com',
    });
    expect(
      state.workloads.find(w => w.id === 'ml/embed')?.placementWarning,
    ).toBeUndefined();
  });
});

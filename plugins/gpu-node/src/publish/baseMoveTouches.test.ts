import { baseMoveTouches, type BranchScopeInput } from './baseMoveTouches';

/** What a new request `ml/chat` on cluster prod writes (default layout). */
const chatOnProd: BranchScopeInput = {
  layout: undefined,
  cluster: 'prod',
  existingWorkload: false,
  branchPaths: [
    'apps/ml/chat/deployment.yaml',
    'apps/ml/chat/kustomization.yaml',
    'clusters/prod/gpu/kustomization.yaml',
    'clusters/prod/gpu/nodepools/gpu-t4-ts.yaml',
    'requests/ml/chat.yaml',
  ],
};

describe('baseMoveTouches', () => {
  it.each([
    [
      'a pool of its cluster (a ledger moved)',
      'clusters/prod/gpu/nodepools/gpu-a10g.yaml',
    ],
    [
      'a hand-written NodePool of its cluster',
      'clusters/prod/karpenter/default.yaml',
    ],
    ['its device-plugin config', 'clusters/prod/gpu/device-plugin/t4-ts.yaml'],
    ['the mig-parted config', 'clusters/prod/gpu/mig/config.yaml'],
    ['a file it writes itself', 'requests/ml/chat.yaml'],
    [
      'its workload folder (the same workload name)',
      'apps/ml/chat/service.yaml',
    ],
  ])('is touched by %s', (_what, path) => {
    expect(baseMoveTouches(chatOnProd, ['README.md', path])).toBe(true);
  });

  it.each([
    ['another cluster', 'clusters/dev/gpu/nodepools/gpu-t4-ts.yaml'],
    ['another workload of its namespace', 'apps/ml/search/deployment.yaml'],
    ['another request', 'requests/ml/search.yaml'],
    ['a file outside every scope', 'README.md'],
  ])('is not touched by %s', (_what, path) => {
    expect(baseMoveTouches(chatOnProd, [path])).toBe(false);
  });

  it('is not touched by an empty move', () => {
    expect(baseMoveTouches(chatOnProd, [])).toBe(false);
  });

  it('reads everything but other clusters for a request on an existing workload (its bases and overlays may live anywhere)', () => {
    const existing = {
      ...chatOnProd,
      existingWorkload: true,
      branchPaths: ['apps/web/frontend/overlays/prod/gpu-patch.yaml'],
    };
    expect(baseMoveTouches(existing, ['base/web/deployment.yaml'])).toBe(true);
    expect(baseMoveTouches(existing, ['clusters/prod/argocd-app.yaml'])).toBe(
      true,
    );
    expect(
      baseMoveTouches(existing, ['clusters/dev/gpu/nodepools/x.yaml']),
    ).toBe(false);
  });

  it('shares the scope of a folder the layout gives every cluster', () => {
    const shared = {
      ...chatOnProd,
      layout: { nodePool: 'nodepools/{{cluster}}-{{pool}}.yaml' },
    };
    expect(baseMoveTouches(shared, ['nodepools/dev-gpu-t4-ts.yaml'])).toBe(
      true,
    );
  });
});

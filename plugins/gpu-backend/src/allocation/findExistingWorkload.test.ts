import type { RepositoryWorkload } from '@gpu-gitops/plugin-gpu-common';
import { emptySnapshot } from '../repoIndex/indexSnapshot';
import { findExistingWorkload } from './findExistingWorkload';

const recommender = (
  overlay: string,
  replicas: number,
): RepositoryWorkload => ({
  kind: 'Deployment',
  name: 'recommender',
  namespace: 'ml',
  path: 'apps/ml/recommender/base/deployment.yaml',
  containers: ['api'],
  replicas,
  overlay,
});

function snapshotWith(workloads: RepositoryWorkload[]) {
  return {
    ...emptySnapshot(),
    workloadObjectsByName: new Map([['recommender', workloads]]),
  };
}

describe('findExistingWorkload', () => {
  const wanted = {
    kind: 'Deployment' as const,
    name: 'recommender',
    namespace: 'ml',
  };

  it('takes the only workload of that kind, name and namespace', () => {
    const only = recommender('apps/ml/recommender/overlays/prod-eu', 3);
    expect(findExistingWorkload(snapshotWith([only]), wanted, 'prod-eu')).toBe(
      only,
    );
    expect(
      findExistingWorkload(
        snapshotWith([only]),
        { ...wanted, kind: 'StatefulSet' },
        'prod-eu',
      ),
    ).toBeUndefined();
    expect(
      findExistingWorkload(
        snapshotWith([only]),
        { ...wanted, namespace: 'web' },
        'prod-eu',
      ),
    ).toBeUndefined();
  });

  it('among overlays deploying it to the namespace, takes the one named after the cluster', () => {
    const eu = recommender('apps/ml/recommender/overlays/prod-eu', 3);
    const us = recommender('apps/ml/recommender/overlays/prod-us', 6);
    const snapshot = snapshotWith([eu, us]);
    expect(findExistingWorkload(snapshot, wanted, 'prod-us')).toBe(us);
    // None named after it: the action refuses to guess, so does the preview.
    expect(findExistingWorkload(snapshot, wanted, 'dev')).toBeUndefined();
  });
});

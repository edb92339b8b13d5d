import { gpuAnnotationKeys } from './metadataKeys';
import { patchedTolerations } from './patchedTolerations';
import { podPlacement } from './podPlacement';
import { awsCluster, timeSlicingT4Plan } from './__testUtils__/fixtures';
import { viewWorkload } from './workloadShape';

const plan = timeSlicingT4Plan;
const { name, namespace } = plan.request.metadata;
const poolToleration = (pool: string) => ({
  key: awsCluster.gpuTaintKey,
  operator: 'Equal',
  value: pool,
  effect: 'NoSchedule',
});
const own = { key: 'dedicated', operator: 'Exists' };

/** A Deployment with these tolerations, on `pool` by this request when given. */
function current(tolerations: Record<string, unknown>[], pool?: string) {
  const keys = gpuAnnotationKeys(awsCluster.labelDomain);
  return viewWorkload('Deployment', {
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: { name: 'llm' },
    spec: {
      template: {
        metadata: pool
          ? { annotations: { [keys.request]: `${namespace}/${name}` } }
          : {},
        spec: {
          ...(pool ? { nodeSelector: { 'karpenter.sh/nodepool': pool } } : {}),
          tolerations,
          containers: [{ name: 'api' }],
        },
      },
    },
  });
}

const tolerationsFor = (workload: ReturnType<typeof current>) =>
  patchedTolerations(
    plan,
    awsCluster,
    workload,
    podPlacement(plan, awsCluster),
  );

describe('patchedTolerations', () => {
  it('leaves the list alone when the workload already tolerates the pool', () => {
    expect(
      tolerationsFor(current([own, poolToleration(plan.pool.name)])),
    ).toBeUndefined();
  });

  it('adds the pool’s toleration after the workload’s own', () => {
    expect(tolerationsFor(current([own]))).toEqual([
      own,
      poolToleration(plan.pool.name),
    ]);
  });

  it('drops the toleration this request added for its previous pool', () => {
    expect(
      tolerationsFor(
        current([poolToleration('gpu-t4-ts2'), own], 'gpu-t4-ts2'),
      ),
    ).toEqual([own, poolToleration(plan.pool.name)]);
  });

  it('keeps a pool toleration the workload wrote itself (not put there by this request)', () => {
    expect(tolerationsFor(current([poolToleration('gpu-t4-ts2')]))).toEqual([
      poolToleration('gpu-t4-ts2'),
      poolToleration(plan.pool.name),
    ]);
  });
});

import { checkGpuWorkload } from './gpuWorkloadCheck';
import { devCluster, patchFixture } from './__fixtures__/plans';

/** The Deployment ml/recommender-api as built, with the given pod and GPU-container claims. */
function built(
  podClaims: Record<string, unknown>[],
  containerClaims: Record<string, unknown>[],
  gpuLimit?: string,
): any {
  return {
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: { name: 'recommender-api', namespace: 'ml' },
    spec: {
      replicas: 3,
      template: {
        spec: {
          nodeSelector: { 'karpenter.sh/nodepool': 'gpu-t4-exclusive' },
          resourceClaims: podClaims,
          containers: [
            { name: 'proxy', image: 'envoy:1' },
            {
              name: 'api',
              image: 'ghcr.io/example/recommender-api:1.0.0',
              resources: {
                claims: containerClaims,
                ...(gpuLimit ? { limits: { 'nvidia.com/gpu': gpuLimit } } : {}),
              },
            },
          ],
        },
      },
    },
  };
}

describe('checkGpuWorkload', () => {
  const { plan } = patchFixture();
  const check = (before: any, after: any) =>
    checkGpuWorkload(
      before,
      after,
      plan,
      devCluster,
      'Deployment',
      'api',
      false,
    );
  const scratch = { name: 'scratch', resourceClaimTemplateName: 'fast' };

  it('refuses a change that drops the workload’s own DRA claims', () => {
    const before = built([scratch], [{ name: 'scratch' }]);
    const after = built([], [], '1');
    expect(check(before, after)).toEqual([
      'Deployment "recommender-api" in namespace "ml": its pod resource claims changed from scratch to none',
      'Deployment "recommender-api" in namespace "ml": its container "api" claims changed from scratch to none',
    ]);
  });

  it('accepts the request’s claim beside the workload’s own', () => {
    const before = built([scratch], [{ name: 'scratch' }]);
    const after = built(
      [scratch, { name: 'gpu', resourceClaimTemplateName: 'x' }],
      [{ name: 'scratch' }, { name: 'gpu', request: 'gpu' }],
      '1',
    );
    expect(check(before, after)).toEqual([]);
  });

  describe('the scheduler of its pods', () => {
    const binPacking = {
      ...devCluster,
      kubernetesVersion: '1.36.2',
      binPacking: true,
    };
    const withScheduler = (schedulerName?: string) => {
      const object = built([], [], '1');
      if (schedulerName)
        object.spec.template.spec.schedulerName = schedulerName;
      return object;
    };
    const checkOn = (cluster: typeof devCluster, before: any, after: any) =>
      checkGpuWorkload(
        before,
        after,
        plan,
        cluster,
        'Deployment',
        'api',
        false,
      );

    it('refuses a build whose pods do not run with the scheduler the profile says', () => {
      // An overlay's own patch after ours put the default scheduler back.
      expect(checkOn(binPacking, withScheduler(), withScheduler())).toEqual([
        'Deployment "recommender-api" in namespace "ml" runs with the default scheduler, the cluster profile\'s binPacking says scheduler "gpu-binpack"',
      ]);
      // A profile that does not opt in: the change never names it.
      expect(
        checkOn(devCluster, withScheduler(), withScheduler('gpu-binpack')),
      ).toEqual([
        'Deployment "recommender-api" in namespace "ml" runs with scheduler "gpu-binpack", the cluster profile\'s binPacking says the default scheduler',
      ]);
    });

    it("accepts the bin-packing scheduler in place of the default one, and a team's own scheduler kept", () => {
      expect(
        checkOn(binPacking, withScheduler(), withScheduler('gpu-binpack')),
      ).toEqual([]);
      expect(
        checkOn(binPacking, withScheduler('volcano'), withScheduler('volcano')),
      ).toEqual([]);
      expect(checkOn(devCluster, withScheduler(), withScheduler())).toEqual([]);
    });
  });
});

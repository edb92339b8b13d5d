import { resolveClusterProfile } from '../cluster/schema';
import { poolNodeLabel, poolSelectedBy } from './poolNodeLabel';
import { staticCluster } from './__testUtils__/staticRack';

describe('poolNodeLabel', () => {
  it("names Karpenter's label on Karpenter clusters and the product's elsewhere", () => {
    expect(poolNodeLabel(resolveClusterProfile())).toBe(
      'karpenter.sh/nodepool',
    );
    expect(
      poolNodeLabel(
        resolveClusterProfile({ name: 'aks', provider: 'azure-karpenter' }),
      ),
    ).toBe('karpenter.sh/nodepool');
    expect(
      poolNodeLabel(staticCluster('gpu', { labelDomain: 'gpu.acme.io' })),
    ).toBe('gpu.acme.io/pool');
    expect(
      poolNodeLabel(
        resolveClusterProfile({
          name: 'ml-prod',
          provider: 'cluster-api',
          clusterApi: {
            clusterName: 'ml-prod',
            namespace: 'capi',
            infrastructure: 'openstack',
            kubernetesVersion: 'v1.33.1',
            autoscaler: false,
            openStack: { imageName: 'ubuntu', sshKeyName: 'ml' },
          },
        }),
      ),
    ).toBe('gpu.backstage.io/pool');
  });
});

describe('poolSelectedBy', () => {
  it('reads the pool from either label, and none from a selector naming two', () => {
    expect(poolSelectedBy({ 'karpenter.sh/nodepool': 'gpu-t4' })).toBe(
      'gpu-t4',
    );
    expect(poolSelectedBy({ 'gpu.acme.io/pool': 'gpu-t4', tier: 'gpu' })).toBe(
      'gpu-t4',
    );
    expect(
      poolSelectedBy({ 'gpu.acme.io/pool': 'gpu-t4' }, 'gpu.backstage.io'),
    ).toBeUndefined();
    expect(
      poolSelectedBy({ 'a.io/pool': 'gpu-t4', 'b.io/pool': 'gpu-a100' }),
    ).toBeUndefined();
    expect(poolSelectedBy({ intent: 'gpu-workloads' })).toBeUndefined();
    expect(poolSelectedBy(undefined)).toBeUndefined();
  });
});

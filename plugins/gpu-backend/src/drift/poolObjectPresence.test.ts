import { resolveClusterProfile } from '@gpu-gitops/plugin-gpu-common';
import { poolObjectKind } from './poolObjectPresence';

describe('poolObjectKind', () => {
  it('is the provider’s pool kind where drift reads it', () => {
    expect(poolObjectKind(resolveClusterProfile({ name: 'eks' }))).toBe(
      'NodePool',
    );
  });

  it('is the ComputeClass on GKE, and the NodePool on EKS Auto Mode', () => {
    expect(
      poolObjectKind(
        resolveClusterProfile({ name: 'gke-ml', provider: 'gke' }),
      ),
    ).toBe('ComputeClass');
    expect(
      poolObjectKind(
        resolveClusterProfile({ name: 'auto-ml', provider: 'eks-auto-mode' }),
      ),
    ).toBe('NodePool');
  });
});

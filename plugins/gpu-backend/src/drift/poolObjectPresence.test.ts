import { resolveClusterProfile } from '@gpu-gitops/plugin-gpu-common';
import { poolObjectKind } from './poolObjectPresence';

describe('poolObjectKind', () => {
  it('is the provider’s pool kind where drift reads it', () => {
    expect(poolObjectKind(resolveClusterProfile({ name: 'eks' }))).toBe(
      'NodePool',
    );
  });

  it('is none on GKE, whose ComputeClasses drift does not read yet (no kind drift could not name)', () => {
    expect(
      poolObjectKind(
        resolveClusterProfile({ name: 'gke-ml', provider: 'gke' }),
      ),
    ).toBeUndefined();
  });
});

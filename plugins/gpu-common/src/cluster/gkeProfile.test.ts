import { GpuInputError } from '../errors';
import { resolveClusterProfile } from './schema';

const gke = { name: 'gke-ml', provider: 'gke', region: 'us-central1' };

function issuesOf(override: unknown) {
  try {
    resolveClusterProfile(override);
  } catch (error) {
    expect(error).toBeInstanceOf(GpuInputError);
    return (error as GpuInputError).issues;
  }
  throw new Error('expected a GpuInputError');
}

describe('a gke cluster profile', () => {
  it('refuses each setting of what GKE runs itself, naming the field, the rule and the reason', () => {
    const issues = issuesOf({
      ...gke,
      devicePluginConfigMap: { name: 'team-sharing' },
      migPartedConfigMap: { namespace: 'kube-system' },
      generateNodeClass: true,
      dra: { consumableShares: 4 },
      migStrategy: 'mixed',
      kubernetesVersion: '1.36',
    });
    expect(issues.map(i => [i.path, i.rule])).toEqual([
      ['migStrategy', 'gke-mig-strategy'],
      ['devicePluginConfigMap', 'gke-device-plugin'],
      ['migPartedConfigMap', 'gke-mig-partitions'],
      ['generateNodeClass', 'gke-node-class'],
      ['dra', 'gke-dra-autoscaling'],
    ]);
    expect(issues[1].message).toBe(
      'does not apply to provider "gke": GKE runs its own NVIDIA device plugin on its GPU nodes and shares GPUs as each ComputeClass\'s gpuSharing says; it reads no device-plugin ConfigMap; leave it out',
    );
    expect(issues[2].message).toContain('gpuSharing.gpuPartitionSize');
  });

  it('keeps a resolved profile valid when resolved again (the defaults ask nothing of GKE)', () => {
    const resolved = resolveClusterProfile(gke);
    expect(resolveClusterProfile(resolved)).toEqual(resolved);
    expect(resolved.migStrategy).toBe('single');
  });

  it('leaves the same settings to the other providers', () => {
    expect(() =>
      resolveClusterProfile({
        name: 'eks',
        devicePluginConfigMap: { name: 'team-sharing' },
        dra: { consumableShares: 4 },
        kubernetesVersion: '1.36',
      }),
    ).not.toThrow();
  });
});

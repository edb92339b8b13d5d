import { GpuInputError } from '../errors';
import { defaultClusterProfile } from './defaults';
import {
  karpenterHasNodeOverlayGate,
  karpenterSupportsGte,
  parseKarpenterVersion,
} from './karpenterVersion';
import { resolveClusterProfile } from './schema';

function issuesOf(override: unknown) {
  try {
    resolveClusterProfile(override);
  } catch (error) {
    expect(error).toBeInstanceOf(GpuInputError);
    return (error as GpuInputError).issues;
  }
  throw new Error('expected a GpuInputError');
}

describe('resolveClusterProfile', () => {
  it('returns the documented defaults without an override', () => {
    expect(resolveClusterProfile()).toEqual({
      name: 'default',
      provider: 'aws-karpenter',
      karpenterVersion: '1.14.1',
      nodeClass: {
        group: 'karpenter.k8s.aws',
        kind: 'EC2NodeClass',
        name: 'gpu',
      },
      generateNodeClass: false,
      devicePluginConfigMap: {
        name: 'nvidia-device-plugin-configs',
        namespace: 'gpu-operator',
      },
      migPartedConfigMap: {
        name: 'custom-mig-parted-config',
        namespace: 'gpu-operator',
      },
      migStrategy: 'mixed',
      nodeOverlay: true,
      gpuTaintKey: 'nvidia.com/gpu',
      labelDomain: 'gpu.backstage.io',
      consolidateAfter: '5m',
      systemNamespaces: [
        'kube-system',
        'kube-public',
        'kube-node-lease',
        'karpenter',
        'gpu-operator',
      ],
    });
  });

  it('returns a copy the caller may change without touching the defaults', () => {
    const profile = resolveClusterProfile();
    profile.nodeClass.name = 'other';
    expect(defaultClusterProfile.nodeClass.name).toBe('gpu');
  });

  it('merges a partial override, nested refs key by key', () => {
    const profile = resolveClusterProfile({
      name: 'prod-eu',
      karpenterVersion: '1.8.0',
      migStrategy: 'single',
      nodeClass: { name: 'gpu-bottlerocket' },
      devicePluginConfigMap: { namespace: 'nvidia' },
    });
    expect(profile.name).toBe('prod-eu');
    expect(profile.migStrategy).toBe('single');
    expect(profile.nodeClass).toEqual({
      group: 'karpenter.k8s.aws',
      kind: 'EC2NodeClass',
      name: 'gpu-bottlerocket',
    });
    expect(profile.devicePluginConfigMap).toEqual({
      name: 'nvidia-device-plugin-configs',
      namespace: 'nvidia',
    });
    expect(profile.consolidateAfter).toBe('5m');
  });

  it.each([
    [{ colour: 'x' }, 'colour', 'unknown-key'],
    [{ nodeClass: { nam: 'x' } }, 'nodeClass.nam', 'unknown-key'],
    [{ name: 'Prod' }, 'name', 'dns1123-label'],
    [{ name: '../x' }, 'name', 'dns1123-label'],
    [{ provider: 'gcp' }, 'provider', 'enum'],
    [{ karpenterVersion: 'latest' }, 'karpenterVersion', 'version'],
    [{ migStrategy: 'none' }, 'migStrategy', 'enum'],
    [{ region: 'EU West 1' }, 'region', 'region'],
    [{ nodeOverlay: 'yes' }, 'nodeOverlay', 'type'],
    [{ labelDomain: 'karpenter.sh' }, 'labelDomain', 'label-domain'],
    [{ labelDomain: 'node.kubernetes.io' }, 'labelDomain', 'label-domain'],
    [{ labelDomain: 'Bad_Domain' }, 'labelDomain', 'label-domain'],
    [{ gpuTaintKey: 'a/b/c' }, 'gpuTaintKey', 'taint-key'],
    [{ consolidateAfter: '5 minutes' }, 'consolidateAfter', 'format'],
    [
      { devicePluginConfigMap: { namespace: 'A' } },
      'devicePluginConfigMap.namespace',
      'dns1123-label',
    ],
    ['a string', '', 'type'],
  ])('rejects %j', (override, path, rule) => {
    expect(issuesOf(override)).toContainEqual(
      expect.objectContaining({ path, rule }),
    );
  });

  it('refuses NodeOverlays on a Karpenter older than v1.7.0, naming the field and the rule', () => {
    expect(issuesOf({ karpenterVersion: '1.6.2', nodeOverlay: true })).toEqual([
      expect.objectContaining({
        path: 'nodeOverlay',
        rule: 'node-overlay-karpenter-version',
        message: expect.stringContaining(
          'cannot be true on Karpenter 1.6.2: the NodeOverlay API (karpenter.sh/v1alpha1) and its feature gate arrived in Karpenter v1.7.0',
        ),
      }),
    ]);
    expect(
      resolveClusterProfile({ karpenterVersion: '1.7.0', nodeOverlay: true })
        .nodeOverlay,
    ).toBe(true);
    // Without Karpenter the field is never read, so never refused.
    expect(
      resolveClusterProfile({
        provider: 'static',
        karpenterVersion: '1.6.2',
        nodeOverlay: true,
      }).nodeOverlay,
    ).toBe(true);
  });

  it('writes no NodeOverlays for a Karpenter older than v1.7.0 when the profile says nothing of them', () => {
    expect(
      resolveClusterProfile({ karpenterVersion: '1.6.2' }).nodeOverlay,
    ).toBe(false);
    expect(
      resolveClusterProfile({ karpenterVersion: '1.7.0' }).nodeOverlay,
    ).toBe(true);
  });

  it('keeps the region the form shows beside the cluster name', () => {
    expect(resolveClusterProfile({ region: 'eu-west-1' }).region).toBe(
      'eu-west-1',
    );
    expect(resolveClusterProfile().region).toBeUndefined();
  });

  it('says what is wrong in words, never with a regular expression', () => {
    const issues = issuesOf({
      nodeClass: { kind: 'ec2nodeclass' },
      consolidateAfter: '5 minutes',
    });
    expect(issues).toEqual([
      {
        path: 'nodeClass.kind',
        rule: 'format',
        message: 'has the wrong format',
      },
      {
        path: 'consolidateAfter',
        rule: 'format',
        message: 'must be a duration such as "5m", "1h30m" or "Never"',
      },
    ]);
  });
});

describe('karpenterSupportsGte', () => {
  it.each([
    ['1.14.1', true],
    ['v1.9.0', true],
    ['1.9', true],
    ['1.10.0-rc.1', true],
    ['2.0.0', true],
    ['1.8.3', false],
    ['0.37.0', false],
    ['not-a-version', false],
  ])('%s => %s', (version, expected) => {
    expect(karpenterSupportsGte(version)).toBe(expected);
  });

  it('parses versions into numbers', () => {
    expect(parseKarpenterVersion('v1.14.1')).toEqual([1, 14, 1]);
    expect(parseKarpenterVersion('x')).toBeUndefined();
  });
});

describe('karpenterHasNodeOverlayGate', () => {
  it.each([
    ['1.14.1', true],
    ['v1.7.0', true],
    ['1.7', true],
    ['1.6.8', false],
    ['0.37.7', false],
    ['1.x', undefined],
    ['>=1.7.0', undefined],
  ])('%s => %s', (version, expected) => {
    expect(karpenterHasNodeOverlayGate(version)).toBe(expected);
  });
});

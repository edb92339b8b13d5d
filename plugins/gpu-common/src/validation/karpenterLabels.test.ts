import { buildNodeOverlays } from '../manifests/nodeOverlay';
import { buildNodePool } from '../manifests/nodePool';
import {
  awsCluster,
  fixturePlans,
  plainCluster,
  timeSlicingT4Plan,
} from '../manifests/__testUtils__/fixtures';
import { checkKarpenterLabels, labelDomain } from './karpenterLabels';

function poolWith(
  labels: Record<string, string>,
  requirementKeys: string[] = [],
) {
  const pool = buildNodePool(timeSlicingT4Plan, awsCluster) as any;
  pool.spec.template.metadata.labels = labels;
  pool.spec.template.spec.requirements = requirementKeys.map(key => ({
    key,
    operator: 'In',
    values: ['x'],
  }));
  return pool;
}

describe('checkKarpenterLabels', () => {
  it.each(Object.values(fixturePlans))(
    'finds nothing in generated pools and overlays ($pool.name)',
    plan => {
      for (const cluster of [awsCluster, plainCluster]) {
        const objects = [
          buildNodePool(plan, cluster),
          ...buildNodeOverlays(plan, awsCluster),
        ];
        for (const object of objects) {
          expect(
            checkKarpenterLabels(object, {
              karpenterVersion: cluster.karpenterVersion,
            }),
          ).toEqual([]);
        }
      }
    },
  );

  it('takes the domain before the first slash', () => {
    expect(labelDomain('karpenter.sh/nodepool')).toBe('karpenter.sh');
    expect(labelDomain('plainkey')).toBe('plainkey');
  });

  it('rejects karpenter.sh/nodepool in template labels and requirements of a NodePool', () => {
    const findings = checkKarpenterLabels(
      poolWith({ 'karpenter.sh/nodepool': 'x' }, ['karpenter.sh/nodepool']),
    );
    expect(findings.map(f => [f.path, f.rule])).toEqual([
      [
        'spec.template.metadata.labels["karpenter.sh/nodepool"]',
        'karpenter-restricted-label',
      ],
      ['spec.template.spec.requirements[0].key', 'karpenter-restricted-label'],
    ]);
  });

  it('allows karpenter.sh/capacity-type but not other karpenter.sh keys, also on sub-domains', () => {
    expect(
      checkKarpenterLabels(poolWith({ 'karpenter.sh/capacity-type': 'spot' })),
    ).toEqual([]);
    const findings = checkKarpenterLabels(
      poolWith({ 'karpenter.sh/foo': 'x', 'team.karpenter.sh/bar': 'y' }),
    );
    expect(findings.map(f => f.rule)).toEqual([
      'karpenter-restricted-domain',
      'karpenter-restricted-domain',
    ]);
  });

  it('rejects kubernetes.io/hostname', () => {
    const findings = checkKarpenterLabels(
      poolWith({ 'kubernetes.io/hostname': 'n1' }),
    );
    expect(findings).toEqual([
      expect.objectContaining({
        rule: 'karpenter-restricted-label',
        path: 'spec.template.metadata.labels["kubernetes.io/hostname"]',
      }),
    ]);
  });

  it('allows only the karpenter.k8s.aws allowlist (instance-pods is NOT on it)', () => {
    expect(
      checkKarpenterLabels(
        poolWith({}, [
          'karpenter.k8s.aws/instance-gpu-count',
          'karpenter.k8s.aws/instance-tenancy',
        ]),
      ),
    ).toEqual([]);
    const findings = checkKarpenterLabels(
      poolWith({}, ['karpenter.k8s.aws/instance-pods']),
    );
    expect(findings).toEqual([
      expect.objectContaining({
        rule: 'karpenter-restricted-domain',
        path: 'spec.template.spec.requirements[0].key',
      }),
    ]);
  });

  it('allows karpenter.sh/nodepool in NodeOverlays, with the shorter aws allowlist', () => {
    const [overlay] = buildNodeOverlays(timeSlicingT4Plan, awsCluster) as any[];
    expect(checkKarpenterLabels(overlay)).toEqual([]);
    overlay.spec.requirements.push({
      key: 'karpenter.k8s.aws/instance-tenancy',
      operator: 'In',
      values: ['default'],
    });
    expect(checkKarpenterLabels(overlay).map(f => f.path)).toEqual([
      'spec.requirements[2].key',
    ]);
  });

  it('applies the kubernetes.io / k8s.io rules only before Karpenter 1.9', () => {
    const pool = poolWith(
      {
        'kubernetes.io/team': 'a',
        'sig.k8s.io/x': 'b',
        'node.kubernetes.io/gpu': 'c',
        'kubernetes.io/arch': 'amd64',
      },
      ['node.kubernetes.io/instance-type', 'kubernetes.io/arch'],
    );
    expect(checkKarpenterLabels(pool, { karpenterVersion: '1.14.1' })).toEqual(
      [],
    );
    const legacy = checkKarpenterLabels(pool, { karpenterVersion: '1.8.3' });
    expect(legacy.map(f => f.path)).toEqual([
      'spec.template.metadata.labels["kubernetes.io/team"]',
      'spec.template.metadata.labels["sig.k8s.io/x"]',
    ]);
  });

  it('ignores kinds without label rules', () => {
    expect(
      checkKarpenterLabels({
        kind: 'Deployment',
        spec: {
          template: { metadata: { labels: { 'karpenter.sh/nodepool': 'x' } } },
        },
      }),
    ).toEqual([]);
  });
});

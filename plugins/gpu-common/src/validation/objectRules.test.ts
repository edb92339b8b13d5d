import { buildManifests } from '../manifests/buildManifests';
import { awsCluster, fixturePlans } from '../manifests/__testUtils__/fixtures';
import { checkObjectRules } from './objectRules';

describe('checkObjectRules', () => {
  it('finds nothing in any generated object', () => {
    for (const plan of Object.values(fixturePlans)) {
      const set = buildManifests(plan, awsCluster);
      for (const object of [...set.pool.objects, ...set.workload.objects]) {
        expect(
          checkObjectRules(object, { karpenterVersion: '1.14.1' }),
        ).toEqual([]);
      }
    }
  });

  it('dispatches by kind', () => {
    const [nodePool, overlay] = buildManifests(
      fixturePlans['time-slicing'],
      awsCluster,
    ).pool.objects as any[];
    nodePool.spec.template.metadata.labels['karpenter.sh/nodepool'] = 'x';
    delete nodePool.spec.disruption.consolidateAfter;
    expect(checkObjectRules(nodePool).map(f => f.rule)).toEqual([
      'karpenter-restricted-label',
      'consolidate-after-required',
    ]);
    overlay.spec.requirements.push({
      key: 'kubernetes.io/hostname',
      operator: 'In',
      values: ['n'],
    });
    expect(checkObjectRules(overlay).map(f => f.rule)).toEqual([
      'karpenter-restricted-label',
    ]);
    expect(
      checkObjectRules({
        apiVersion: 'v1',
        kind: 'ConfigMap',
        metadata: { name: 'x' },
      }),
    ).toEqual([]);
    expect(checkObjectRules('not an object')).toEqual([]);
  });
});

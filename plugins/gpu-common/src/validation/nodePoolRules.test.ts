import { buildDeployment } from '../manifests/deployment';
import { buildNodePool } from '../manifests/nodePool';
import {
  awsCluster,
  fixturePlans,
  plainCluster,
  exclusiveT4Plan,
} from '../manifests/__testUtils__/fixtures';
import {
  checkNodePoolRules,
  checkTolerationsMatchTaints,
} from './nodePoolRules';

const pool = () =>
  structuredClone(buildNodePool(exclusiveT4Plan, awsCluster)) as any;
const rules = (p: unknown, options = {}) =>
  checkNodePoolRules(p, options).map(f => `${f.path}:${f.rule}`);

describe('checkNodePoolRules', () => {
  it.each(Object.values(fixturePlans))(
    'finds nothing in generated pools ($pool.name)',
    plan => {
      for (const cluster of [awsCluster, plainCluster]) {
        expect(
          checkNodePoolRules(buildNodePool(plan, cluster), {
            karpenterVersion: cluster.karpenterVersion,
          }),
        ).toEqual([]);
      }
    },
  );

  it('requires consolidateAfter whenever disruption is set', () => {
    const p = pool();
    delete p.spec.disruption.consolidateAfter;
    expect(rules(p)).toEqual([
      'spec.disruption.consolidateAfter:consolidate-after-required',
    ]);
    p.spec.disruption.consolidateAfter = '5 minutes';
    expect(rules(p)).toEqual(['spec.disruption.consolidateAfter:duration']);
    delete p.spec.disruption;
    expect(rules(p)).toEqual([]);
  });

  it('requires a complete nodeClassRef', () => {
    const p = pool();
    p.spec.template.spec.nodeClassRef = { name: 'gpu', group: '' };
    expect(rules(p)).toEqual([
      'spec.template.spec.nodeClassRef.group:node-class-ref',
      'spec.template.spec.nodeClassRef.kind:node-class-ref',
    ]);
  });

  it('gates Gte/Lte on the Karpenter version and checks operator values', () => {
    const p = pool();
    p.spec.template.spec.requirements.push(
      {
        key: 'karpenter.k8s.aws/instance-gpu-memory',
        operator: 'Gte',
        values: ['15000'],
      },
      {
        key: 'karpenter.k8s.aws/instance-gpu-count',
        operator: 'Lt',
        values: ['1', '2'],
      },
      {
        key: 'karpenter.k8s.aws/instance-family',
        operator: 'In',
        values: ['g4dn'],
        minValues: 2,
      },
      { key: 'karpenter.k8s.aws/instance-size', operator: 'NotIn', values: [] },
    );
    expect(rules(p, { karpenterVersion: '1.14.1' })).toEqual([
      'spec.template.spec.requirements[7].values:requirement-values',
      'spec.template.spec.requirements[8].minValues:min-values',
      'spec.template.spec.requirements[9].values:requirement-values',
    ]);
    expect(rules(p, { karpenterVersion: '1.8.0' })).toContain(
      'spec.template.spec.requirements[6].operator:operator-version',
    );
  });

  it('checks template label values and Exists without values', () => {
    const p = pool();
    p.spec.template.metadata.labels = {
      ok: 'a.b-c_d',
      slash: 'a/b',
      long: 'x'.repeat(64),
      edge: '-a',
    };
    p.spec.template.spec.requirements.push({
      key: 'example.com/gpu',
      operator: 'Exists',
      values: ['x'],
    });
    expect(rules(p)).toEqual([
      'spec.template.metadata.labels["slash"]:label-value',
      'spec.template.metadata.labels["long"]:label-value',
      'spec.template.metadata.labels["edge"]:label-value',
      'spec.template.spec.requirements[6].values:requirement-values',
    ]);
  });

  it('allows only limits.nodes and no weight on static pools', () => {
    const p = pool();
    p.spec.replicas = 2;
    p.spec.weight = 10;
    p.spec.limits = { nodes: '2', 'nvidia.com/gpu': 2 };
    expect(rules(p)).toEqual([
      'spec.limits:static-pool-limits',
      'spec.weight:static-pool-weight',
    ]);
  });

  it('takes limits as the CRD does: integers or quantity strings (x-kubernetes-int-or-string)', () => {
    // The limits of aws-ia/terraform-aws-eks-blueprints' Karpenter pattern.
    const p = pool();
    p.spec.limits = { cpu: 1000, memory: '1000Gi', 'nvidia.com/gpu': 8 };
    expect(rules(p)).toEqual([]);
  });
});

describe('taints and tolerations', () => {
  it('generated workloads tolerate their pool taint', () => {
    for (const plan of Object.values(fixturePlans)) {
      const nodePool = buildNodePool(plan, awsCluster) as any;
      const deployment = buildDeployment(plan, awsCluster) as any;
      expect(
        checkTolerationsMatchTaints(
          nodePool.spec.template.spec.taints,
          deployment.spec.template.spec.tolerations,
        ),
      ).toEqual([]);
    }
  });

  it('reports a taint nobody tolerates', () => {
    const taint = {
      key: 'gpu.backstage.io/pool',
      value: 'gpu-t4',
      effect: 'NoSchedule',
    };
    const findings = checkTolerationsMatchTaints(
      [taint],
      [
        {
          key: 'gpu.backstage.io/pool',
          operator: 'Equal',
          value: 'gpu-l4',
          effect: 'NoSchedule',
        },
      ],
    );
    expect(findings).toEqual([
      expect.objectContaining({ rule: 'untolerated-taint' }),
    ]);
    expect(
      checkTolerationsMatchTaints(
        [{ ...taint, effect: 'PreferNoSchedule' }],
        [],
      ),
    ).toEqual([]);
  });
});

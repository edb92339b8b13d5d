import {
  awsCluster,
  draL4Plan,
  exclusiveT4Plan,
  plainCluster,
  timeSlicingT4Plan,
} from './__testUtils__/fixtures';
import { ec2Architecture } from '../providers/awsMachines';
import { buildNodePool, nodePoolRequirements } from './nodePool';
import { validateAgainstSchema } from './__testUtils__/kubernetesSchemas';

describe('buildNodePool', () => {
  it('builds a schema-valid exclusive NodePool from the plan', () => {
    const pool = buildNodePool(exclusiveT4Plan, awsCluster) as any;
    expect(() => validateAgainstSchema(pool)).not.toThrow();
    expect(pool.apiVersion).toBe('karpenter.sh/v1');
    expect(pool.metadata.name).toBe('gpu-t4');
    expect(pool.spec.template.spec.nodeClassRef).toEqual({
      group: 'karpenter.k8s.aws',
      kind: 'EC2NodeClass',
      name: 'gpu',
    });
    expect(pool.spec.template.spec.taints).toEqual([
      { key: 'gpu.backstage.io/pool', value: 'gpu-t4', effect: 'NoSchedule' },
    ]);
    expect(pool.spec.template.metadata.labels).toEqual(
      exclusiveT4Plan.pool.labels,
    );
    expect(pool.spec.limits).toEqual({ 'nvidia.com/gpu': '3' });
    expect(pool.spec.disruption).toEqual({
      consolidationPolicy: 'WhenEmptyOrUnderutilized',
      consolidateAfter: '5m',
    });
    expect(pool.spec.template.spec.expireAfter).toBe('720h');
    expect(pool.spec.replicas).toBeUndefined();
  });

  it('pins GPU maker, GPU name, instance types, capacity types, arch and os', () => {
    const requirements = nodePoolRequirements(timeSlicingT4Plan, awsCluster);
    expect(requirements).toEqual([
      {
        key: 'karpenter.k8s.aws/instance-gpu-manufacturer',
        operator: 'In',
        values: ['nvidia'],
      },
      {
        key: 'karpenter.k8s.aws/instance-gpu-name',
        operator: 'In',
        values: ['t4'],
      },
      {
        key: 'node.kubernetes.io/instance-type',
        operator: 'In',
        values: ['g4dn.12xlarge', 'g4dn.xlarge'],
      },
      {
        key: 'karpenter.sh/capacity-type',
        operator: 'In',
        values: ['on-demand', 'spot'],
      },
      { key: 'kubernetes.io/arch', operator: 'In', values: ['amd64'] },
      { key: 'kubernetes.io/os', operator: 'In', values: ['linux'] },
    ]);
    // Only `In` is used, which every Karpenter v1 version accepts.
    expect(new Set(requirements.map(r => r.operator))).toEqual(new Set(['In']));
  });

  it('carries the device-plugin config label and the shared-resource limit', () => {
    const pool = buildNodePool(timeSlicingT4Plan, awsCluster) as any;
    expect(() => validateAgainstSchema(pool)).not.toThrow();
    expect(
      pool.spec.template.metadata.labels['nvidia.com/device-plugin.config'],
    ).toBe('ts-4-1a2b3c4d');
    expect(pool.spec.limits).toEqual({ 'nvidia.com/gpu.shared': '4' });
    expect(pool.metadata.annotations).toEqual({
      'gpu.backstage.io/gpu-model': 't4',
      'gpu.backstage.io/sharing-mode': 'time-slicing',
      'gpu.backstage.io/resource-name': 'nvidia.com/gpu.shared',
      'gpu.backstage.io/slices-per-gpu': '4',
    });
  });

  it('writes the pool ledger and a hand-set floor as annotations', () => {
    const plan = {
      ...timeSlicingT4Plan,
      pool: {
        ...timeSlicingT4Plan.pool,
        ledger: [
          { request: 'ml/b', replicas: 3, unitsPerReplica: 1 },
          { request: 'ml/a', replicas: 2, unitsPerReplica: 2 },
        ],
        limitFloor: 4,
      },
    };
    const pool = buildNodePool(plan, awsCluster) as any;
    expect(pool.metadata.annotations['gpu.backstage.io/requests']).toBe(
      'ml/a=2x2, ml/b=3',
    );
    expect(pool.metadata.annotations['gpu.backstage.io/limit-floor']).toBe('4');
    expect(() => validateAgainstSchema(pool)).not.toThrow();
  });

  it('uses the cluster profile consolidateAfter and node class', () => {
    const pool = buildNodePool(exclusiveT4Plan, {
      ...plainCluster,
      nodeClass: {
        group: 'karpenter.k8s.aws',
        kind: 'EC2NodeClass',
        name: 'byo',
      },
    }) as any;
    expect(pool.spec.disruption.consolidateAfter).toBe('10m');
    expect(pool.spec.template.spec.nodeClassRef.name).toBe('byo');
  });

  it('makes DRA pools static: replicas and only limits.nodes', () => {
    const pool = buildNodePool(draL4Plan, awsCluster) as any;
    expect(() => validateAgainstSchema(pool)).not.toThrow();
    expect(pool.spec.replicas).toBe(2);
    expect(pool.spec.limits).toEqual({ nodes: '2' });
    expect(pool.spec.weight).toBeUndefined();
  });

  it('sizes a reused static pool by its planned (cumulative) node limit', () => {
    const plan = {
      ...draL4Plan,
      pool: { ...draL4Plan.pool, reused: true, limits: { nodes: 5 } },
    };
    const pool = buildNodePool(plan, awsCluster) as any;
    expect(pool.spec.replicas).toBe(5);
    expect(pool.spec.limits).toEqual({ nodes: '5' });
  });

  it("writes each provider's own GPU requirement keys", () => {
    const keys = (provider: typeof awsCluster.provider) =>
      nodePoolRequirements(exclusiveT4Plan, { ...awsCluster, provider }).map(
        r => r.key,
      );
    expect(keys('azure-karpenter')).toEqual([
      'karpenter.azure.com/sku-gpu-manufacturer',
      'node.kubernetes.io/instance-type',
      'karpenter.sh/capacity-type',
      'kubernetes.io/arch',
      'kubernetes.io/os',
    ]);
    expect(keys('static')).toEqual([
      'node.kubernetes.io/instance-type',
      'karpenter.sh/capacity-type',
      'kubernetes.io/os',
    ]);
  });

  it('derives the CPU architecture from the EC2 family', () => {
    expect(ec2Architecture('g5g.xlarge')).toBe('arm64');
    expect(ec2Architecture('p6e-gb200.36xlarge')).toBe('arm64');
    expect(ec2Architecture('g4dn.xlarge')).toBe('amd64');
    expect(ec2Architecture('g6e.2xlarge')).toBe('amd64');
    expect(ec2Architecture('gr6.4xlarge')).toBe('amd64');
  });

  it('the schema really rejects a broken NodePool (validation is not vacuous)', () => {
    const pool = buildNodePool(exclusiveT4Plan, awsCluster) as any;
    const broken = {
      ...pool,
      spec: { ...pool.spec, disruption: { consolidationPolicy: 'WhenEmpty' } },
    };
    expect(() => validateAgainstSchema(broken)).toThrow(/consolidateAfter/);
    const badOperator = JSON.parse(JSON.stringify(pool));
    badOperator.spec.template.spec.requirements[0].operator = 'Like';
    expect(() => validateAgainstSchema(badOperator)).toThrow();
  });
});

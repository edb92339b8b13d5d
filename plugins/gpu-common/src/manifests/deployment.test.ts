import { buildDeployment } from './deployment';
import {
  awsCluster,
  draL4Plan,
  exclusiveT4Plan,
  migA100Plan,
  mpsL4Plan,
  timeSlicingT4Plan,
} from './__testUtils__/fixtures';
import { validateAgainstSchema } from './__testUtils__/kubernetesSchemas';

describe('buildDeployment', () => {
  it('builds a schema-valid Deployment pinned to the pool (exclusive)', () => {
    const deployment = buildDeployment(exclusiveT4Plan, awsCluster) as any;
    expect(() => validateAgainstSchema(deployment)).not.toThrow();
    expect(deployment.metadata).toEqual({
      name: 't4-exclusive',
      namespace: 'ml-team',
      labels: {
        'app.kubernetes.io/name': 't4-exclusive',
        'backstage.io/kubernetes-id': 't4-exclusive',
        'app.kubernetes.io/managed-by': 'backstage-gpu-gitops',
      },
      annotations: {
        'gpu.backstage.io/request': 'ml-team/t4-exclusive',
        'gpu.backstage.io/pool': 'gpu-t4',
        'gpu.backstage.io/sharing-mode': 'exclusive',
      },
    });
    expect(deployment.spec.replicas).toBe(3);
    expect(deployment.spec.selector.matchLabels).toEqual({
      'app.kubernetes.io/name': 't4-exclusive',
    });
    const pod = deployment.spec.template;
    expect(pod.metadata.labels['app.kubernetes.io/name']).toBe('t4-exclusive');
    expect(pod.metadata.labels['backstage.io/kubernetes-id']).toBe(
      't4-exclusive',
    );
    expect(pod.spec.nodeSelector).toEqual({
      'karpenter.sh/nodepool': 'gpu-t4',
    });
    expect(pod.spec.tolerations).toEqual([
      {
        key: 'gpu.backstage.io/pool',
        operator: 'Equal',
        value: 'gpu-t4',
        effect: 'NoSchedule',
      },
    ]);
    expect(pod.spec.containers).toEqual([
      {
        name: 't4-exclusive',
        image: 'ghcr.io/acme/inference:1.2.3',
        resources: { limits: { 'nvidia.com/gpu': '1' } },
      },
    ]);
  });

  it.each([
    [timeSlicingT4Plan, 'nvidia.com/gpu.shared'],
    [mpsL4Plan, 'nvidia.com/gpu.shared'],
    [migA100Plan, 'nvidia.com/mig-3g.20gb'],
  ])('requests the plan resource (%#)', (plan, resource) => {
    const deployment = buildDeployment(plan, awsCluster) as any;
    expect(() => validateAgainstSchema(deployment)).not.toThrow();
    expect(
      deployment.spec.template.spec.containers[0].resources.limits,
    ).toEqual({ [resource]: '1' });
    expect(deployment.spec.template.spec.tolerations[0].value).toBe(
      plan.pool.taint.value,
    );
  });

  it('requests several whole GPUs when the plan says so', () => {
    const plan = { ...exclusiveT4Plan, resourcePerReplica: 2 };
    const deployment = buildDeployment(plan, awsCluster) as any;
    expect(
      deployment.spec.template.spec.containers[0].resources.limits,
    ).toEqual({ 'nvidia.com/gpu': '2' });
  });

  it('references the DRA claim template instead of extended resources', () => {
    const deployment = buildDeployment(draL4Plan, awsCluster) as any;
    expect(() => validateAgainstSchema(deployment)).not.toThrow();
    const pod = deployment.spec.template.spec;
    expect(pod.resourceClaims).toEqual([
      { name: 'gpu', resourceClaimTemplateName: 'l4-dra-gpu' },
    ]);
    expect(pod.containers[0].resources).toEqual({
      claims: [{ name: 'gpu', request: 'gpu' }],
    });
  });

  it('refuses a plan without an image', () => {
    const plan = {
      ...exclusiveT4Plan,
      request: {
        ...exclusiveT4Plan.request,
        spec: { ...exclusiveT4Plan.request.spec, workload: {} },
      },
    };
    expect(() => buildDeployment(plan, awsCluster)).toThrow(/image/);
  });

  it('the schema really rejects a broken Deployment', () => {
    const deployment = buildDeployment(exclusiveT4Plan, awsCluster) as any;
    const broken = JSON.parse(JSON.stringify(deployment));
    broken.spec.replicas = 'three';
    expect(() => validateAgainstSchema(broken)).toThrow();
    delete broken.spec.replicas;
    delete broken.spec.selector;
    expect(() => validateAgainstSchema(broken)).toThrow(/selector/);
  });
});

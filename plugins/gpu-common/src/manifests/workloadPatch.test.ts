import type { WorkloadKind } from '../request/types';
import { buildWorkloadPatch } from './workloadPatch';
import {
  asPatch,
  awsCluster,
  draL4Plan,
  migA100Plan,
  timeSlicingT4Plan,
} from './__testUtils__/fixtures';
import { validateAgainstSchema } from './__testUtils__/kubernetesSchemas';
import { strategicMerge } from './__testUtils__/strategicMerge';
import { viewWorkload } from './workloadShape';

function existingWorkload(kind: WorkloadKind, name: string, replicas = 3) {
  const podTemplate = {
    metadata: { labels: { app: name } },
    spec: {
      ...(kind === 'Job' || kind === 'CronJob'
        ? { restartPolicy: 'Never' }
        : {}),
      tolerations: [{ key: 'other', operator: 'Exists' }],
      containers: [
        {
          name: 'api',
          image: 'ghcr.io/acme/llm:2',
          ports: [{ containerPort: 8080 }],
          resources: { limits: { cpu: '2', 'nvidia.com/gpu': '1' } },
        },
        { name: 'sidecar', image: 'envoy:1' },
      ],
    },
  };
  const specs: Record<WorkloadKind, Record<string, unknown>> = {
    CronJob: {
      schedule: '0 2 * * *',
      jobTemplate: { spec: { parallelism: replicas, template: podTemplate } },
    },
    Job: { parallelism: replicas, template: podTemplate },
    Deployment: {
      replicas,
      selector: { matchLabels: { app: name } },
      template: podTemplate,
    },
    StatefulSet: {
      serviceName: name,
      replicas,
      selector: { matchLabels: { app: name } },
      template: podTemplate,
    },
  };
  const spec = specs[kind];
  return {
    apiVersion: kind === 'Job' || kind === 'CronJob' ? 'batch/v1' : 'apps/v1',
    kind,
    metadata: { name, namespace: 'ml-team', labels: { app: name } },
    spec,
  };
}

function target(
  kind: WorkloadKind,
  name: string,
  options: { replicas?: number; container?: string } = {},
) {
  const object = existingWorkload(kind, name, options.replicas);
  return {
    object,
    target: {
      kind,
      name,
      manifestNamespace: 'ml-team',
      container: options.container ?? 'api',
      current: viewWorkload(kind, object),
    },
  };
}

describe('buildWorkloadPatch', () => {
  it('gives the named container the GPU and changes nothing else of the Deployment', () => {
    const plan = asPatch(timeSlicingT4Plan, 'Deployment', 'llm-server');
    const { object, target: t } = target('Deployment', 'llm-server');
    const patch = buildWorkloadPatch(plan, awsCluster, t) as any;
    expect(patch).toMatchObject({
      apiVersion: 'apps/v1',
      kind: 'Deployment',
      metadata: { name: 'llm-server', namespace: 'ml-team' },
    });
    expect(patch.metadata.labels).toEqual({
      'backstage.io/kubernetes-id': 't4-shared',
    });
    // The request asks for 3 replicas, as many as the workload has: unchanged.
    expect(patch.spec.replicas).toBeUndefined();
    expect(patch.spec.template.spec.nodeSelector).toEqual({
      'karpenter.sh/nodepool': 'gpu-t4-ts4',
    });
    expect(patch.spec.template.spec.containers).toEqual([
      {
        name: 'api',
        resources: {
          limits: { 'nvidia.com/gpu': null, 'nvidia.com/gpu.shared': '1' },
        },
      },
    ]);

    const merged = strategicMerge(object, patch) as any;
    expect(() => validateAgainstSchema(merged)).not.toThrow();
    const [gpu, sidecar] = merged.spec.template.spec.containers;
    expect(gpu).toEqual({
      name: 'api',
      image: 'ghcr.io/acme/llm:2',
      ports: [{ containerPort: 8080 }],
      resources: { limits: { cpu: '2', 'nvidia.com/gpu.shared': '1' } },
    });
    expect(sidecar).toEqual({ name: 'sidecar', image: 'envoy:1' });
    expect(merged.spec.replicas).toBe(3);
    // tolerations has no merge key: the patch keeps the workload's own first.
    expect(merged.spec.template.spec.tolerations).toEqual([
      { key: 'other', operator: 'Exists' },
      {
        key: awsCluster.gpuTaintKey,
        operator: 'Equal',
        value: 'gpu-t4-ts4',
        effect: 'NoSchedule',
      },
    ]);
  });

  it('changes the replica count only when the request asks for another one', () => {
    const plan = asPatch(timeSlicingT4Plan, 'Deployment', 'llm-server');
    const { target: t } = target('Deployment', 'llm-server', { replicas: 5 });
    const patch = buildWorkloadPatch(plan, awsCluster, t) as any;
    expect(patch.spec.replicas).toBe(3);
  });

  it('adds the pool toleration after the workload’s own when they do not tolerate the taint', () => {
    const plan = asPatch(timeSlicingT4Plan, 'Deployment', 'llm-server');
    const object = existingWorkload('Deployment', 'llm-server') as any;
    object.spec.template.spec.tolerations = [
      {
        key: 'dedicated',
        operator: 'Equal',
        value: 'ml',
        effect: 'NoSchedule',
      } as any,
    ];
    const patch = buildWorkloadPatch(plan, awsCluster, {
      kind: 'Deployment',
      name: 'llm-server',
      container: 'api',
      current: viewWorkload('Deployment', object),
    }) as any;
    expect(patch.metadata.namespace).toBeUndefined();
    expect(patch.spec.template.spec.tolerations).toEqual([
      {
        key: 'dedicated',
        operator: 'Equal',
        value: 'ml',
        effect: 'NoSchedule',
      },
      {
        key: awsCluster.gpuTaintKey,
        operator: 'Equal',
        value: 'gpu-t4-ts4',
        effect: 'NoSchedule',
      },
    ]);
  });

  it.each([
    ['StatefulSet', ['spec', 'template'], ['spec', 'replicas']],
    ['Job', ['spec', 'template'], ['spec', 'parallelism']],
    [
      'CronJob',
      ['spec', 'jobTemplate', 'spec', 'template'],
      ['spec', 'jobTemplate', 'spec', 'parallelism'],
    ],
  ] as const)(
    'patches a %s at its pod template; the merged result is schema-valid',
    (kind, templatePath, replicasPath) => {
      const plan = asPatch(migA100Plan, kind, 'trainer');
      const { object, target: t } = target(kind, 'trainer', {
        replicas: 1,
        container: 'sidecar',
      });
      const patch = buildWorkloadPatch(plan, awsCluster, t) as any;
      expect(patch.kind).toBe(kind);
      const podTemplate = templatePath.reduce((o, k) => o[k], patch);
      // The sidecar is second: the patch names the first container before it.
      expect(podTemplate.spec.containers.map((c: any) => c.name)).toEqual([
        'api',
        'sidecar',
      ]);
      expect(podTemplate.spec.containers[0]).toEqual({ name: 'api' });
      const merged = strategicMerge(object, patch) as any;
      expect(() => validateAgainstSchema(merged)).not.toThrow();
      const mergedTemplate = templatePath.reduce((o, k) => o[k], merged);
      expect(mergedTemplate.spec.containers[0]).toEqual(
        templatePath.reduce((o: any, k) => o[k], object).spec.containers[0],
      );
      expect(mergedTemplate.spec.containers[1].resources.limits).toEqual({
        'nvidia.com/mig-3g.20gb': '1',
      });
      // Replicas (Job and CronJob: parallel pods) 1 -> the plan's 4.
      expect(replicasPath.reduce((o: any, k) => o[k], merged)).toBe(4);
    },
  );

  it('patches DRA claims in and drops the device-plugin GPU limit', () => {
    const { object, target: t } = target('Deployment', 'llm');
    const patch = buildWorkloadPatch(
      asPatch(draL4Plan, 'Deployment', 'llm'),
      awsCluster,
      t,
    ) as any;
    expect(patch.spec.template.spec.resourceClaims).toEqual([
      { name: 'gpu', resourceClaimTemplateName: 'l4-dra-gpu' },
    ]);
    const merged = strategicMerge(object, patch) as any;
    expect(() => validateAgainstSchema(merged)).not.toThrow();
    expect(merged.spec.template.spec.containers[0].resources).toEqual({
      limits: { cpu: '2' },
      claims: [{ name: 'gpu', request: 'gpu' }],
    });
  });

  it('names the containers listed before the GPU one, so kustomize (patch items first) keeps their order', () => {
    const object = existingWorkload('Deployment', 'llm') as any;
    const [api, sidecar] = object.spec.template.spec.containers;
    object.spec.template.spec.containers = [
      sidecar,
      { name: 'log-shipper', image: 'fluent-bit:3' },
      api,
    ];
    const patch = buildWorkloadPatch(
      asPatch(timeSlicingT4Plan, 'Deployment', 'llm'),
      awsCluster,
      {
        kind: 'Deployment',
        name: 'llm',
        container: 'api',
        current: viewWorkload('Deployment', object),
      },
    ) as any;
    expect(patch.spec.template.spec.containers).toEqual([
      { name: 'sidecar' },
      { name: 'log-shipper' },
      {
        name: 'api',
        resources: {
          limits: { 'nvidia.com/gpu': null, 'nvidia.com/gpu.shared': '1' },
        },
      },
    ]);
    const merged = strategicMerge(object, patch) as any;
    expect(merged.spec.template.spec.containers.slice(0, 2)).toEqual([
      sidecar,
      { name: 'log-shipper', image: 'fluent-bit:3' },
    ]);
  });

  it('keeps the workload’s own DRA claims before the request’s', () => {
    const object = existingWorkload('Deployment', 'llm') as any;
    object.spec.template.spec.resourceClaims = [
      { name: 'scratch', resourceClaimTemplateName: 'fast-scratch' },
    ];
    object.spec.template.spec.containers[0].resources.claims = [
      { name: 'scratch' },
    ];
    const patch = buildWorkloadPatch(
      asPatch(draL4Plan, 'Deployment', 'llm'),
      awsCluster,
      {
        kind: 'Deployment',
        name: 'llm',
        container: 'api',
        current: viewWorkload('Deployment', object),
      },
    ) as any;
    const pod = patch.spec.template.spec;
    expect(pod.resourceClaims).toEqual([
      { name: 'scratch', resourceClaimTemplateName: 'fast-scratch' },
      { name: 'gpu', resourceClaimTemplateName: 'l4-dra-gpu' },
    ]);
    expect(pod.containers[0].resources.claims).toEqual([
      { name: 'scratch' },
      { name: 'gpu', request: 'gpu' },
    ]);
  });

  it('keeps a kubernetes-id the workload already has', () => {
    const { object, target: t } = target('Deployment', 'llm');
    (object.metadata.labels as any)['backstage.io/kubernetes-id'] = 'theirs';
    t.current = viewWorkload('Deployment', object);
    const patch = buildWorkloadPatch(
      asPatch(timeSlicingT4Plan, 'Deployment', 'llm'),
      awsCluster,
      t,
    ) as any;
    expect(patch.metadata.labels).toBeUndefined();
  });
});

import { buildWorkloadPatch } from './workload-patch';
import {
  asPatch,
  awsCluster,
  draL4Plan,
  migA100Plan,
  timeSlicingT4Plan,
} from './test-fixtures';
import { validateAgainstSchema } from './testing/kubernetes-schemas';
import { strategicMerge } from './testing/strategic-merge';

function existingWorkload(kind: 'Deployment' | 'StatefulSet', name: string) {
  return {
    apiVersion: 'apps/v1',
    kind,
    metadata: { name, namespace: 'ml-team', labels: { app: name } },
    spec: {
      ...(kind === 'StatefulSet' ? { serviceName: name } : {}),
      replicas: 1,
      selector: { matchLabels: { app: name } },
      template: {
        metadata: { labels: { app: name } },
        spec: {
          tolerations: [{ key: 'other', operator: 'Exists' }],
          containers: [
            {
              name,
              image: 'ghcr.io/acme/llm:2',
              resources: { limits: { cpu: '2' } },
            },
            { name: 'sidecar', image: 'envoy:1' },
          ],
        },
      },
    },
  };
}

describe('buildWorkloadPatch', () => {
  it('patches an existing Deployment onto the pool; the merged result is schema-valid', () => {
    const plan = asPatch(timeSlicingT4Plan, 'Deployment', 'llm-server');
    const patch = buildWorkloadPatch(plan, awsCluster) as any;
    expect(patch).toMatchObject({
      apiVersion: 'apps/v1',
      kind: 'Deployment',
      metadata: { name: 'llm-server', namespace: 'ml-team' },
    });
    expect(patch.metadata.labels).toEqual({
      'backstage.io/kubernetes-id': 't4-shared',
    });
    expect(patch.spec.replicas).toBe(3);
    expect(patch.spec.template.spec.nodeSelector).toEqual({
      'karpenter.sh/nodepool': 'gpu-t4-ts4',
    });
    expect(patch.spec.template.spec.containers).toEqual([
      {
        name: 'llm-server',
        resources: { limits: { 'nvidia.com/gpu.shared': '1' } },
      },
    ]);

    const merged = strategicMerge(
      existingWorkload('Deployment', 'llm-server'),
      patch,
    ) as any;
    expect(() => validateAgainstSchema(merged)).not.toThrow();
    const [gpu, sidecar] = merged.spec.template.spec.containers;
    expect(gpu).toEqual({
      name: 'llm-server',
      image: 'ghcr.io/acme/llm:2',
      resources: { limits: { cpu: '2', 'nvidia.com/gpu.shared': '1' } },
    });
    expect(sidecar).toEqual({ name: 'sidecar', image: 'envoy:1' });
  });

  it('patches a StatefulSet and can target a named container', () => {
    const plan = asPatch(migA100Plan, 'StatefulSet', 'trainer');
    const patch = buildWorkloadPatch(plan, awsCluster, {
      containerName: 'sidecar',
    }) as any;
    expect(patch.kind).toBe('StatefulSet');
    expect(patch.spec.template.spec.containers[0].name).toBe('sidecar');
    const merged = strategicMerge(
      existingWorkload('StatefulSet', 'trainer'),
      patch,
    ) as any;
    expect(() => validateAgainstSchema(merged)).not.toThrow();
    expect(merged.spec.template.spec.containers[1].resources.limits).toEqual({
      'nvidia.com/mig-3g.20gb': '1',
    });
  });

  it('patches DRA claims in', () => {
    const patch = buildWorkloadPatch(
      asPatch(draL4Plan, 'Deployment', 'llm'),
      awsCluster,
    ) as any;
    expect(patch.spec.template.spec.resourceClaims).toEqual([
      { name: 'gpu', resourceClaimTemplateName: 'l4-dra-gpu' },
    ]);
    const merged = strategicMerge(existingWorkload('Deployment', 'llm'), patch);
    expect(() => validateAgainstSchema(merged as any)).not.toThrow();
  });

  it('a patch that names no existing container yields an invalid object (why containerName matters)', () => {
    const patch = buildWorkloadPatch(
      asPatch(timeSlicingT4Plan, 'Deployment', 'llm-server'),
      awsCluster,
      { containerName: 'missing' },
    );
    const merged = strategicMerge(
      existingWorkload('Deployment', 'llm-server'),
      patch,
    ) as any;
    expect(merged.spec.template.spec.containers).toHaveLength(3);
    expect(merged.spec.template.spec.containers[2].image).toBeUndefined();
  });

  it('refuses a plan without an existing workload', () => {
    expect(() => buildWorkloadPatch(timeSlicingT4Plan, awsCluster)).toThrow(
      /existing/,
    );
  });
});

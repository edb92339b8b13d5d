import { resolveClusterProfile } from '../cluster/schema';
import { isGpuInputError } from '../errors';
import { buildDeployment } from '../manifests/deployment';
import { buildWorkloadPatch } from '../manifests/workloadPatch';
import { viewWorkload } from '../manifests/workloadShape';
import {
  asPatch,
  awsCluster,
  exclusiveT4Plan,
  timeSlicingT4Plan,
} from '../manifests/__testUtils__/fixtures';
import { validateAgainstSchema } from '../manifests/__testUtils__/kubernetesSchemas';
import { strategicMerge } from '../manifests/__testUtils__/strategicMerge';

const binPacking = {
  ...awsCluster,
  kubernetesVersion: '1.36.2',
  binPacking: true,
};

/** An existing Deployment whose pods run with `schedulerName` (none: the default). */
function existing(schedulerName?: string) {
  return {
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: { name: 'llm-server', namespace: 'ml-team' },
    spec: {
      replicas: 3,
      selector: { matchLabels: { app: 'llm-server' } },
      template: {
        metadata: { labels: { app: 'llm-server' } },
        spec: {
          ...(schedulerName ? { schedulerName } : {}),
          containers: [{ name: 'api', image: 'ghcr.io/acme/llm:2' }],
        },
      },
    },
  };
}

function patched(cluster: typeof awsCluster, schedulerName?: string) {
  const object = existing(schedulerName);
  const patch = buildWorkloadPatch(
    asPatch(timeSlicingT4Plan, 'Deployment', 'llm-server'),
    cluster,
    {
      kind: 'Deployment',
      name: 'llm-server',
      manifestNamespace: 'ml-team',
      container: 'api',
      current: viewWorkload('Deployment', object),
    },
  );
  const merged = strategicMerge(object, patch) as any;
  expect(() => validateAgainstSchema(merged)).not.toThrow();
  return merged.spec.template.spec.schedulerName;
}

describe('the bin-packing scheduler on GPU workloads', () => {
  it('a new workload names it only where the profile opts in', () => {
    const deployment = buildDeployment(exclusiveT4Plan, binPacking) as any;
    expect(() => validateAgainstSchema(deployment)).not.toThrow();
    expect(deployment.spec.template.spec.schedulerName).toBe('gpu-binpack');
    const plain = buildDeployment(exclusiveT4Plan, awsCluster) as any;
    expect(plain.spec.template.spec).not.toHaveProperty('schedulerName');
  });

  it('an existing workload gets it in place of the default scheduler, keeps a scheduler of its own, and is left alone where the profile does not opt in', () => {
    expect(patched(binPacking)).toBe('gpu-binpack');
    expect(patched(binPacking, 'default-scheduler')).toBe('gpu-binpack');
    expect(patched(binPacking, 'volcano')).toBe('volcano');
    expect(patched(awsCluster)).toBeUndefined();
    expect(patched(awsCluster, 'volcano')).toBe('volcano');
  });

  it('a profile opts in only with a Kubernetes version that names its patch, said in its words', () => {
    expect(
      resolveClusterProfile({
        name: 'dev',
        kubernetesVersion: 'v1.35.4',
        binPacking: true,
      }).binPacking,
    ).toBe(true);
    for (const kubernetesVersion of [undefined, '1.36']) {
      let error: unknown;
      try {
        resolveClusterProfile({
          name: 'dev',
          kubernetesVersion,
          binPacking: true,
        });
      } catch (e) {
        error = e;
      }
      expect(isGpuInputError(error)).toBe(true);
      expect((error as any).issues).toEqual([
        expect.objectContaining({
          path: 'binPacking',
          rule: 'bin-packing-kubernetes-version',
          message: expect.stringContaining(
            'kubernetesVersion must name it with its patch, e.g. "1.36.2"',
          ),
        }),
      ]);
    }
  });
});

import { stringify } from 'yaml';
import type { BuiltObject } from '../kustomize/build';
import { devCluster, timeSlicingFixture } from './__fixtures__/plans';
import { plannedPoolLanding } from './plannedPoolLanding';

/** Two time-sliced pools (4 and 2 slices), their device-plugin ConfigMap, and the 4-slice request's Deployment. */
function cluster() {
  const { plan, manifests } = timeSlicingFixture();
  const two = timeSlicingFixture({ name: 'other', slices: 2 });
  const configMap = {
    apiVersion: 'v1',
    kind: 'ConfigMap',
    metadata: { name: 'device-plugin-config', namespace: 'gpu-operator' },
    data: Object.fromEntries(
      [manifests, two.manifests].map(m => [
        m.devicePluginConfig!.name,
        stringify(m.devicePluginConfig!.config),
      ]),
    ),
  };
  const objects = [
    ...manifests.pool.objects,
    ...two.manifests.pool.objects,
    configMap,
  ] as BuiltObject[];
  const deployment = structuredClone(
    manifests.workload.objects[0],
  ) as unknown as BuiltObject & { spec: any };
  return { plan, objects, deployment };
}

function problems(
  objects: BuiltObject[],
  deployment: BuiltObject,
  plan: ReturnType<typeof cluster>['plan'],
) {
  return plannedPoolLanding(
    [
      { root: 'clusters/dev/gpu', objects: objects as BuiltObject[] },
      { root: 'apps/ml/summarizer', objects: [deployment] },
    ],
    deployment,
    'Deployment',
    plan,
    devCluster,
  ).problems;
}

describe('plannedPoolLanding', () => {
  it('accepts a workload that lands on the plan pool only', () => {
    const { plan, objects, deployment } = cluster();
    const landing = plannedPoolLanding(
      [{ root: 'clusters/dev/gpu', objects }],
      deployment,
      'Deployment',
      plan,
      devCluster,
    );
    expect(landing).toEqual({ pools: ['gpu-t4-ts4'], problems: [] });
  });

  it('refuses a stale selector the pool never carries, naming it', () => {
    const { plan, objects, deployment } = cluster();
    deployment.spec.template.spec.nodeSelector.intent = 'gpu-workloads';
    expect(problems(objects, deployment, plan)).toEqual([
      'Deployment "summarizer" in namespace "ml": its pods cannot land on pool gpu-t4-ts4: nodeSelector intent=gpu-workloads: nodes of NodePool gpu-t4-ts4 never carry label intent',
    ]);
  });

  it('refuses a workload whose taint is not tolerated', () => {
    const { plan, objects, deployment } = cluster();
    deployment.spec.template.spec.tolerations = [];
    expect(problems(objects, deployment, plan)).toEqual([
      'Deployment "summarizer" in namespace "ml": its pods cannot land on pool gpu-t4-ts4: taint nvidia.com/gpu=true:NoSchedule: nodes of NodePool gpu-t4-ts4 carry it, and no toleration of the pod matches',
    ]);
  });

  it('refuses a resource the pool does not advertise (read from the built device-plugin config)', () => {
    const { plan, objects, deployment } = cluster();
    deployment.spec.template.spec.containers[0].resources.limits = {
      'nvidia.com/gpu': '1',
    };
    expect(problems(objects, deployment, plan)).toEqual([
      'Deployment "summarizer" in namespace "ml": its pods cannot land on pool gpu-t4-ts4: resource nvidia.com/gpu: nodes of NodePool gpu-t4-ts4 advertise nvidia.com/gpu.shared',
    ]);
  });

  it('refuses a workload that can land on another pool too', () => {
    const { plan, objects, deployment } = cluster();
    delete deployment.spec.template.spec.nodeSelector;
    expect(problems(objects, deployment, plan)).toEqual([
      `Deployment "summarizer" in namespace "ml": its pods can also land on pool gpu-t4-ts2, not only on the plan's pool gpu-t4-ts4`,
    ]);
  });

  it('refuses an In requirement of the pool that forbids the selected value', () => {
    const { plan, objects, deployment } = cluster();
    deployment.spec.template.spec.nodeSelector[
      'node.kubernetes.io/instance-type'
    ] = 'g5.xlarge';
    expect(problems(objects, deployment, plan)).toEqual([
      'Deployment "summarizer" in namespace "ml": its pods cannot land on pool gpu-t4-ts4: nodeSelector node.kubernetes.io/instance-type=g5.xlarge: nodes of NodePool gpu-t4-ts4 carry g4dn.xlarge',
    ]);
  });

  describe('beside a hand-written NodeOverlay for every 1-GPU NVIDIA node', () => {
    /** A team's time-slicing overlay, not scoped to a pool (Karpenter v1.14.1 applies it to every NodePool's matching machines). */
    const teamOverlay = (weight: number | undefined, name = 'nvidia-ts') =>
      ({
        apiVersion: 'karpenter.sh/v1alpha1',
        kind: 'NodeOverlay',
        metadata: { name },
        spec: {
          ...(weight !== undefined ? { weight } : {}),
          requirements: [
            {
              key: 'karpenter.k8s.aws/instance-gpu-manufacturer',
              operator: 'In',
              values: ['nvidia'],
            },
            {
              key: 'karpenter.k8s.aws/instance-gpu-count',
              operator: 'In',
              values: ['1'],
            },
          ],
          capacity: { 'nvidia.com/gpu.shared': '2' },
        },
      }) as unknown as BuiltObject;
    /** The request's pods each asking for a whole node's 4 slices. */
    const fourSlicePods = () => {
      const { plan, objects, deployment } = cluster();
      deployment.spec.template.spec.containers[0].resources.limits = {
        'nvidia.com/gpu.shared': '4',
      };
      return { plan, objects, deployment };
    };

    it('refuses pods the winning overlay makes Karpenter believe no node holds', () => {
      const { plan, objects, deployment } = fourSlicePods();
      expect(problems(objects, deployment, plan)).toEqual([]);
      expect(problems([...objects, teamOverlay(10)], deployment, plan)).toEqual(
        [
          'Deployment "summarizer" in namespace "ml": its pods cannot land on pool gpu-t4-ts4: resource nvidia.com/gpu.shared: a pod asks for 4, nodes of NodePool gpu-t4-ts4 advertise 2 each',
        ],
      );
    });

    it('at equal weight takes the overlay whose name sorts later: the team’s `nvidia-ts` over the product’s, not `all-nvidia-ts`', () => {
      const { plan, objects, deployment } = fourSlicePods();
      expect(
        problems([...objects, teamOverlay(undefined)], deployment, plan),
      ).toHaveLength(1);
      expect(
        problems(
          [...objects, teamOverlay(undefined, 'all-nvidia-ts')],
          deployment,
          plan,
        ),
      ).toEqual([]);
    });
  });

  it('judges nothing when the roots do not build the plan pool', () => {
    const { plan, objects, deployment } = cluster();
    deployment.spec.template.spec.tolerations = [];
    expect(
      problems(
        objects.filter(o => o.metadata.name !== 'gpu-t4-ts4'),
        deployment,
        plan,
      ),
    ).toEqual([]);
  });
});

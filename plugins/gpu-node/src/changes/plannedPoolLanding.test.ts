import { stringify } from 'yaml';
import {
  builtinCatalog,
  buildManifests,
  mergeCatalog,
  plan as planRequest,
  resolveClusterProfile,
} from '@gpu-gitops/plugin-gpu-common';
import type { BuiltObject } from '../kustomize/build';
import { devCluster, timeSlicingFixture } from './__fixtures__/plans';
import { plannedPoolLanding } from './plannedPoolLanding';
import { shapeRequest } from './shapes/__testUtils__/shapeRound';

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

async function problems(
  objects: BuiltObject[],
  deployment: BuiltObject,
  plan: ReturnType<typeof cluster>['plan'],
) {
  return (
    await plannedPoolLanding(
      [
        { root: 'clusters/dev/gpu', objects: objects as BuiltObject[] },
        { root: 'apps/ml/summarizer', objects: [deployment] },
      ],
      deployment,
      'Deployment',
      plan,
      devCluster,
    )
  ).problems;
}

describe('plannedPoolLanding', () => {
  it('accepts a workload that lands on the plan pool only', async () => {
    const { plan, objects, deployment } = cluster();
    const landing = await plannedPoolLanding(
      [{ root: 'clusters/dev/gpu', objects }],
      deployment,
      'Deployment',
      plan,
      devCluster,
    );
    expect(landing).toEqual({ pools: ['gpu-t4-ts4'], problems: [] });
  });

  it('refuses a stale selector the pool never carries, naming it', async () => {
    const { plan, objects, deployment } = cluster();
    deployment.spec.template.spec.nodeSelector.intent = 'gpu-workloads';
    expect(await problems(objects, deployment, plan)).toEqual([
      'Deployment "summarizer" in namespace "ml": its pods cannot land on pool gpu-t4-ts4: nodeSelector intent=gpu-workloads: nodes of NodePool gpu-t4-ts4 never carry label intent',
    ]);
  });

  it('refuses a workload whose taint is not tolerated', async () => {
    const { plan, objects, deployment } = cluster();
    deployment.spec.template.spec.tolerations = [];
    expect(await problems(objects, deployment, plan)).toEqual([
      'Deployment "summarizer" in namespace "ml": its pods cannot land on pool gpu-t4-ts4: taint nvidia.com/gpu=true:NoSchedule: nodes of NodePool gpu-t4-ts4 carry it, and no toleration of the pod matches',
    ]);
  });

  it('refuses a resource the pool does not advertise (read from the built device-plugin config)', async () => {
    const { plan, objects, deployment } = cluster();
    deployment.spec.template.spec.containers[0].resources.limits = {
      'nvidia.com/gpu': '1',
    };
    expect(await problems(objects, deployment, plan)).toEqual([
      'Deployment "summarizer" in namespace "ml": its pods cannot land on pool gpu-t4-ts4: resource nvidia.com/gpu: nodes of NodePool gpu-t4-ts4 advertise nvidia.com/gpu.shared',
    ]);
  });

  it('refuses a workload that can land on another pool too', async () => {
    const { plan, objects, deployment } = cluster();
    delete deployment.spec.template.spec.nodeSelector;
    expect(await problems(objects, deployment, plan)).toEqual([
      `Deployment "summarizer" in namespace "ml": its pods can also land on pool gpu-t4-ts2, not only on the plan's pool gpu-t4-ts4`,
    ]);
  });

  it('refuses an In requirement of the pool that forbids the selected value', async () => {
    const { plan, objects, deployment } = cluster();
    deployment.spec.template.spec.nodeSelector[
      'node.kubernetes.io/instance-type'
    ] = 'g5.xlarge';
    expect(await problems(objects, deployment, plan)).toEqual([
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

    it('refuses pods the winning overlay makes Karpenter believe no node holds', async () => {
      const { plan, objects, deployment } = fourSlicePods();
      expect(await problems(objects, deployment, plan)).toEqual([]);
      expect(
        await problems([...objects, teamOverlay(10)], deployment, plan),
      ).toEqual([
        'Deployment "summarizer" in namespace "ml": its pods cannot land on pool gpu-t4-ts4: resource nvidia.com/gpu.shared: a pod asks for 4, nodes of NodePool gpu-t4-ts4 advertise 2 each',
      ]);
    });

    it('sees the team’s overlay built by another root of the change: NodeOverlays are cluster-wide', async () => {
      const { plan, objects, deployment } = fourSlicePods();
      const landing = await plannedPoolLanding(
        [
          { root: 'clusters/dev/gpu', objects },
          { root: 'clusters/dev/karpenter', objects: [teamOverlay(10)] },
        ],
        deployment,
        'Deployment',
        plan,
        devCluster,
      );
      expect(landing.problems).toEqual([
        'Deployment "summarizer" in namespace "ml": its pods cannot land on pool gpu-t4-ts4: resource nvidia.com/gpu.shared: a pod asks for 4, nodes of NodePool gpu-t4-ts4 advertise 2 each',
      ]);
    });

    it('at equal weight takes the overlay whose name sorts later: the team’s `nvidia-ts` over the product’s, not `all-nvidia-ts`', async () => {
      const { plan, objects, deployment } = fourSlicePods();
      expect(
        await problems([...objects, teamOverlay(undefined)], deployment, plan),
      ).toHaveLength(1);
      expect(
        await problems(
          [...objects, teamOverlay(undefined, 'all-nvidia-ts')],
          deployment,
          plan,
        ),
      ).toEqual([]);
    });
  });

  describe('on a pool whose slices only a hand-written NodeOverlay tells (the operator-wide default time-slices; no config label in the repository)', () => {
    /**
     * The pool as the import adopts it (annotations only): no
     * `nvidia.com/device-plugin.config` label, so the repository shows its
     * device plugin advertising whole GPUs; the team's overlay tells
     * Karpenter its nodes hold 4 `nvidia.com/gpu.shared`, and the product
     * writes no overlay beside it (`handWrittenOverlays.ts`).
     */
    async function adoptedPool(podAsks: string) {
      const { plan, objects, deployment } = cluster();
      const pool = structuredClone(
        objects.find(o => o.metadata.name === 'gpu-t4-ts4'),
      ) as BuiltObject & { spec: any };
      delete pool.spec.template.metadata.labels[
        'nvidia.com/device-plugin.config'
      ];
      const teamOverlay = {
        apiVersion: 'karpenter.sh/v1alpha1',
        kind: 'NodeOverlay',
        metadata: { name: 'team-t4-slices' },
        spec: {
          requirements: [
            {
              key: 'karpenter.sh/nodepool',
              operator: 'In',
              values: ['gpu-t4-ts4'],
            },
          ],
          capacity: { 'nvidia.com/gpu.shared': '4' },
        },
      } as unknown as BuiltObject;
      deployment.spec.template.spec.containers[0].resources.limits = {
        'nvidia.com/gpu.shared': podAsks,
      };
      return plannedPoolLanding(
        [{ root: 'clusters/dev/gpu', objects: [pool, teamOverlay] }],
        deployment,
        'Deployment',
        plan,
        devCluster,
      );
    }

    it('lands pods asking for the slices the overlay adds on the plan’s pool', async () => {
      expect(await adoptedPool('1')).toEqual({
        pools: ['gpu-t4-ts4'],
        problems: [],
      });
    });

    it('refuses pods asking for more slices than the overlay gives a node', async () => {
      expect((await adoptedPool('8')).problems).toEqual([
        'Deployment "summarizer" in namespace "ml": its pods cannot land on pool gpu-t4-ts4: resource nvidia.com/gpu.shared: a pod asks for 8, nodes of NodePool gpu-t4-ts4 advertise 4 each',
      ]);
    });
  });

  describe('on a static lab whose team labels its own GPU servers (test/fixtures/static-nfd-repo)', () => {
    const catalog = mergeCatalog(builtinCatalog, {
      instanceTypes: [
        {
          name: 'lab-t4x2',
          family: 'lab',
          provider: 'static' as const,
          gpuModel: 't4',
          gpusPerNode: 2,
          vcpu: 32,
          memoryMiB: 128 * 1024,
          onDemandUsdPerHour: 0,
        },
      ],
    });
    const lab = resolveClusterProfile({
      name: 'lab',
      provider: 'static',
      staticNodes: {
        select: 'name',
        inventory: [{ name: 't4-01', machine: 'lab-t4x2' }],
      },
    });
    /** The team's rule, as the fixture's `clusters/lab/nfd/gpu-class.yaml` writes it (T4 part). */
    const gpuClass = {
      apiVersion: 'nfd.k8s-sigs.io/v1alpha1',
      kind: 'NodeFeatureRule',
      metadata: { name: 'gpu-class' },
      spec: {
        rules: [
          {
            name: 'gpu-class t4',
            labels: { 'feature.node.kubernetes.io/gpu-class': 't4' },
            matchFeatures: [
              {
                feature: 'pci.device',
                matchExpressions: {
                  vendor: { op: 'In', value: ['10de'] },
                  device: { op: 'In', value: ['1eb8'] },
                },
              },
            ],
          },
        ],
      },
    } as unknown as BuiltObject;

    async function labLanding(withSelector: boolean) {
      const planned = planRequest(
        shapeRequest('notebook', {
          gpu: { model: 't4', sharing: 'exclusive', replicas: 1, vramGiB: 12 },
          workload: { image: 'ghcr.io/acme/notebook:1.0' },
        }),
        catalog,
        lab,
      );
      const manifests = buildManifests(planned, lab, { catalog });
      const deployment = structuredClone(
        manifests.workload.objects.find(o => o.kind === 'Deployment'),
      ) as unknown as BuiltObject & { spec: any };
      if (!withSelector) delete deployment.spec.template.spec.nodeSelector;
      return plannedPoolLanding(
        [
          {
            root: 'clusters/lab',
            objects: [...(manifests.pool.objects as BuiltObject[]), gpuClass],
          },
        ],
        deployment,
        'Deployment',
        planned,
        lab,
        catalog,
      );
    }

    it('lands the product’s Deployment on the plan’s pool only: the team’s servers never carry its label', async () => {
      expect(await labLanding(true)).toEqual({
        pools: ['gpu-t4'],
        problems: [],
      });
    });

    it('refuses pods that would also land on the team’s own GPU servers', async () => {
      expect((await labLanding(false)).problems).toEqual([
        `Deployment "notebook" in namespace "ml": its pods can also land on the GPU nodes the team's NodeFeatureRule gpu-class/gpu-class t4 labels, not only on the plan's pool gpu-t4`,
      ]);
    });
  });

  it('judges nothing when the roots do not build the plan pool', async () => {
    const { plan, objects, deployment } = cluster();
    deployment.spec.template.spec.tolerations = [];
    expect(
      await problems(
        objects.filter(o => o.metadata.name !== 'gpu-t4-ts4'),
        deployment,
        plan,
      ),
    ).toEqual([]);
  });
});

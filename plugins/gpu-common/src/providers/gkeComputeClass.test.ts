/**
 * The same requests as on AWS, planned with the built-in catalog on a GKE
 * cluster and rendered: a ComputeClass per pool, valid against the
 * ComputeClass schema (`crds/gke-cloud.google.com_computeclasses.yaml`),
 * GKE's own sharing instead of the product's configs, pods pinned to the
 * class; DRA refused with GKE's reason.
 */
import { builtinCatalog } from '../catalog/builtin';
import { sharingModeUnavailable } from '../cluster/capabilities';
import { resolveClusterProfile } from '../cluster/schema';
import { GpuInputError } from '../errors';
import { buildManifests } from '../manifests/buildManifests';
import { crdSchemaErrors } from '../manifests/__testUtils__/crdSchemas';
import { validateAgainstSchema } from '../manifests/__testUtils__/kubernetesSchemas';
import { plan } from '../planner/plan';
import { gpuRequest } from '../planner/__testUtils__/fixtures';

const gke = resolveClusterProfile({
  name: 'gke-ml',
  provider: 'gke',
  region: 'us-central1',
});
const CRD = 'gke-cloud.google.com_computeclasses.yaml';

function planned(gpu: Record<string, unknown>) {
  const thePlan = plan(gpuRequest(gpu), builtinCatalog, gke);
  return { thePlan, manifests: buildManifests(thePlan, gke) };
}

describe('GKE: a ComputeClass per pool', () => {
  it('exclusive T4: an N1 machine with its T4s, whole GPUs as nvidia.com/gpu, no config', () => {
    const { thePlan, manifests } = planned({
      model: 't4',
      sharing: 'exclusive',
      replicas: 2,
      vramGiB: 12,
      gpusPerReplica: 1,
    });
    const [computeClass] = manifests.pool.objects;
    expect(manifests.pool.objects.map(o => o.kind)).toEqual(['ComputeClass']);
    expect(crdSchemaErrors(computeClass, CRD)).toEqual([]);
    const rules = (computeClass.spec as any).priorities;
    expect(rules[0]).toEqual({
      machineType: thePlan.pool.instanceTypes[0],
      spot: false,
      gpu: {
        type: 'nvidia-tesla-t4',
        count: expect.any(Number),
        driverVersion: 'default',
      },
    });
    expect(thePlan.pool.instanceTypes.every(t => t.startsWith('n1-'))).toBe(
      true,
    );
    expect(thePlan.resourceName).toBe('nvidia.com/gpu');
    expect(manifests.devicePluginConfig).toBeUndefined();
    const deployment = manifests.workload.objects[0] as any;
    expect(() => validateAgainstSchema(deployment)).not.toThrow();
    const pod = deployment.spec.template.spec;
    expect(pod.nodeSelector).toEqual({
      'cloud.google.com/compute-class': thePlan.pool.name,
    });
    expect(pod.tolerations).toEqual([
      {
        key: 'nvidia.com/gpu',
        operator: 'Equal',
        value: 'present',
        effect: 'NoSchedule',
      },
      {
        key: 'cloud.google.com/compute-class',
        operator: 'Equal',
        value: thePlan.pool.name,
        effect: 'NoSchedule',
      },
    ]);
  });

  it.each([
    ['time-slicing', 'TIME_SHARING', 'time-sharing'],
    ['mps', 'MPS', 'mps'],
  ])(
    '%s L4: gpuSharing %s with the plan’s clients per GPU, GKE’s sharing labels, no device-plugin config',
    (sharing, strategy, label) => {
      const { thePlan, manifests } = planned({
        model: 'l4',
        sharing,
        replicas: 6,
        vramGiB: 4,
        slicesPerGpu: 4,
      });
      const [computeClass] = manifests.pool.objects;
      expect(crdSchemaErrors(computeClass, CRD)).toEqual([]);
      const gpu = (computeClass.spec as any).priorities[0].gpu;
      expect(gpu.type).toBe('nvidia-l4');
      expect(gpu.gpuSharing).toEqual({
        sharingStrategy: strategy,
        maxSharedClientsPerGPU: thePlan.sharing.slicesPerGpu,
      });
      expect(thePlan.sharing.slicesPerGpu).toBeGreaterThanOrEqual(4);
      expect(thePlan.resourceName).toBe('nvidia.com/gpu');
      expect(thePlan.pool.labels).toEqual({
        'cloud.google.com/compute-class': thePlan.pool.name,
        'cloud.google.com/gke-accelerator': 'nvidia-l4',
        'cloud.google.com/gke-gpu-sharing-strategy': label,
        'cloud.google.com/gke-max-shared-clients-per-gpu': String(
          thePlan.sharing.slicesPerGpu,
        ),
      });
      expect(manifests.devicePluginConfig).toBeUndefined();
      const pod = (manifests.workload.objects[0] as any).spec.template.spec;
      expect(pod.containers[0].resources.limits).toEqual({
        'nvidia.com/gpu': '1',
      });
    },
  );

  it('MIG on an A100: a partition size GKE creates (2g.10gb for 9 GiB, not 1g.10gb), no mig-parted config', () => {
    const { thePlan, manifests } = planned({
      model: 'a100-40gb',
      sharing: 'mig',
      replicas: 3,
      vramGiB: 9,
    });
    const [computeClass] = manifests.pool.objects;
    expect(crdSchemaErrors(computeClass, CRD)).toEqual([]);
    expect((computeClass.spec as any).priorities[0].gpu).toMatchObject({
      type: 'nvidia-tesla-a100',
      gpuSharing: { gpuPartitionSize: '2g.10gb' },
    });
    expect(thePlan.sharing.migProfile).toBe('2g.10gb');
    expect(manifests.migConfig).toBeUndefined();
    expect(thePlan.resourceName).toBe('nvidia.com/gpu');
  });

  it('runs the single MIG strategy: GKE advertises every partition as nvidia.com/gpu', () => {
    expect(gke.migStrategy).toBe('single');
    expect(() =>
      resolveClusterProfile({
        name: 'g',
        provider: 'gke',
        migStrategy: 'mixed',
      }),
    ).toThrow(/migStrategy.*single/);
  });

  it('refuses DRA with GKE’s reason: no node auto-provisioning for DRA', () => {
    expect(sharingModeUnavailable(gke, 'dra')).toMatchObject({
      rule: 'gke-dra-autoscaling',
      reason: expect.stringContaining("Node auto-provisioning isn't supported"),
    });
  });

  it('refuses more than 48 clients per GPU, GKE’s bound', () => {
    expect(() =>
      planned({
        model: 'l4',
        sharing: 'time-slicing',
        replicas: 60,
        vramGiB: 1,
        slicesPerGpu: 60,
      }),
    ).toThrow(GpuInputError);
  });

  it('prices the pool on the cheapest GCP machine of the model', () => {
    const { thePlan } = planned({
      model: 'l4',
      sharing: 'exclusive',
      replicas: 1,
      vramGiB: 20,
      gpusPerReplica: 1,
    });
    expect(thePlan.nodes.instanceType).toBe('g2-standard-4');
    // g2-standard-4 at $0.70683 an hour, 730 hours a month, one replica alone on it.
    expect(thePlan.cost.priceKnown).toBe(true);
    expect(thePlan.cost.usdPerMonth).toBeCloseTo(0.70683 * 730, 1);
  });
});

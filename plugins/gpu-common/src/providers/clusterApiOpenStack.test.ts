/**
 * Cluster API on OpenStack: the seed's flavors, each sharing mode the
 * profile allows, planned and rendered; every pool object checked against
 * the CRDs of Cluster API v1.14.0 (MachineDeployment, KubeadmConfigTemplate:
 * v1beta2) and CAPO v0.14.7 (OpenStackMachineTemplate v1beta1).
 */
import {
  clusterCapabilities,
  sharingModeUnavailable,
} from '../cluster/capabilities';
import { resolveClusterProfile } from '../cluster/schema';
import { GpuInputError } from '../errors';
import { buildManifests } from '../manifests/buildManifests';
import {
  celRules,
  crdSchemaErrors,
} from '../manifests/__testUtils__/crdSchemas';
import type { KubernetesObject } from '../manifests/types';
import { plan } from '../planner/plan';
import { gpuRequest } from '../planner/__testUtils__/fixtures';
import type { SharingMode } from '../request/types';
import {
  byKind,
  CLUSTER_API_CRD_FILES,
  CLUSTER_API_MODE_REQUESTS,
  expectClusterApiPool,
  renderPool,
} from './__testUtils__/clusterApiPool';
import { seedOpenStackCatalog } from './__testUtils__/openStackFlavors';

const clusterApi = {
  clusterName: 'ml-prod',
  namespace: 'capi-ml-prod',
  infrastructure: 'openstack',
  kubernetesVersion: 'v1.33.1',
  autoscaler: false,
  kubeletExtraArgs: { 'provider-id': 'openstack:///{{ instance_id }}' },
  openStack: {
    imageName: 'ubuntu-2404-kube-v1.33.1',
    sshKeyName: 'ml-ops',
    networkName: 'ml-net',
    subnetName: 'ml-subnet',
    securityGroupNames: ['ml-nodes'],
  },
};

const capi = resolveClusterProfile({
  name: 'ml-prod',
  provider: 'cluster-api',
  migStrategy: 'single',
  gpuTaintKey: 'node-role.kubernetes.io/gpu',
  clusterApi,
});
const capiMixed = resolveClusterProfile({
  name: 'ml-mixed',
  provider: 'cluster-api',
  migStrategy: 'mixed',
  clusterApi,
});
const capiAutoscaled = resolveClusterProfile({
  name: 'ml-auto',
  provider: 'cluster-api',
  migStrategy: 'single',
  clusterApi: { ...clusterApi, autoscaler: true },
});

const requests = CLUSTER_API_MODE_REQUESTS;

function render(
  cluster: typeof capi,
  model: string,
  sharing: SharingMode,
  gpu: Record<string, unknown>,
) {
  return renderPool(cluster, seedOpenStackCatalog, model, sharing, gpu);
}

describe('Cluster API on OpenStack: plan and render', () => {
  for (const cluster of [capi, capiMixed, capiAutoscaled]) {
    for (const [model, sharing, gpu] of requests) {
      if (sharingModeUnavailable(cluster, sharing)) continue;
      it(`${model} ${sharing} on ${cluster.name}: a MachineDeployment and its two templates, valid against CAPI v1.14.0 and CAPO v0.14.7`, () => {
        const { thePlan, objects } = render(cluster, model, sharing, gpu);
        const flavor = seedOpenStackCatalog.instanceTypes.find(
          t => t.name === thePlan.nodes.instanceType,
        )!;
        // Only the seed's OpenStack flavors, never a cloud instance type.
        expect(flavor.provider).toBe('openstack');
        const machine = expectClusterApiPool(
          objects,
          thePlan,
          cluster,
          'OpenStackMachineTemplate',
          flavor,
        );
        expect(machine.spec.template.spec.flavor).toBe(
          thePlan.nodes.instanceType,
        );
      });
    }
  }

  it('sizes replicas from the ledger: 4 × A100 replicas of 30 GiB, replicas × the flavor GPUs hold 4 GPUs', () => {
    const { thePlan, objects } = render(capi, 'a100-40gb', 'exclusive', {
      replicas: 4,
      vramGiB: 30,
    });
    const deployment = byKind(objects, 'MachineDeployment');
    const machine = byKind(objects, 'OpenStackMachineTemplate');
    const gpus =
      deployment.spec.replicas *
      seedOpenStackCatalog.instanceTypes.find(
        t => t.name === machine.spec.template.spec.flavor,
      )!.gpusPerNode;
    expect(gpus).toBeGreaterThanOrEqual(4);
    expect(deployment.spec.replicas).toBe(thePlan.nodes.expected);
    expect(thePlan.cost.priceKnown).toBe(true); // owned hardware: 0, not unknown
    expect(thePlan.cost.usdPerMonth).toBe(0);
    // No autoscaler: the plan (and so the pull request) says the count is fixed.
    expect(thePlan.explanation).toContain(
      `Cluster API without an autoscaler (profile clusterApi.autoscaler: false): MachineDeployment ${thePlan.pool.name} runs exactly ${deployment.spec.replicas} ${machine.spec.template.spec.flavor} machine(s), what the requests on it need, idle or not; only a request or a release changes the count.`,
    );
    // With it, the bounds the autoscaler gets.
    const scaled = render(capiAutoscaled, 'a100-40gb', 'exclusive', {
      replicas: 4,
      vramGiB: 30,
    });
    const bounds = byKind(scaled.objects, 'MachineDeployment').metadata
      .annotations;
    expect(scaled.thePlan.explanation).toContain(
      `Cluster API: the cluster autoscaler scales MachineDeployment ${scaled.thePlan.pool.name} between ${bounds['cluster.x-k8s.io/cluster-api-autoscaler-node-group-min-size']} and ${bounds['cluster.x-k8s.io/cluster-api-autoscaler-node-group-max-size']} ${scaled.thePlan.nodes.instanceType} machine(s), as its pods need them.`,
    );
  });

  it('names templates by content: the same plan the same names, another flavor or label a new template', () => {
    const first = render(capi, 't4', 'time-slicing', requests[1][2]).objects;
    const again = render(capi, 't4', 'time-slicing', requests[1][2]).objects;
    expect(again).toEqual(first);
    const other = render(capi, 't4', 'time-slicing', {
      ...requests[1][2],
      slicesPerGpu: 2,
    }).objects;
    const name = (objects: KubernetesObject[], kind: string) =>
      byKind(objects, kind).metadata.name;
    expect(name(other, 'KubeadmConfigTemplate')).not.toBe(
      name(first, 'KubeadmConfigTemplate'),
    );
    expect(name(first, 'KubeadmConfigTemplate')).toMatch(
      /^gpu-t4-[a-z0-9.-]+-[0-9a-f]{8}$/,
    );
  });

  it('writes the v1beta2 kubeletExtraArgs list the CRD requires (unique names), not the v1beta1 map', () => {
    const { objects } = render(capi, 't4', 'exclusive', requests[0][2]);
    const bootstrap = byKind(objects, 'KubeadmConfigTemplate');
    expect(
      bootstrap.spec.template.spec.joinConfiguration.nodeRegistration
        .kubeletExtraArgs,
    ).toEqual([
      {
        name: 'node-labels',
        value: expect.stringContaining('gpu.backstage.io/pool='),
      },
      { name: 'provider-id', value: 'openstack:///{{ instance_id }}' },
    ]);
    expect(
      celRules(
        CLUSTER_API_CRD_FILES.KubeadmConfigTemplate,
        'bootstrap.cluster.x-k8s.io/v1beta2',
        'KubeadmConfigTemplate',
      ),
    ).toContain('self.all(x, self.exists_one(y, x.name == y.name))');
    const asMap = JSON.parse(JSON.stringify(bootstrap));
    asMap.spec.template.spec.joinConfiguration.nodeRegistration.kubeletExtraArgs =
      { 'node-labels': 'a=b' };
    expect(
      crdSchemaErrors(asMap, CLUSTER_API_CRD_FILES.KubeadmConfigTemplate),
    ).not.toEqual([]);
  });

  it('takes the seed taint key and puts it on the nodes at registration', () => {
    const { thePlan, objects } = render(
      capi,
      't4',
      'exclusive',
      requests[0][2],
    );
    expect(thePlan.pool.taint.key).toBe('node-role.kubernetes.io/gpu');
    expect(
      byKind(objects, 'KubeadmConfigTemplate').spec.template.spec
        .joinConfiguration.nodeRegistration.taints,
    ).toEqual([
      {
        key: 'node-role.kubernetes.io/gpu',
        value: thePlan.pool.name,
        effect: 'NoSchedule',
      },
    ]);
  });

  it('refuses renamed resources and DRA when the autoscaler must scale the pool from zero', () => {
    const modes = clusterCapabilities(
      capiAutoscaled,
      seedOpenStackCatalog,
    ).sharingModes;
    expect(
      Object.fromEntries(modes.map(m => [m.mode, m.unavailable?.rule])),
    ).toEqual({
      exclusive: undefined,
      'time-slicing': 'cluster-autoscaler-renamed-resource',
      mps: 'cluster-autoscaler-renamed-resource',
      mig: undefined, // single strategy: MIG instances are nvidia.com/gpu
      dra: 'cluster-autoscaler-renamed-resource',
    });
    expect(() =>
      plan(
        gpuRequest({ sharing: 'time-slicing', replicas: 4, vramGiB: 3 }),
        seedOpenStackCatalog,
        capiAutoscaled,
      ),
    ).toThrow(/never scales up a pool for nvidia\.com\/gpu\.shared/);
    const mixed = resolveClusterProfile({
      name: 'ml-auto-mixed',
      provider: 'cluster-api',
      clusterApi: { ...clusterApi, autoscaler: true },
    });
    expect(sharingModeUnavailable(mixed, 'mig')?.rule).toBe(
      'cluster-autoscaler-renamed-resource',
    );
    // Without the autoscaler the nodes exist: every mode plans.
    expect(sharingModeUnavailable(capi, 'time-slicing')).toBeUndefined();
  });

  it("offers only the catalog's openstack flavors: no built-in cloud machine", () => {
    const models = clusterCapabilities(capi, seedOpenStackCatalog).models;
    const launchable = models.filter(m => !m.unavailable).map(m => m.id);
    expect(launchable.sort()).toEqual(['a100-40gb', 't4']);
  });

  it('refuses the autoscaler when the flavor is not in the catalog it renders with', () => {
    const thePlan = plan(
      gpuRequest({ sharing: 'exclusive', replicas: 1, vramGiB: 8 }),
      seedOpenStackCatalog,
      capiAutoscaled,
    );
    expect(() => buildManifests(thePlan, capiAutoscaled)).toThrow(
      /the catalog has no openstack machine "g2\.5xlarge" for pool gpu-t4: the cluster autoscaler needs its vCPUs and memory/,
    );
  });
});

describe('Cluster API profile', () => {
  function issues(override: unknown) {
    try {
      resolveClusterProfile(override);
    } catch (e) {
      expect(e).toBeInstanceOf(GpuInputError);
      return (e as GpuInputError).issues.map(i => `${i.path}: ${i.message}`);
    }
    return [];
  }

  it('requires the clusterApi settings for provider cluster-api, and only there', () => {
    expect(issues({ name: 'x', provider: 'cluster-api' })).toEqual([
      expect.stringMatching(
        /^clusterApi: is required for provider "cluster-api"/,
      ),
    ]);
    expect(
      issues({ name: 'x', provider: 'aws-karpenter', clusterApi }),
    ).toEqual([
      expect.stringMatching(
        /^clusterApi: applies only to provider "cluster-api"/,
      ),
    ]);
  });

  it('names each bad field', () => {
    const found = issues({
      name: 'x',
      provider: 'cluster-api',
      clusterApi: {
        ...clusterApi,
        infrastructure: 'gcp',
        kubernetesVersion: '1.33',
        kubeletExtraArgs: { 'node-labels': 'a=b' },
        openStack: { imageName: '', subnetName: 's', flavor: 'g2.5xlarge' },
      },
    });
    expect(found).toEqual(
      expect.arrayContaining([
        expect.stringMatching(
          /^clusterApi\.infrastructure: must be one of: "openstack", "vsphere", "metal3", "azure", "aws"$/,
        ),
        expect.stringMatching(
          /^clusterApi\.kubernetesVersion: must be a Kubernetes version/,
        ),
        expect.stringMatching(
          /^clusterApi\.kubeletExtraArgs: must not set node-labels/,
        ),
        'clusterApi.openStack.flavor: unknown key "flavor" is not allowed here',
      ]),
    );
  });

  it('keeps what it was given', () => {
    expect(capi.clusterApi).toEqual(clusterApi);
    expect(capi.provider).toBe('cluster-api');
  });
});

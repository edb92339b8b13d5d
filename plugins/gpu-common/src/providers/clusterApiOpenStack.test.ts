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
  validateAgainstCrd,
} from '../manifests/__testUtils__/crdSchemas';
import type { KubernetesObject } from '../manifests/types';
import { plan } from '../planner/plan';
import { gpuRequest } from '../planner/__testUtils__/fixtures';
import type { SharingMode } from '../request/types';
import { seedOpenStackCatalog } from './__testUtils__/openStackFlavors';

const CRD_FILES: Record<string, string> = {
  MachineDeployment: 'capi-v1.14.0_cluster.x-k8s.io_machinedeployments.yaml',
  KubeadmConfigTemplate:
    'capi-v1.14.0_bootstrap.cluster.x-k8s.io_kubeadmconfigtemplates.yaml',
  OpenStackMachineTemplate:
    'capo-v0.14.7_infrastructure.cluster.x-k8s.io_openstackmachinetemplates.yaml',
};

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

const requests: Array<[string, SharingMode, Record<string, unknown>]> = [
  ['t4', 'exclusive', { replicas: 2, vramGiB: 12 }],
  ['t4', 'time-slicing', { replicas: 6, vramGiB: 3, slicesPerGpu: 4 }],
  ['t4', 'mps', { replicas: 5, vramGiB: 3 }],
  ['a100-40gb', 'mig', { replicas: 3, vramGiB: 9 }],
  ['a100-40gb', 'exclusive', { replicas: 3, vramGiB: 30 }],
  ['t4', 'dra', { replicas: 2, vramGiB: 8 }],
];

function render(
  cluster: typeof capi,
  model: string,
  sharing: SharingMode,
  gpu: Record<string, unknown>,
) {
  const thePlan = plan(
    gpuRequest({
      model,
      sharing,
      ...gpu,
      gpusPerReplica: sharing === 'exclusive' ? 1 : undefined,
    }),
    seedOpenStackCatalog,
    cluster,
  );
  const manifests = buildManifests(thePlan, cluster, {
    catalog: seedOpenStackCatalog,
  });
  return { thePlan, objects: manifests.pool.objects };
}

function byKind(objects: KubernetesObject[], kind: string): any {
  const found = objects.filter(o => o.kind === kind);
  expect(found).toHaveLength(1);
  return found[0];
}

/** kubelet's `--node-labels` value as a record. */
function nodeLabels(bootstrap: any): Record<string, string> {
  const args = bootstrap.spec.template.spec.joinConfiguration.nodeRegistration
    .kubeletExtraArgs as { name: string; value: string }[];
  const value = args.find(a => a.name === 'node-labels')!.value;
  return Object.fromEntries(value.split(',').map(pair => pair.split('=')));
}

describe('Cluster API on OpenStack: plan and render', () => {
  for (const cluster of [capi, capiMixed, capiAutoscaled]) {
    for (const [model, sharing, gpu] of requests) {
      if (sharingModeUnavailable(cluster, sharing)) continue;
      it(`${model} ${sharing} on ${cluster.name}: a MachineDeployment and its two templates, valid against CAPI v1.14.0 and CAPO v0.14.7`, () => {
        const { thePlan, objects } = render(cluster, model, sharing, gpu);
        expect(objects.map(o => o.kind)).toEqual([
          'MachineDeployment',
          'OpenStackMachineTemplate',
          'KubeadmConfigTemplate',
        ]);
        for (const object of objects) {
          validateAgainstCrd(object, CRD_FILES[object.kind]);
        }
        const deployment = byKind(objects, 'MachineDeployment');
        const machine = byKind(objects, 'OpenStackMachineTemplate');
        const bootstrap = byKind(objects, 'KubeadmConfigTemplate');

        // Only the seed's OpenStack flavors, never a cloud instance type.
        expect(
          seedOpenStackCatalog.instanceTypes.find(
            t => t.name === thePlan.nodes.instanceType,
          )?.provider,
        ).toBe('openstack');
        expect(machine.spec.template.spec.flavor).toBe(
          thePlan.nodes.instanceType,
        );
        expect(deployment.spec.template.spec.infrastructureRef).toEqual({
          apiGroup: 'infrastructure.cluster.x-k8s.io',
          kind: 'OpenStackMachineTemplate',
          name: machine.metadata.name,
        });
        expect(deployment.spec.template.spec.bootstrap.configRef).toEqual({
          apiGroup: 'bootstrap.cluster.x-k8s.io',
          kind: 'KubeadmConfigTemplate',
          name: bootstrap.metadata.name,
        });
        // The selector matches the Machines' labels (else CAPI rejects it).
        expect(deployment.spec.template.metadata.labels).toMatchObject(
          deployment.spec.selector.matchLabels,
        );

        // Labels and taint reach the nodes through kubelet registration.
        const labels = nodeLabels(bootstrap);
        expect(labels).toEqual(thePlan.pool.labels);
        expect(labels['gpu.backstage.io/pool']).toBe(thePlan.pool.name);
        if (sharing === 'time-slicing' || sharing === 'mps') {
          expect(labels['nvidia.com/device-plugin.config']).toBe(
            thePlan.sharing.deviceConfigName,
          );
        }
        if (sharing === 'mig') {
          expect(labels['nvidia.com/mig.config']).toBe(
            thePlan.sharing.migConfigName,
          );
        }
        expect(
          bootstrap.spec.template.spec.joinConfiguration.nodeRegistration
            .taints,
        ).toEqual([thePlan.pool.taint]);

        // The pool's annotations are the NodePool's.
        expect(deployment.metadata.annotations).toMatchObject({
          'gpu.backstage.io/gpu-model': model,
          'gpu.backstage.io/sharing-mode': sharing,
          'gpu.backstage.io/resource-name': thePlan.resourceName,
          'gpu.backstage.io/requests': expect.stringMatching(/^ml-team\/llm=/),
        });

        if (cluster.clusterApi!.autoscaler) {
          expect(deployment.spec.replicas).toBeUndefined();
          const flavor = seedOpenStackCatalog.instanceTypes.find(
            t => t.name === thePlan.nodes.instanceType,
          )!;
          expect(deployment.metadata.annotations).toMatchObject({
            'cluster.x-k8s.io/cluster-api-autoscaler-node-group-min-size': '0',
            'cluster.x-k8s.io/cluster-api-autoscaler-node-group-max-size':
              String(thePlan.nodes.expected),
            'capacity.cluster-autoscaler.kubernetes.io/cpu': String(
              flavor.vcpu,
            ),
            'capacity.cluster-autoscaler.kubernetes.io/memory': `${flavor.memoryMiB}Mi`,
            'capacity.cluster-autoscaler.kubernetes.io/gpu-type':
              'nvidia.com/gpu',
            'capacity.cluster-autoscaler.kubernetes.io/gpu-count': String(
              thePlan.nodes.slicesPerNode,
            ),
            'capacity.cluster-autoscaler.kubernetes.io/taints': `${thePlan.pool.taint.key}=${thePlan.pool.taint.value}:NoSchedule`,
          });
        } else {
          expect(deployment.spec.replicas).toBe(thePlan.nodes.expected);
          expect(
            Object.keys(deployment.metadata.annotations).filter(k =>
              k.includes('autoscaler'),
            ),
          ).toEqual([]);
        }
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
        CRD_FILES.KubeadmConfigTemplate,
        'bootstrap.cluster.x-k8s.io/v1beta2',
        'KubeadmConfigTemplate',
      ),
    ).toContain('self.all(x, self.exists_one(y, x.name == y.name))');
    const asMap = JSON.parse(JSON.stringify(bootstrap));
    asMap.spec.template.spec.joinConfiguration.nodeRegistration.kubeletExtraArgs =
      { 'node-labels': 'a=b' };
    expect(crdSchemaErrors(asMap, CRD_FILES.KubeadmConfigTemplate)).not.toEqual(
      [],
    );
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
      /the catalog has no flavor "g2\.5xlarge"/,
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
        infrastructure: 'vsphere',
        kubernetesVersion: '1.33',
        kubeletExtraArgs: { 'node-labels': 'a=b' },
        openStack: { imageName: '', subnetName: 's', flavor: 'g2.5xlarge' },
      },
    });
    expect(found).toEqual(
      expect.arrayContaining([
        expect.stringMatching(
          /^clusterApi\.infrastructure: must be one of: "openstack"/,
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

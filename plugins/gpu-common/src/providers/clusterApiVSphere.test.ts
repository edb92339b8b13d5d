/**
 * Cluster API on vSphere: the platform's VM shapes (passthrough and vGPU),
 * each sharing mode the profile allows, planned and rendered; every pool
 * object checked against the CRDs of Cluster API v1.14.0 (MachineDeployment,
 * KubeadmConfigTemplate: v1beta2) and CAPV v1.16.1 (VSphereMachineTemplate
 * v1beta2, its storage version).
 */
import {
  clusterCapabilities,
  sharingModeUnavailable,
} from '../cluster/capabilities';
import { resolveClusterProfile } from '../cluster/schema';
import { GpuInputError } from '../errors';
import { buildManifests } from '../manifests/buildManifests';
import { crdSchemaErrors } from '../manifests/__testUtils__/crdSchemas';
import { plan } from '../planner/plan';
import { gpuRequest } from '../planner/__testUtils__/fixtures';
import {
  byKind,
  CLUSTER_API_CRD_FILES,
  CLUSTER_API_MODE_REQUESTS,
  expectClusterApiPool,
  renderPool,
} from './__testUtils__/clusterApiPool';
import { vSphereCatalog } from './__testUtils__/vSphereMachines';

const CRD = CLUSTER_API_CRD_FILES.VSphereMachineTemplate;

const vSphere = {
  template: 'ubuntu-2404-kube-v1.33.1',
  server: 'vcenter.example.com',
  datacenter: 'dc1',
  datastore: 'vsanDatastore',
  folder: 'ml-prod',
  resourcePool: '*/Resources/ml-gpu',
  network: { devices: [{ networkName: 'ml-nodes', dhcp4: true }] },
  customVMXKeys: {
    'pciPassthru.use64bitMMIO': 'TRUE',
    'pciPassthru.64bitMMIOSizeGB': '128',
  },
};

const clusterApi = {
  clusterName: 'ml-prod',
  namespace: 'capi-ml-prod',
  infrastructure: 'vsphere',
  kubernetesVersion: 'v1.33.1',
  autoscaler: false,
  vSphere,
};

const capv = resolveClusterProfile({
  name: 'ml-vsphere',
  provider: 'cluster-api',
  migStrategy: 'single',
  gpuTaintKey: 'node-role.kubernetes.io/gpu',
  clusterApi,
});
const capvMixed = resolveClusterProfile({
  name: 'ml-vsphere-mixed',
  provider: 'cluster-api',
  migStrategy: 'mixed',
  clusterApi,
});
const capvAutoscaled = resolveClusterProfile({
  name: 'ml-vsphere-auto',
  provider: 'cluster-api',
  migStrategy: 'single',
  clusterApi: { ...clusterApi, autoscaler: true },
});

const machineOf = (name: string) =>
  vSphereCatalog.instanceTypes.find(t => t.name === name)!;

/**
 * CAPV's admission rule for each PCI device: deviceId + vendorId, or
 * vGPUProfile, never both (v1.16.1 internal/webhooks/vspheremachine.go
 * `validatePCIDevices`; a webhook, so the CRD check cannot see it).
 */
function capvPciDeviceErrors(devices: Record<string, unknown>[]): string[] {
  return devices.flatMap((device, i) => {
    const vgpu = device.vGPUProfile !== undefined;
    const ids = device.deviceId !== undefined && device.vendorId !== undefined;
    const noIds =
      device.deviceId === undefined && device.vendorId === undefined;
    return (vgpu && noIds) || (!vgpu && ids)
      ? []
      : [
          `pciDevices[${i}] should have either deviceId + vendorId or vGPUProfile set`,
        ];
  });
}

describe('Cluster API on vSphere: plan and render', () => {
  for (const cluster of [capv, capvMixed, capvAutoscaled]) {
    for (const [model, sharing, gpu] of CLUSTER_API_MODE_REQUESTS) {
      if (sharingModeUnavailable(cluster, sharing)) continue;
      it(`${model} ${sharing} on ${cluster.name}: a MachineDeployment and its two templates, valid against CAPI v1.14.0 and CAPV v1.16.1`, () => {
        const { thePlan, objects } = renderPool(
          cluster,
          vSphereCatalog,
          model,
          sharing,
          gpu,
        );
        const machine = machineOf(thePlan.nodes.instanceType);
        // Only the platform's vSphere VM shapes, never a cloud instance type.
        expect(machine.provider).toBe('vsphere');
        const template = expectClusterApiPool(
          objects,
          thePlan,
          cluster,
          'VSphereMachineTemplate',
          machine,
        );
        expect(template.apiVersion).toBe(
          'infrastructure.cluster.x-k8s.io/v1beta2',
        );
        const spec = template.spec.template.spec;
        // The VM's size is the catalog machine's.
        expect(spec).toMatchObject({
          numCPUs: machine.vcpu,
          memoryMiB: machine.memoryMiB,
          diskGiB: machine.vSphere!.diskGiB,
          cloneMode: 'fullClone',
        });
        // One PCI device per GPU of the machine, of the machine's kind.
        expect(spec.pciDevices).toHaveLength(machine.gpusPerNode);
        expect(capvPciDeviceErrors(spec.pciDevices)).toEqual([]);
        for (const device of spec.pciDevices) {
          expect(device).toEqual(
            machine.vSphere!.vgpuProfile
              ? { vGPUProfile: machine.vSphere!.vgpuProfile }
              : {
                  deviceId: parseInt(machine.vSphere!.pciDeviceId!, 16),
                  vendorId: 4318,
                },
          );
        }
        // The profile's placement and network.
        expect(spec).toMatchObject({
          template: vSphere.template,
          server: vSphere.server,
          datacenter: vSphere.datacenter,
          datastore: vSphere.datastore,
          folder: vSphere.folder,
          resourcePool: vSphere.resourcePool,
          network: vSphere.network,
          customVMXKeys: vSphere.customVMXKeys,
        });
        // The machine's name travels with the template, for the reader.
        expect(template.spec.template.metadata.labels).toEqual({
          'gpu.backstage.io/machine': machine.name,
        });
        // A MIG pool runs on GPUs in passthrough: a vGPU cannot be partitioned.
        expect(sharing !== 'mig' || !machine.vSphere!.vgpuProfile).toBe(true);
      });
    }
  }

  it('passes through two T4s as CAPV documents them (device 7864, vendor 4318) when a replica needs two GPUs', () => {
    const { thePlan, objects } = renderPool(
      capv,
      vSphereCatalog,
      't4',
      'exclusive',
      {
        replicas: 1,
        vramGiB: 12,
        gpusPerReplica: 2,
      },
    );
    expect(thePlan.nodes.instanceType).toBe('vm-t4x2');
    // The catalog entry names no device: the T4's one known id (1eb8) is taken.
    expect(machineOf('vm-t4x2').vSphere!.pciDeviceId).toBe('1eb8');
    expect(
      byKind(objects, 'VSphereMachineTemplate').spec.template.spec.pciDevices,
    ).toEqual([
      { deviceId: 7864, vendorId: 4318 },
      { deviceId: 7864, vendorId: 4318 },
    ]);
  });

  it('plans MIG on a passthrough A100 although a vGPU A100 sorts first, and exclusive GPUs on the vGPU one', () => {
    const mig = renderPool(capv, vSphereCatalog, 'a100-40gb', 'mig', {
      replicas: 3,
      vramGiB: 9,
    });
    expect(mig.thePlan.nodes.instanceType).toBe('vm-a100x1');
    const exclusive = renderPool(
      capv,
      vSphereCatalog,
      'a100-40gb',
      'exclusive',
      {
        replicas: 1,
        vramGiB: 30,
      },
    );
    expect(exclusive.thePlan.nodes.instanceType).toBe('vm-a100-vgpu');
    expect(
      byKind(exclusive.objects, 'VSphereMachineTemplate').spec.template.spec
        .pciDevices,
    ).toEqual([{ vGPUProfile: 'grid_a100-40c' }]);
  });

  it('refuses MIG where every machine of the model is a vGPU, in the form and in the planner', () => {
    const vgpuOnly = {
      ...vSphereCatalog,
      instanceTypes: vSphereCatalog.instanceTypes.filter(
        t => t.gpuModel !== 'a100-40gb' || t.vSphere?.vgpuProfile,
      ),
    };
    const a100 = clusterCapabilities(capv, vgpuOnly).models.find(
      m => m.id === 'a100-40gb',
    )!;
    expect(a100.unavailable).toBeUndefined();
    expect(a100.modes.mig?.rule).toBe('mig-needs-whole-gpu');
    expect(a100.modes.exclusive).toBeUndefined();
    expect(() =>
      plan(
        gpuRequest({
          model: 'a100-40gb',
          sharing: 'mig',
          replicas: 1,
          vramGiB: 9,
        }),
        vgpuOnly,
        capv,
      ),
    ).toThrow(
      /gets a100-40gb only as vGPUs \(vm-a100-vgpu: grid_a100-40c\): MIG partitions a whole GPU/,
    );
    // With the passthrough machines the same request plans.
    expect(
      clusterCapabilities(capv, vSphereCatalog).models.find(
        m => m.id === 'a100-40gb',
      )!.modes.mig,
    ).toBeUndefined();
  });

  it('names templates by content: the same plan the same names, another machine a new template', () => {
    const first = renderPool(capv, vSphereCatalog, 'a100-40gb', 'exclusive', {
      replicas: 1,
      vramGiB: 30,
    }).objects;
    const again = renderPool(capv, vSphereCatalog, 'a100-40gb', 'exclusive', {
      replicas: 1,
      vramGiB: 30,
    }).objects;
    expect(again).toEqual(first);
    const resized = {
      ...vSphereCatalog,
      instanceTypes: vSphereCatalog.instanceTypes.map(t =>
        t.name === 'vm-a100-vgpu' ? { ...t, vcpu: 24 } : t,
      ),
    };
    const other = renderPool(capv, resized, 'a100-40gb', 'exclusive', {
      replicas: 1,
      vramGiB: 30,
    }).objects;
    const name = (objects: typeof first) =>
      byKind(objects, 'VSphereMachineTemplate').metadata.name;
    expect(name(other)).not.toBe(name(first));
    expect(name(first)).toMatch(/^gpu-a100-40gb-[0-9a-f]{8}$/);
  });

  it('keeps a linked clone when the profile asks for one', () => {
    const linked = resolveClusterProfile({
      name: 'ml-linked',
      provider: 'cluster-api',
      clusterApi: {
        ...clusterApi,
        vSphere: { ...vSphere, cloneMode: 'linkedClone' },
      },
    });
    const { objects } = renderPool(linked, vSphereCatalog, 't4', 'exclusive', {
      replicas: 1,
      vramGiB: 8,
    });
    expect(
      byKind(objects, 'VSphereMachineTemplate').spec.template.spec.cloneMode,
    ).toBe('linkedClone');
  });

  it('checks the objects for real: the CRD refuses what CAPV would', () => {
    const { objects } = renderPool(capv, vSphereCatalog, 't4', 'exclusive', {
      replicas: 1,
      vramGiB: 12,
      gpusPerReplica: 2,
    });
    const template = byKind(objects, 'VSphereMachineTemplate');
    expect(crdSchemaErrors(template, CRD)).toEqual([]);
    const broken = JSON.parse(JSON.stringify(template));
    // The hex id vSphere's client shows, where CAPV wants the integer.
    broken.spec.template.spec.pciDevices[0].deviceId = '0x1EB8';
    broken.spec.template.spec.numCPUs = 1; // CAPV: at least 2
    delete broken.spec.template.spec.network; // CAPV requires it
    expect(crdSchemaErrors(broken, CRD)).toEqual(
      expect.arrayContaining([
        expect.stringMatching(
          /^\/spec\/template\/spec\/pciDevices\/0\/deviceId must be integer/,
        ),
        expect.stringMatching(/^\/spec\/template\/spec\/numCPUs must be >= 2/),
        expect.stringMatching(
          /^\/spec\/template\/spec must have required property 'network'/,
        ),
      ]),
    );
    // vGPU and passthrough at once: the schema allows it, CAPV's webhook does not.
    expect(
      capvPciDeviceErrors([
        { deviceId: 7864, vendorId: 4318, vGPUProfile: 'grid_t4-16c' },
      ]),
    ).toHaveLength(1);
    // CAPV names the field vGPUProfile in v1beta1 and v1beta2 alike: a
    // misspelt one is pruned by the API server and leaves a device with
    // neither, which the webhook refuses too.
    expect(
      capvPciDeviceErrors([{ vGPUProfileName: 'grid_t4-16c' }]),
    ).toHaveLength(1);
  });

  it("offers only the catalog's vsphere machines, priced as owned hardware", () => {
    const launchable = clusterCapabilities(capv, vSphereCatalog)
      .models.filter(m => !m.unavailable)
      .map(m => m.id);
    expect(launchable.sort()).toEqual(['a100-40gb', 't4']);
    expect(clusterCapabilities(capv, vSphereCatalog).label).toBe(
      'ml-vsphere — Cluster API (vSphere)',
    );
    const { thePlan } = renderPool(capv, vSphereCatalog, 't4', 'exclusive', {
      replicas: 2,
      vramGiB: 12,
    });
    expect(thePlan.cost.priceKnown).toBe(true); // owned: 0, not unknown
    expect(thePlan.cost.usdPerMonth).toBe(0);
  });

  it('refuses to render without the catalog: the VM needs the machine facts', () => {
    const thePlan = plan(
      gpuRequest({ sharing: 'exclusive', replicas: 1, vramGiB: 8 }),
      vSphereCatalog,
      capv,
    );
    expect(() => buildManifests(thePlan, capv)).toThrow(
      /the catalog has no vsphere machine "vm-t4-vgpu" for pool gpu-t4: the VM template needs its CPUs, memory, disk and GPUs/,
    );
  });
});

describe('Cluster API profile on vSphere', () => {
  function issues(override: unknown) {
    try {
      resolveClusterProfile(override);
    } catch (e) {
      expect(e).toBeInstanceOf(GpuInputError);
      return (e as GpuInputError).issues.map(
        i => `${i.path} [${i.rule}]: ${i.message}`,
      );
    }
    return [];
  }
  const withVSphere = (settings: Record<string, unknown>) => ({
    name: 'x',
    provider: 'cluster-api',
    clusterApi: { ...clusterApi, vSphere: settings },
  });

  it('keeps what it was given', () => {
    expect(capv.clusterApi).toEqual(clusterApi);
    expect(
      issues(withVSphere({ template: 't', network: vSphere.network })),
    ).toEqual([]);
  });

  it('accepts the optional placement, clone, address pools and VM settings', () => {
    expect(
      issues(
        withVSphere({
          ...vSphere,
          thumbprint: Array(20).fill('AB').join(':'),
          storagePolicyName: 'gpu-gold',
          cloneMode: 'fullClone',
          hardwareVersion: 'vmx-21',
          network: {
            devices: [
              {
                networkName: 'ml-nodes',
                addressesFromPools: [
                  {
                    apiGroup: 'ipam.cluster.x-k8s.io',
                    kind: 'InClusterIPPool',
                    name: 'ml-pool',
                  },
                ],
              },
              { networkName: 'ml-storage', dhcp6: true },
            ],
          },
        }),
      ),
    ).toEqual([]);
  });

  it('names each bad field and its rule', () => {
    expect(
      issues(
        withVSphere({
          template: '',
          thumbprint: 'ab:cd',
          cloneMode: 'instantClone',
          hardwareVersion: '17',
          network: {
            devices: [
              { networkName: 'ml-nodes' },
              {
                networkName: 'ml-nodes',
                ipAddrs: ['10.0.0.5/24'],
                dhcp4: true,
              },
              {
                networkName: 'x',
                addressesFromPools: [
                  { apiGroup: 'ipam', kind: '1pool', name: 'Pool' },
                ],
              },
            ],
          },
          numCPUs: 8,
        }),
      ),
    ).toEqual(
      expect.arrayContaining([
        expect.stringMatching(/^clusterApi\.vSphere\.template \[min\]: /),
        expect.stringMatching(
          /^clusterApi\.vSphere\.thumbprint \[format\]: must be a SHA-1 thumbprint/,
        ),
        expect.stringMatching(/^clusterApi\.vSphere\.cloneMode \[enum\]: /),
        expect.stringMatching(
          /^clusterApi\.vSphere\.hardwareVersion \[format\]: must be a VM hardware version such as "vmx-17"/,
        ),
        expect.stringMatching(
          /^clusterApi\.vSphere\.network\.devices\.0 \[network-address-source\]: needs an address source/,
        ),
        'clusterApi.vSphere.network.devices.1.ipAddrs [unknown-key]: unknown key "ipAddrs" is not allowed here',
        expect.stringMatching(
          /^clusterApi\.vSphere\.network\.devices\.2\.addressesFromPools\.0\.kind \[format\]: must be a kind/,
        ),
        expect.stringMatching(
          /^clusterApi\.vSphere\.network\.devices\.2\.addressesFromPools\.0\.name \[dns1123-subdomain\]: /,
        ),
        'clusterApi.vSphere.numCPUs [unknown-key]: unknown key "numCPUs" is not allowed here',
      ]),
    );
    expect(
      issues(withVSphere({ template: 't', network: { devices: [] } })),
    ).toEqual([
      expect.stringMatching(
        /^clusterApi\.vSphere\.network\.devices \[non-empty\]: /,
      ),
    ]);
    expect(issues(withVSphere({ template: 't' }))).toEqual([
      'clusterApi.vSphere.network [required]: is required',
    ]);
  });
});

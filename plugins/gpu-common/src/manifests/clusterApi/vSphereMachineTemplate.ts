import { NVIDIA_PCI_VENDOR } from '../../catalog/data/pciDeviceIds';
import type { InstanceType } from '../../catalog/types';
import {
  infrastructureSettingsOf,
  type ClusterApiSettings,
} from '../../cluster/clusterApi';
import type { ClusterProfile } from '../../cluster/types';
import { GpuInputError } from '../../errors';
import type { Plan } from '../../planner/types';
import type { KubernetesObject } from '../types';
import { CLUSTER_API } from './clusterApiGroups';
import { catalogMachineLabels, poolTemplate } from './poolTemplate';

/** NVIDIA's PCI vendor id as CAPV takes it: an integer (0x10de = 4318). */
const NVIDIA_VENDOR_ID = parseInt(NVIDIA_PCI_VENDOR, 16);

/**
 * The GPUs of a VM (CAPV `pciDevices`): one device per GPU of the machine,
 * CAPV attaching as many devices of a kind as the list names
 * (kubernetes-sigs/cluster-api-provider-vsphere v1.16.1
 * `pkg/services/govmomi/pci/device.go`). A device is either a passthrough
 * GPU by integer device and vendor id (Dynamic DirectPath I/O; CAPV
 * `docs/gpu-pci.md`) or an NVIDIA vGPU by profile (CAPV `docs/gpu-vgpu.md`),
 * never both (the webhook's `validatePCIDevices`).
 */
function pciDevices(machine: InstanceType): Record<string, unknown>[] {
  const device = pciDevice(machine);
  return Array.from({ length: machine.gpusPerNode }, () => ({ ...device }));
}

/** One GPU of the machine as a CAPV PCI device. */
function pciDevice(machine: InstanceType): Record<string, unknown> {
  const vSphere = machine.vSphere;
  if (vSphere?.vgpuProfile) return { vGPUProfile: vSphere.vgpuProfile };
  if (vSphere?.pciDeviceId) {
    return {
      deviceId: parseInt(vSphere.pciDeviceId, 16),
      vendorId: NVIDIA_VENDOR_ID,
    };
  }
  // mergeCatalog completes every vsphere machine; one built in code may not be.
  throw new GpuInputError([
    {
      path: 'catalog.instanceTypes',
      rule: 'vsphere-machine',
      message: `vsphere machine "${machine.name}" names neither a PCI device id nor a vGPU profile for its GPUs`,
    },
  ]);
}

/**
 * The vSphere VM of a pool's nodes (CAPV v1.16.1 `VSphereMachineTemplate`
 * v1beta2): the catalog machine the plan priced its nodes on gives its CPUs,
 * memory, disk and GPUs; the profile says where it is cloned from and to,
 * and its network. CAPV requires only `template` and `network`; what is
 * left out (server, datacenter, ...) CAPV takes from the VSphereCluster or
 * the VM template. `cloneMode` is `fullClone` unless the profile says
 * otherwise: a linked clone ignores `diskGiB` (the CRD's description). CAPV
 * reserves all of a GPU VM's memory itself (`docs/gpu-vgpu.md`).
 */
export function buildVSphereMachineTemplate(
  plan: Plan,
  cluster: ClusterProfile,
  settings: ClusterApiSettings,
  machine: InstanceType,
): KubernetesObject {
  const vSphere = infrastructureSettingsOf(settings, 'vsphere');
  const disk = machine.vSphere?.diskGiB;
  const spec: Record<string, unknown> = { template: vSphere.template };
  for (const key of [
    'server',
    'thumbprint',
    'datacenter',
    'datastore',
    'folder',
    'resourcePool',
    'storagePolicyName',
  ] as const) {
    if (vSphere[key] !== undefined) spec[key] = vSphere[key];
  }
  spec.cloneMode = vSphere.cloneMode ?? 'fullClone';
  spec.numCPUs = machine.vcpu;
  spec.memoryMiB = machine.memoryMiB;
  if (disk !== undefined) spec.diskGiB = disk;
  spec.network = {
    devices: vSphere.network.devices.map(device => ({
      networkName: device.networkName,
      ...(device.dhcp4 !== undefined ? { dhcp4: device.dhcp4 } : {}),
      ...(device.dhcp6 !== undefined ? { dhcp6: device.dhcp6 } : {}),
      ...(device.addressesFromPools
        ? { addressesFromPools: device.addressesFromPools.map(p => ({ ...p })) }
        : {}),
    })),
  };
  spec.pciDevices = pciDevices(machine);
  if (vSphere.customVMXKeys) spec.customVMXKeys = { ...vSphere.customVMXKeys };
  if (vSphere.hardwareVersion) spec.hardwareVersion = vSphere.hardwareVersion;
  return poolTemplate(
    CLUSTER_API.vSphereMachineTemplate,
    plan,
    cluster,
    settings,
    {
      template: {
        metadata: { labels: catalogMachineLabels(plan, cluster) },
        spec,
      },
    },
  );
}

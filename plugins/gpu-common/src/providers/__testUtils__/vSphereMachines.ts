/**
 * TEST-ONLY: a platform's vSphere GPU VM shapes as a catalog override for a
 * Cluster API cluster on vSphere (owned hardware: price 0). T4s and A100 PCIe
 * 40GB cards (PCI device 20f1) passed through, and the same GPUs as whole-GPU
 * NVIDIA vGPUs (`grid_t4-16c`, `grid_a100-40c`). The vGPU shapes sort first
 * by name, so a plan that takes a passthrough machine took it for a reason.
 * docs/platform-engineers.md's "Cluster providers" section shows the same override.
 */
import { builtinCatalog } from '../../catalog/builtin';
import { mergeCatalog } from '../../catalog/override';

const GIB = 1024;

export const VSPHERE_MACHINES = {
  instanceTypes: [
    {
      name: 'vm-a100-vgpu',
      gpuModel: 'a100-40gb',
      gpusPerNode: 1,
      vcpu: 16,
      memoryMiB: 128 * GIB,
      vSphere: { diskGiB: 200, vgpuProfile: 'grid_a100-40c' },
    },
    {
      name: 'vm-a100x1',
      gpuModel: 'a100-40gb',
      gpusPerNode: 1,
      vcpu: 16,
      memoryMiB: 128 * GIB,
      vSphere: { diskGiB: 200, pciDeviceId: '20f1' },
    },
    {
      name: 'vm-a100x2',
      gpuModel: 'a100-40gb',
      gpusPerNode: 2,
      vcpu: 32,
      memoryMiB: 256 * GIB,
      vSphere: { diskGiB: 200, pciDeviceId: '20f1' },
    },
    {
      name: 'vm-t4-vgpu',
      gpuModel: 't4',
      gpusPerNode: 1,
      vcpu: 8,
      memoryMiB: 64 * GIB,
      vSphere: { diskGiB: 100, vgpuProfile: 'grid_t4-16c' },
    },
    {
      name: 'vm-t4x2',
      gpuModel: 't4',
      gpusPerNode: 2,
      vcpu: 16,
      memoryMiB: 96 * GIB,
      // The T4 has one PCI device id (1eb8): the catalog fills it in.
      vSphere: { diskGiB: 100 },
    },
  ].map(machine => ({
    ...machine,
    family: machine.name.replace(/x\d+$|-vgpu$/, ''),
    provider: 'vsphere',
    onDemandUsdPerHour: 0,
  })),
};

export const vSphereCatalog = mergeCatalog(builtinCatalog, VSPHERE_MACHINES);

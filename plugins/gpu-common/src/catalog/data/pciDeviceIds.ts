import type { GpuModel } from '../types';

/**
 * PCI device ids (lowercase hex, as NFD's `pci.device` `device` attribute
 * reads them from sysfs) of the built-in models without MIG, whose catalog
 * entry carries none. From the PCI ID database NVIDIA vendors
 * (NVIDIA/gpu-operator v26.7.0
 * `vendor/github.com/NVIDIA/go-nvlib/pkg/pciids/default_pci.ids`, vendor 10de).
 * MIG models take theirs from their MIG geometry (`pciDeviceIds`).
 */
const NON_MIG_PCI_DEVICE_IDS: Readonly<Record<string, readonly string[]>> = {
  /** 1eb8 TU104GL [Tesla T4] */
  t4: ['1eb8'],
  /** 2237 GA102GL [A10G] */
  a10g: ['2237'],
  /** 27b8 AD104GL [L4] */
  l4: ['27b8'],
  /** 26b9 AD102GL [L40S] */
  l40s: ['26b9'],
  /** Tesla V100 16GB: 1db1 SXM2, 1db3 FHHL, 1db4 PCIe, 1df5 SXM2 */
  v100: ['1db1', '1db3', '1db4', '1df5'],
  /** Tesla V100 32GB: 1db5 SXM2, 1db6 PCIe, 1db8 SXM3, 1df6 V100S PCIe */
  'v100-32gb': ['1db5', '1db6', '1db8', '1df6'],
};

/** NVIDIA's PCI vendor id, as NFD's `pci.device` `vendor` attribute reads it. */
export const NVIDIA_PCI_VENDOR = '10de';

/**
 * The PCI device ids of a model's GPUs, lowercase hex without `0x` (NFD's
 * form), sorted; empty when the catalog knows none (a model of an
 * organisation's own catalog without MIG).
 */
export function pciDeviceIdsOf(model: Pick<GpuModel, 'id' | 'mig'>): string[] {
  // mig-parted's form is 0x<device><vendor>, e.g. 0x20B210DE.
  const fromMig = (model.mig?.pciDeviceIds ?? [])
    .map(id => id.toLowerCase())
    .filter(id => id.endsWith(NVIDIA_PCI_VENDOR))
    .map(id => id.slice(2, 6));
  const ids = new Set([
    ...fromMig,
    ...(NON_MIG_PCI_DEVICE_IDS[model.id] ?? []),
  ]);
  return [...ids].sort();
}

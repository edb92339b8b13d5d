/**
 * The `vSphere` block of a catalog machine (provider `vsphere`): checked and
 * completed once, when the catalog is merged, so the template builder only
 * reads it.
 */
import { z } from 'zod';
import type { InputIssue } from '../errors';
import { pciDeviceIdsOf } from './data/pciDeviceIds';
import type { GpuModel, VSphereMachine } from './types';

export const vSphereMachineSchema = z.strictObject({
  // CAPV v1.16.1 VSphereMachineTemplate v1beta2 `diskGiB`: int32, minimum 1.
  diskGiB: z
    .number()
    .int()
    .positive()
    .max(2 ** 31 - 1),
  pciDeviceId: z
    .string()
    .regex(/^[0-9A-Fa-f]{4}$/, {
      message:
        'must be the GPU\'s PCI device id: 4 hex digits as vSphere lists it, e.g. "20f1"',
    })
    .optional(),
  // CAPV v1.16.1 `pciDevices[].vGPUProfile`: 1..1024 characters.
  vgpuProfile: z.string().min(1).max(1024).optional(),
});

/** CAPV v1.16.1 VSphereMachineTemplate v1beta2 `numCPUs`: minimum 2. */
const MIN_VSPHERE_VCPUS = 2;

/**
 * A `vsphere` machine's vSphere block, its passthrough device id lowercased
 * or, when it names neither a device nor a vGPU profile, the model's one
 * known device id; or the issues (under the entry's `path`) that make the
 * machine unusable.
 */
export function resolveVSphereMachine(
  entry: { vcpu: number; vSphere: z.infer<typeof vSphereMachineSchema> },
  model: Pick<GpuModel, 'id' | 'mig'>,
  entryPath: string,
): { machine: VSphereMachine } | { issues: InputIssue[] } {
  if (entry.vcpu < MIN_VSPHERE_VCPUS) {
    return {
      issues: [
        {
          path: `${entryPath}.vcpu`,
          rule: 'min',
          message: `a vSphere VM has at least ${MIN_VSPHERE_VCPUS} vCPUs (CAPV numCPUs)`,
        },
      ],
    };
  }
  const vSphere = entry.vSphere;
  const path = `${entryPath}.vSphere`;
  const known = pciDeviceIdsOf(model);
  if (vSphere.vgpuProfile !== undefined) {
    // CAPV's webhook accepts a PCI device with either deviceId + vendorId or
    // vGPUProfile, never both (v1.16.1 internal/webhooks/vspheremachine.go
    // `validatePCIDevices`).
    if (vSphere.pciDeviceId !== undefined) {
      return {
        issues: [
          {
            path: `${path}.pciDeviceId`,
            rule: 'gpu-attachment',
            message:
              'a machine gets its GPUs by PCI passthrough (pciDeviceId) or as vGPUs (vgpuProfile), not both',
          },
        ],
      };
    }
    return { machine: { ...vSphere } };
  }
  const id = vSphere.pciDeviceId?.toLowerCase();
  if (id !== undefined && (known.length === 0 || known.includes(id))) {
    return { machine: { ...vSphere, pciDeviceId: id } };
  }
  if (id === undefined && known.length === 1) {
    return { machine: { ...vSphere, pciDeviceId: known[0] } };
  }
  return {
    issues: [
      {
        path: `${path}.pciDeviceId`,
        rule: 'pci-device-id',
        message: unusableDeviceIdReason(id, model.id, known),
      },
    ],
  };
}

/** Why a passthrough machine's device id (named or not) cannot be used. */
function unusableDeviceIdReason(
  id: string | undefined,
  model: string,
  known: string[],
): string {
  if (id !== undefined) {
    return `${id} is not a PCI device id of ${model} (${known.join(', ')})`;
  }
  if (known.length === 0) {
    return `the catalog knows no PCI device id of ${model}: name the hosts' GPU (e.g. "1eb8" for a T4), or set vgpuProfile`;
  }
  return `${model} comes as several PCI devices (${known.join(', ')}): name the one the hosts have, or set vgpuProfile`;
}

import { isPriceKnown } from '../capacity/poolCost';
import { GpuInputError } from '../errors';
import { builtinCatalog } from './builtin';
import { mergeCatalog } from './override';

/** A vsphere machine entry of the catalog override, with `changes`. */
function vm(changes: Record<string, unknown>) {
  return {
    name: 'vm-gpu',
    family: 'vm',
    provider: 'vsphere',
    gpuModel: 't4',
    gpusPerNode: 1,
    vcpu: 8,
    memoryMiB: 65536,
    onDemandUsdPerHour: 0,
    vSphere: { diskGiB: 100 },
    ...changes,
  };
}

function issuesOf(instanceTypes: unknown[], models?: unknown[]): string[] {
  try {
    mergeCatalog(builtinCatalog, { instanceTypes, models });
  } catch (error) {
    expect(error).toBeInstanceOf(GpuInputError);
    return (error as GpuInputError).issues.map(
      i => `${i.path} [${i.rule}]: ${i.message}`,
    );
  }
  return [];
}

const machineOf = (entry: Record<string, unknown>) =>
  mergeCatalog(builtinCatalog, { instanceTypes: [entry] }).instanceTypes.find(
    t => t.name === entry.name,
  )!;

describe('vsphere machines in the catalog', () => {
  it("takes the model's one PCI device id when the machine names none (T4: 1eb8), lowercases a named one", () => {
    expect(machineOf(vm({})).vSphere).toEqual({
      diskGiB: 100,
      pciDeviceId: '1eb8',
    });
    expect(
      machineOf(
        vm({
          gpuModel: 'a100-40gb',
          vSphere: { diskGiB: 200, pciDeviceId: '20F1' },
        }),
      ).vSphere,
    ).toEqual({ diskGiB: 200, pciDeviceId: '20f1' });
  });

  it('keeps a vGPU profile as it is, with no device id', () => {
    expect(
      machineOf(vm({ vSphere: { diskGiB: 100, vgpuProfile: 'grid_t4-16c' } }))
        .vSphere,
    ).toEqual({ diskGiB: 100, vgpuProfile: 'grid_t4-16c' });
  });

  it('is owned hardware: a price of 0 is known, not missing', () => {
    expect(isPriceKnown(machineOf(vm({})))).toBe(true);
  });

  it('needs the vSphere block on vsphere machines, and only there', () => {
    expect(issuesOf([vm({ vSphere: undefined })])).toEqual([
      expect.stringMatching(
        /^instanceTypes\.0\.vSphere \[vsphere-machine\]: is required for provider "vsphere"/,
      ),
    ]);
    expect(issuesOf([vm({ provider: 'openstack' })])).toEqual([
      'instanceTypes.0.vSphere [vsphere-machine]: applies only to provider "vsphere", not "openstack"',
    ]);
  });

  it("refuses a device id that is not the model's, and asks which one when the model has several", () => {
    expect(
      issuesOf([vm({ vSphere: { diskGiB: 100, pciDeviceId: '20f1' } })]),
    ).toEqual([
      'instanceTypes.0.vSphere.pciDeviceId [pci-device-id]: 20f1 is not a PCI device id of t4 (1eb8)',
    ]);
    expect(
      issuesOf([vm({ gpuModel: 'a100-40gb', vSphere: { diskGiB: 100 } })]),
    ).toEqual([
      'instanceTypes.0.vSphere.pciDeviceId [pci-device-id]: a100-40gb comes as several PCI devices (20b0, 20b1, 20f1, 20f6): name the one the hosts have, or set vgpuProfile',
    ]);
  });

  it('accepts any device id of a model whose ids the catalog does not know, and needs one', () => {
    const model = {
      id: 'l40',
      displayName: 'NVIDIA L40',
      memoryMiB: 46068,
      architecture: 'ada-lovelace',
      computeCapability: '8.9',
    };
    expect(
      issuesOf(
        [
          vm({
            gpuModel: 'l40',
            vSphere: { diskGiB: 100, pciDeviceId: '26b5' },
          }),
        ],
        [model],
      ),
    ).toEqual([]);
    expect(issuesOf([vm({ gpuModel: 'l40' })], [model])).toEqual([
      expect.stringMatching(
        /^instanceTypes\.0\.vSphere\.pciDeviceId \[pci-device-id\]: the catalog knows no PCI device id of l40/,
      ),
    ]);
  });

  it('refuses passthrough and vGPU at once, as CAPV does', () => {
    expect(
      issuesOf([
        vm({
          vSphere: {
            diskGiB: 100,
            pciDeviceId: '1eb8',
            vgpuProfile: 'grid_t4-16c',
          },
        }),
      ]),
    ).toEqual([
      'instanceTypes.0.vSphere.pciDeviceId [gpu-attachment]: a machine gets its GPUs by PCI passthrough (pciDeviceId) or as vGPUs (vgpuProfile), not both',
    ]);
  });

  it('names the bad field of the block and the VM CAPV cannot create', () => {
    expect(
      issuesOf([
        vm({
          vSphere: { diskGiB: 0, pciDeviceId: '0x1eb8', numCPUs: 8 },
        }),
      ]),
    ).toEqual(
      expect.arrayContaining([
        expect.stringMatching(/^instanceTypes\.0\.vSphere\.diskGiB \[min\]: /),
        expect.stringMatching(
          /^instanceTypes\.0\.vSphere\.pciDeviceId \[format\]: must be the GPU's PCI device id/,
        ),
        'instanceTypes.0.vSphere.numCPUs [unknown-key]: unknown key "numCPUs" is not allowed here',
      ]),
    );
    expect(issuesOf([vm({ vcpu: 1 })])).toEqual([
      'instanceTypes.0.vcpu [min]: a vSphere VM has at least 2 vCPUs (CAPV numCPUs)',
    ]);
  });
});

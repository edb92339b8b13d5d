import { GpuInputError } from '../errors';
import { fitMig } from '../mig/fit';
import { builtinCatalog } from './builtin';
import { findInstanceType, findModel, instanceTypesForModel } from './lookup';
import { catalogOverrideSchema, mergeCatalog } from './override';

/** Catches the GpuInputError a call throws, failing the test if none is thrown. */
function inputErrorOf(fn: () => unknown): GpuInputError {
  try {
    fn();
  } catch (error) {
    expect(error).toBeInstanceOf(GpuInputError);
    return error as GpuInputError;
  }
  throw new Error('expected a GpuInputError');
}

/**
 * CERN's OpenStack GPU flavors as listed in CERN's "Adding and managing GPUs on
 * Kubernetes" webinar (current list: https://clouddocs.web.cern.ch/gpu_overview.html):
 * name, GPU, count, RAM, vCPUs. Owned hardware,
 * so price 0 except where an internal chargeback rate is configured.
 */
const OPENSTACK_OVERRIDE = {
  models: [
    {
      // V100S is not built in: the organisation adds it.
      id: 'v100s',
      displayName: 'NVIDIA Tesla V100S 32GB',
      memoryMiB: 32768,
      architecture: 'volta',
      computeCapability: '7.0',
    },
  ],
  instanceTypes: [
    ['g1.xlarge', 'v100', 1, 16, 4],
    ['g1.4xlarge', 'v100', 4, 64, 16],
    ['g2.xlarge', 't4', 1, 16, 4],
    ['g2.5xlarge', 't4', 1, 168, 28],
    ['g3.xlarge', 'v100s', 1, 16, 4],
    ['g3.4xlarge', 'v100s', 4, 64, 16],
    ['g4.p1.40g', 'a100-40gb', 1, 120, 16],
    ['g4.p2.40g', 'a100-40gb', 2, 240, 32],
    ['g4.p4.40g', 'a100-40gb', 4, 480, 64],
  ].map(([name, gpuModel, gpusPerNode, ramGB, vcpu]) => ({
    name,
    family: String(name).split('.')[0],
    provider: 'static',
    gpuModel,
    gpusPerNode,
    vcpu,
    memoryMiB: Number(ramGB) * 1024,
    onDemandUsdPerHour: 0,
  })),
  // Internal chargeback rate for the A100 flavors.
  prices: { 'g4.p1.40g': 1.1, 'g4.p2.40g': 2.2, 'g4.p4.40g': 4.4 },
  allowedModels: ['v100', 'v100s', 't4', 'a100-40gb'],
};

describe('mergeCatalog', () => {
  it('returns an equal, independent copy for an empty override', () => {
    const merged = mergeCatalog(builtinCatalog, {});
    expect(merged).toEqual(builtinCatalog);
    merged.instanceTypes[0].onDemandUsdPerHour = 999;
    merged.models.find(m => m.mig)!.mig!.profiles[0].startSlots.push(99);
    expect(builtinCatalog.instanceTypes[0].onDemandUsdPerHour).not.toBe(999);
    expect(
      builtinCatalog.models.find(m => m.mig)!.mig!.profiles[0].startSlots,
    ).not.toContain(99);
  });

  it('expresses the CERN OpenStack flavor list as static instance types', () => {
    expect(catalogOverrideSchema.safeParse(OPENSTACK_OVERRIDE).success).toBe(
      true,
    );
    const merged = mergeCatalog(builtinCatalog, OPENSTACK_OVERRIDE);

    expect(merged.models.map(m => m.id).sort()).toEqual(
      ['a100-40gb', 't4', 'v100', 'v100s'].sort(),
    );
    // AWS shapes of allowed models stay; others go with their models.
    expect(findInstanceType(merged, 'p4d.24xlarge')).toBeDefined();
    expect(findInstanceType(merged, 'g5.xlarge')).toBeUndefined();

    const v100s = findModel(merged, 'v100s')!;
    expect(v100s.mpsMaxReplicas).toBe(16); // derived from compute capability 7.0
    expect(v100s.mig).toBeUndefined();

    const flavor = findInstanceType(merged, 'g4.p2.40g')!;
    expect(flavor).toEqual({
      name: 'g4.p2.40g',
      family: 'g4',
      provider: 'static',
      gpuModel: 'a100-40gb',
      gpusPerNode: 2,
      gpuMemoryMiB: 40960, // defaulted from the model
      vcpu: 32,
      memoryMiB: 240 * 1024,
      onDemandUsdPerHour: 2.2,
    });
    expect(findInstanceType(merged, 'g2.5xlarge')?.onDemandUsdPerHour).toBe(0);
    expect(instanceTypesForModel(merged, 'a100-40gb').map(t => t.name)).toEqual(
      [
        'p4d.24xlarge',
        'Standard_ND96asr_v4',
        'a2-highgpu-1g',
        'a2-highgpu-2g',
        'a2-highgpu-4g',
        'a2-highgpu-8g',
        'g4.p1.40g',
        'g4.p2.40g',
        'g4.p4.40g',
      ],
    );
    // The on-prem A100 keeps its MIG geometry: the seed's 3g.20gb + 2 x 2g.10gb fits.
    expect(
      fitMig(findModel(merged, flavor.gpuModel)!, {
        '3g.20gb': 1,
        '2g.10gb': 2,
      }).fits,
    ).toBe(true);
  });

  it('replaces a built-in model by id and an instance type by name', () => {
    const merged = mergeCatalog(builtinCatalog, {
      models: [
        {
          // NVML reports 15360 MiB for a T4 (GFD's label table, k8s-device-plugin
          // v0.20.0 `docs/gpu-feature-discovery/README.md`); an org may prefer it.
          id: 't4',
          displayName: 'NVIDIA Tesla T4 (NVML)',
          memoryMiB: 15360,
          architecture: 'turing',
          computeCapability: '7.5',
          mpsMaxReplicas: 8,
        },
      ],
      instanceTypes: [
        {
          name: 'g4dn.xlarge',
          family: 'g4dn',
          provider: 'aws',
          gpuModel: 't4',
          gpusPerNode: 1,
          vcpu: 4,
          memoryMiB: 16384,
          onDemandUsdPerHour: 0.3,
          karpenterGpuName: 't4',
        },
      ],
      prices: { 'g5.xlarge': 0.5 },
    });
    expect(merged.models).toHaveLength(builtinCatalog.models.length);
    expect(merged.instanceTypes).toHaveLength(
      builtinCatalog.instanceTypes.length,
    );
    expect(findModel(merged, 't4')).toMatchObject({
      memoryMiB: 15360,
      mpsMaxReplicas: 8,
    });
    expect(findInstanceType(merged, 'g4dn.xlarge')).toMatchObject({
      onDemandUsdPerHour: 0.3,
      gpuMemoryMiB: 15360,
      karpenterGpuName: 't4',
    });
    expect(findInstanceType(merged, 'g5.xlarge')?.onDemandUsdPerHour).toBe(0.5);
    expect(
      findInstanceType(builtinCatalog, 'g5.xlarge')?.onDemandUsdPerHour,
    ).toBe(1.006);
  });

  it('adds a MIG-capable model with its geometry', () => {
    const a100 = findModel(builtinCatalog, 'a100-40gb')!;
    const merged = mergeCatalog(builtinCatalog, {
      models: [{ ...a100, id: 'a800-40gb', displayName: 'NVIDIA A800 40GB' }],
    });
    const a800 = findModel(merged, 'a800-40gb')!;
    expect(a800.mig?.profiles).toEqual(a100.mig?.profiles);
    expect(fitMig(a800, { '3g.20gb': 2, '1g.5gb': 1 }).fits).toBe(false);
  });

  it.each([
    ['a misspelt key', { allowedModel: ['t4'] }, 'allowedModel', 'unknown-key'],
    [
      'a price for an unknown instance type',
      { prices: { 'g9.xlarge': 1 } },
      'prices.g9.xlarge',
      'unknown-instance-type',
    ],
    [
      'a negative price',
      { prices: { 'g5.xlarge': -1 } },
      'prices.g5.xlarge',
      'min',
    ],
    [
      'an unknown allowed model',
      { allowedModels: ['t4', 'k80'] },
      'allowedModels.1',
      'unknown-model',
    ],
    [
      'a flavor of an unknown model',
      {
        instanceTypes: [
          {
            ...OPENSTACK_OVERRIDE.instanceTypes[4],
          },
        ],
      },
      'instanceTypes.0.gpuModel',
      'unknown-model',
    ],
    [
      'a flavor of an unknown provider',
      {
        instanceTypes: [
          { ...OPENSTACK_OVERRIDE.instanceTypes[0], provider: 'oracle' },
        ],
      },
      'instanceTypes.0.provider',
      'enum',
    ],
    [
      'a flavor name that is no label value',
      {
        instanceTypes: [
          { ...OPENSTACK_OVERRIDE.instanceTypes[0], name: 'g1 xlarge' },
        ],
      },
      'instanceTypes.0.name',
      'format',
    ],
    [
      'a fractional GPU count',
      {
        instanceTypes: [
          { ...OPENSTACK_OVERRIDE.instanceTypes[0], gpusPerNode: 0.5 },
        ],
      },
      'instanceTypes.0.gpusPerNode',
      'integer',
    ],
    [
      'a duplicated flavor',
      {
        instanceTypes: [
          OPENSTACK_OVERRIDE.instanceTypes[0],
          OPENSTACK_OVERRIDE.instanceTypes[0],
        ],
      },
      'instanceTypes.1.name',
      'duplicate',
    ],
    [
      'a model id that is no DNS-1123 label',
      { models: [{ ...OPENSTACK_OVERRIDE.models[0], id: 'V100S' }] },
      'models.0.id',
      'format',
    ],
    [
      'an MPS limit above the device plugin’s',
      {
        models: [{ ...OPENSTACK_OVERRIDE.models[0], mpsMaxReplicas: 48 }],
      },
      'models.0.mpsMaxReplicas',
      'max',
    ],
  ])('rejects %s', (_label, override, path, rule) => {
    const error = inputErrorOf(() => mergeCatalog(builtinCatalog, override));
    expect(error.issues).toContainEqual(
      expect.objectContaining({ path, rule }),
    );
    expect(error.message).toContain(path);
  });

  it('rejects MIG geometry that breaks slice rules, naming each profile path', () => {
    const a100 = findModel(builtinCatalog, 'a100-40gb')!;
    const profiles = a100.mig!.profiles.map(p => ({ ...p }));
    profiles[3] = { ...profiles[3], startSlots: [0, 2, 4, 7] }; // 2g@7 runs past slice 7
    profiles[4] = { ...profiles[4], computeSlices: 4 }; // 3g.20gb with 4 compute slices
    profiles[0] = { ...profiles[0], name: '1g.5gb+foo' };
    const error = inputErrorOf(() =>
      mergeCatalog(builtinCatalog, {
        models: [{ ...a100, mig: { ...a100.mig, profiles } }],
      }),
    );
    expect(error.issues).toEqual(
      expect.arrayContaining([
        expect.objectContaining({
          path: 'models.0.mig.profiles.0.name',
          rule: 'mig-profile-name',
        }),
        expect.objectContaining({
          path: 'models.0.mig.profiles.3.startSlots.3',
          rule: 'mig-geometry',
        }),
        expect.objectContaining({
          path: 'models.0.mig.profiles.4.computeSlices',
          rule: 'mig-geometry',
        }),
      ]),
    );
  });
});

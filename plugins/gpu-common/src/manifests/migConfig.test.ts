import type { GpuCatalog } from '../catalog/types';
import { buildMigConfig, isMigProfileAmbiguous } from './migConfig';
import { exclusiveT4Plan, migA100Plan } from './__testUtils__/fixtures';

const profile = (name: string, maxCount: number) => ({
  name,
  memoryMiB: 1,
  computeSlices: 1,
  memorySlices: 1,
  startSlots: [0],
  maxCount,
});
const catalog: GpuCatalog = {
  instanceTypes: [],
  models: [
    {
      id: 'a100-40gb',
      displayName: 'A100 40GB',
      memoryMiB: 40960,
      architecture: 'ampere',
      computeCapability: '8.0',
      mpsMaxReplicas: 48,
      mig: {
        memorySlices: 8,
        computeSlices: 7,
        pciDeviceIds: ['0x20B010DE', '0x20B110DE'],
        profiles: [profile('1g.10gb', 4), profile('3g.20gb', 2)],
      },
    },
    {
      id: 'a100-80gb',
      displayName: 'A100 80GB',
      memoryMiB: 81920,
      architecture: 'ampere',
      computeCapability: '8.0',
      mpsMaxReplicas: 48,
      mig: {
        memorySlices: 8,
        computeSlices: 7,
        pciDeviceIds: ['0x20B210DE'],
        profiles: [profile('1g.10gb', 7), profile('3g.40gb', 2)],
      },
    },
  ],
};

describe('buildMigConfig', () => {
  it('puts every GPU in MIG mode with the planned layout', () => {
    expect(buildMigConfig(migA100Plan, catalog)).toEqual({
      name: 'all-3g.20gb',
      entries: [
        {
          devices: 'all',
          'mig-enabled': true,
          'mig-devices': { '3g.20gb': 2 },
        },
      ],
    });
  });

  it('filters by PCI id when the profile name exists on another GPU', () => {
    const plan = {
      ...migA100Plan,
      sharing: {
        ...migA100Plan.sharing,
        migProfile: '1g.10gb',
        migLayout: { '1g.10gb': 4 },
        migConfigName: 'all-1g.10gb',
      },
    };
    expect(isMigProfileAmbiguous(catalog, 'a100-40gb', ['1g.10gb'])).toBe(true);
    expect(buildMigConfig(plan, catalog)?.entries).toEqual([
      {
        'device-filter': ['0x20B010DE', '0x20B110DE'],
        devices: 'all',
        'mig-enabled': true,
        'mig-devices': { '1g.10gb': 4 },
      },
    ]);
    // Without a catalog nothing is known about other GPUs.
    expect(buildMigConfig(plan)?.entries[0]['device-filter']).toBeUndefined();
  });

  it('uses entries the planner already rendered', () => {
    const entries = [
      {
        devices: 'all' as const,
        'mig-enabled': true,
        'mig-devices': { '3g.20gb': 1 },
      },
    ];
    const plan = {
      ...migA100Plan,
      sharing: { ...migA100Plan.sharing, migConfigEntries: entries },
    };
    expect(buildMigConfig(plan, catalog)).toEqual({
      name: 'all-3g.20gb',
      entries,
    });
  });

  it('returns nothing for other modes and refuses an incomplete MIG plan', () => {
    expect(buildMigConfig(exclusiveT4Plan)).toBeUndefined();
    expect(() =>
      buildMigConfig({ ...migA100Plan, sharing: { mode: 'mig' } }),
    ).toThrow(/migConfigName/);
  });
});

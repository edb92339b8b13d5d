import { packMigInstances } from '../../mig/pack';
import {
  claimsMediaEngines,
  parseMigProfileName,
} from '../../mig/profileName';
import type { GpuModel, MigProfile } from '../types';
import { GPU_MODELS } from './gpuModels';

/** Marketing size of the whole GPU in GB, for the `<GB>gb` in profile names. */
const MARKETING_GB: Record<string, number> = {
  a30: 24,
  'a100-40gb': 40,
  'a100-80gb': 80,
  'h100-80gb': 80,
  'h100-nvl': 94,
  h200: 141,
  b200: 180,
};

/**
 * NVIDIA MIG User Guide "Supported MIG Profiles", per catalog id
 * (https://docs.nvidia.com/datacenter/tesla/mig-user-guide/supported-mig-profiles.html).
 */
const NVIDIA_PROFILE_NAMES: Record<string, string[]> = {
  a30: ['1g.6gb', '1g.6gb+me', '2g.12gb', '2g.12gb+me', '4g.24gb'],
  'a100-40gb': [
    '1g.5gb',
    '1g.5gb+me',
    '1g.10gb',
    '2g.10gb',
    '3g.20gb',
    '4g.20gb',
    '7g.40gb',
  ],
  'a100-80gb': [
    '1g.10gb',
    '1g.10gb+me',
    '1g.20gb',
    '2g.20gb',
    '3g.40gb',
    '4g.40gb',
    '7g.80gb',
  ],
  'h100-80gb': [
    '1g.10gb',
    '1g.10gb+me',
    '1g.20gb',
    '2g.20gb',
    '3g.40gb',
    '4g.40gb',
    '7g.80gb',
  ],
  'h100-nvl': [
    '1g.12gb',
    '1g.12gb+me',
    '1g.24gb',
    '2g.24gb',
    '3g.47gb',
    '4g.47gb',
    '7g.94gb',
  ],
  h200: [
    '1g.18gb',
    '1g.18gb+me',
    '1g.35gb',
    '2g.35gb',
    '3g.71gb',
    '4g.71gb',
    '7g.141gb',
  ],
  b200: [
    '1g.23gb',
    '1g.23gb+me',
    '1g.45gb',
    '2g.45gb',
    '3g.90gb',
    '4g.90gb',
    '7g.180gb',
  ],
};

/**
 * Instances of one profile an empty GPU can really hold, from geometry alone:
 * the packing must succeed, the compute slices must suffice, and NVIDIA allows
 * one media-engine instance. Independent of the stored `maxCount`.
 */
function placeableAlone(model: GpuModel, profile: MigProfile): number {
  const geometry = model.mig!;
  let n = 0;
  while (
    (n + 1) * profile.computeSlices <= geometry.computeSlices &&
    packMigInstances(geometry.memorySlices, new Array(n + 1).fill(profile))
      .packed
  ) {
    n++;
  }
  return claimsMediaEngines(profile.name) ? Math.min(n, 1) : n;
}

const migModels = GPU_MODELS.filter(m => m.mig);
const profileCases = migModels.flatMap(model =>
  model.mig!.profiles.map(
    profile => [model.id, profile.name, model, profile] as const,
  ),
);

describe('built-in MIG geometry', () => {
  it.each(migModels.map(m => [m.id, m] as const))(
    '%s: GPU-level geometry',
    (id, model) => {
      const geometry = model.mig!;
      // 8 memory / 7 compute slices (A100-class) or 4 / 4 (A30-class).
      expect([
        [8, 7],
        [4, 4],
      ]).toContainEqual([geometry.memorySlices, geometry.computeSlices]);
      expect(geometry.pciDeviceIds.length).toBeGreaterThan(0);
      for (const pci of geometry.pciDeviceIds) {
        expect(pci).toMatch(/^0x[0-9A-F]{4}10DE$/);
      }
      expect(geometry.profiles.map(p => p.name)).toEqual(
        NVIDIA_PROFILE_NAMES[id],
      );
      // One profile takes the whole GPU.
      const whole = geometry.profiles.filter(
        p =>
          p.memorySlices === geometry.memorySlices &&
          p.computeSlices === geometry.computeSlices,
      );
      expect(whole).toHaveLength(1);
      expect(whole[0].memoryMiB).toBeLessThanOrEqual(model.memoryMiB);
    },
  );

  it('gives every A100-80GB / H100-80GB GPU of mig-parted group its ids on both models', () => {
    const a100 = migModels.find(m => m.id === 'a100-80gb')!.mig!;
    const h100 = migModels.find(m => m.id === 'h100-80gb')!.mig!;
    expect(a100.pciDeviceIds).toEqual(h100.pciDeviceIds);
    expect(a100.pciDeviceIds).toContain('0x20B210DE');
    expect(h100.pciDeviceIds).toContain('0x233010DE');
  });

  it.each(profileCases)('%s %s', (id, name, model, profile) => {
    const geometry = model.mig!;
    const parsed = parseMigProfileName(name);
    expect(parsed).toBeDefined();
    // `<g>g` is the compute-slice count.
    expect(parsed!.gpuInstanceSlices).toBe(profile.computeSlices);
    expect(profile.computeSlices).toBeLessThanOrEqual(geometry.computeSlices);
    // `<gb>gb` is the GPU's marketing size times the memory-slice share (NVIDIA rounds).
    const expectedGB =
      (MARKETING_GB[id] * profile.memorySlices) / geometry.memorySlices;
    expect(Math.abs(parsed!.memoryGB - expectedGB)).toBeLessThanOrEqual(1);
    // Real memory is below the name, but not absurdly so, and below the GPU's.
    expect(Number.isInteger(profile.memoryMiB)).toBe(true);
    expect(profile.memoryMiB).toBeLessThanOrEqual(parsed!.memoryGB * 1024);
    expect(profile.memoryMiB).toBeGreaterThanOrEqual(
      0.85 * parsed!.memoryGB * 1024,
    );
    expect(profile.memoryMiB).toBeLessThanOrEqual(model.memoryMiB);
    // Memory slices divide the GPU; starts are aligned and inside it.
    expect(geometry.memorySlices % profile.memorySlices).toBe(0);
    expect(profile.startSlots.length).toBeGreaterThan(0);
    expect([...profile.startSlots].sort((a, b) => a - b)).toEqual(
      profile.startSlots,
    );
    for (const start of profile.startSlots) {
      expect(start).toBeGreaterThanOrEqual(0);
      expect(start % profile.memorySlices).toBe(0);
      expect(start + profile.memorySlices).toBeLessThanOrEqual(
        geometry.memorySlices,
      );
    }
    // NVIDIA's max count is exactly what the geometry can place alone.
    expect(profile.maxCount).toBe(placeableAlone(model, profile));
    // Profiles over the same memory slices offer the same memory; more slices, more memory.
    const sameSlices = geometry.profiles.filter(
      o => o.memorySlices === profile.memorySlices,
    );
    expect(new Set(sameSlices.map(o => o.memoryMiB))).toEqual(
      new Set([profile.memoryMiB]),
    );
    const biggerButNotMore = geometry.profiles.filter(
      o =>
        o.memorySlices > profile.memorySlices &&
        o.memoryMiB <= profile.memoryMiB,
    );
    expect(biggerButNotMore).toEqual([]);
  });

  it('keeps the measured H100 NVL figures (mig-parted pull request #101)', () => {
    const nvl = migModels.find(m => m.id === 'h100-nvl')!.mig!;
    const memory = (name: string) =>
      nvl.profiles.find(p => p.name === name)!.memoryMiB;
    expect(memory('1g.12gb')).toBe(11008); // GFD nvidia.com/gpu.memory
    expect(memory('3g.47gb')).toBe(Math.floor(46.38 * 1024)); // nvidia-smi 46.38 GiB
  });
});

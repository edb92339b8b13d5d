import { GPU_MODELS } from './gpuModels';

/** Marketing memory size (GB as NVIDIA names the card), per catalog id. */
const MARKETING_GB: Record<string, number> = {
  t4: 16,
  a10g: 24,
  l4: 24,
  l40s: 48,
  v100: 16,
  'v100-32gb': 32,
  a30: 24,
  'a100-40gb': 40,
  'a100-80gb': 80,
  'h100-80gb': 80,
  'h100-nvl': 94,
  h200: 141,
  b200: 180,
};

/**
 * GFD's `nvidia.com/gpu.family` by compute capability (`getArchFamily` in
 * NVIDIA k8s-device-plugin v0.20.0 `internal/lm/resource.go`).
 */
function familyOf(computeCapability: string): string {
  const [major, minor] = computeCapability.split('.').map(Number);
  if (major === 7) return minor < 5 ? 'volta' : 'turing';
  if (major === 8) return minor === 9 ? 'ada-lovelace' : 'ampere';
  if (major === 9) return 'hopper';
  if (major === 10 || major === 12) return 'blackwell';
  return 'unknown';
}

describe('built-in GPU models', () => {
  it('has the models the planner and docs promise, each id once', () => {
    const ids = GPU_MODELS.map(m => m.id);
    expect(new Set(ids).size).toBe(ids.length);
    for (const id of Object.keys(MARKETING_GB)) expect(ids).toContain(id);
    expect(ids.sort()).toEqual(Object.keys(MARKETING_GB).sort());
  });

  it('offers MIG exactly on the MIG-capable data-centre GPUs', () => {
    expect(
      GPU_MODELS.filter(m => m.mig)
        .map(m => m.id)
        .sort(),
    ).toEqual(
      [
        'a30',
        'a100-40gb',
        'a100-80gb',
        'b200',
        'h100-80gb',
        'h100-nvl',
        'h200',
      ].sort(),
    );
  });

  it.each(GPU_MODELS.map(m => [m.id, m] as const))('%s', (id, model) => {
    expect(id).toMatch(/^[a-z0-9]([-a-z0-9]*[a-z0-9])?$/);
    expect(model.displayName).toMatch(/^NVIDIA /);
    // Usable memory is at most the marketing size and not far below it.
    const marketingMiB = MARKETING_GB[id] * 1024;
    expect(Number.isInteger(model.memoryMiB)).toBe(true);
    expect(model.memoryMiB).toBeLessThanOrEqual(marketingMiB);
    expect(model.memoryMiB).toBeGreaterThanOrEqual(0.9 * marketingMiB);
    // MPS limit of the device plugin: 48 from compute capability 7.5, else 16.
    expect(model.computeCapability).toMatch(/^\d+\.\d$/);
    const cc = Number(model.computeCapability);
    expect(model.mpsMaxReplicas).toBe(cc >= 7.5 ? 48 : 16);
    // The architecture is the family GFD derives from the compute capability.
    expect(model.architecture).toBe(familyOf(model.computeCapability));
    // MIG exists from Ampere on only.
    expect(model.mig === undefined || cc >= 8).toBe(true);
  });
});

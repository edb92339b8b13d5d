import { GPU_MODELS } from './gpuModels';
import { AWS_INSTANCE_TYPES } from './awsInstanceTypes';

const FAMILIES = [
  'g4dn',
  'g5',
  'g6',
  'g6e',
  'gr6',
  'p3',
  'p3dn',
  'p4d',
  'p4de',
  'p5',
  'p5e',
  'p5en',
  'p6-b200',
];

/** `karpenter.k8s.aws/instance-gpu-name` per catalog model (Karpenter v1.14 docs). */
const KARPENTER_GPU_NAME: Record<string, string> = {
  t4: 't4',
  a10g: 'a10g',
  l4: 'l4',
  l40s: 'l40s',
  v100: 'v100',
  'v100-32gb': 'v100',
  'a100-40gb': 'a100',
  'a100-80gb': 'a100',
  'h100-80gb': 'h100',
  h200: 'h200',
  b200: 'b200',
};

describe('built-in AWS instance types', () => {
  it('covers every family of the Karpenter table we support, each name once', () => {
    const names = AWS_INSTANCE_TYPES.map(t => t.name);
    expect(new Set(names).size).toBe(names.length);
    expect([...new Set(AWS_INSTANCE_TYPES.map(t => t.family))].sort()).toEqual(
      [...FAMILIES].sort(),
    );
    // 44 rows of the CSV belong to these families.
    expect(AWS_INSTANCE_TYPES).toHaveLength(44);
  });

  it.each(AWS_INSTANCE_TYPES.map(t => [t.name, t] as const))(
    '%s',
    (name, t) => {
      const model = GPU_MODELS.find(m => m.id === t.gpuModel);
      expect(model).toBeDefined();
      expect(t.provider).toBe('aws');
      expect(name.startsWith(`${t.family}.`)).toBe(true);
      expect(FAMILIES).toContain(t.family);
      // EC2's figure; the model's usable (NVML) figure is never above it.
      expect(t.gpuMemoryMiB).toBeGreaterThanOrEqual(model!.memoryMiB);
      expect(t.gpuMemoryMiB - model!.memoryMiB).toBeLessThanOrEqual(1024);
      expect(t.karpenterGpuName).toBe(KARPENTER_GPU_NAME[t.gpuModel]);
      expect([1, 4, 8]).toContain(t.gpusPerNode);
      expect(Number.isInteger(t.vcpu) && t.vcpu >= 4).toBe(true);
      // EC2 memory is whole GiB; at least 2 GiB per vCPU on these shapes.
      expect(t.memoryMiB % 1024).toBe(0);
      expect(t.memoryMiB / 1024).toBeGreaterThanOrEqual(2 * t.vcpu);
      // Every price is known except p5e (capacity blocks only, not in Karpenter's table).
      expect(t.onDemandUsdPerHour).toBeGreaterThanOrEqual(0);
      expect(t.onDemandUsdPerHour > 0).toBe(name !== 'p5e.48xlarge');
    },
  );

  it('prices a bigger size of a family higher at equal GPU count', () => {
    const priced = AWS_INSTANCE_TYPES.filter(t => t.onDemandUsdPerHour > 0);
    const pairs = priced.flatMap(a =>
      priced
        .filter(
          b =>
            b.family === a.family &&
            b.gpusPerNode === a.gpusPerNode &&
            a.vcpu < b.vcpu,
        )
        .map(b => [a, b] as const),
    );
    expect(pairs.length).toBeGreaterThan(20);
    const inverted = pairs
      .filter(([a, b]) => a.onDemandUsdPerHour >= b.onDemandUsdPerHour)
      .map(([a, b]) => `${a.name} >= ${b.name}`);
    expect(inverted).toEqual([]);
  });
});

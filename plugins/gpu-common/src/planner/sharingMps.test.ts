import { plan } from './plan';
import {
  awsCluster,
  cluster,
  fixtureCatalog,
  gpuRequest,
} from './__testUtils__/fixtures';
import { inputIssues } from './__testUtils__/expectError';

/** MPS needs a plugin MIG strategy other than "mixed" (see the last test). */
const singleStrategy = cluster({ migStrategy: 'single' });
const mps = (gpu: Parameters<typeof gpuRequest>[0], c = singleStrategy) =>
  plan(gpuRequest({ sharing: 'mps', ...gpu }), fixtureCatalog, c);

describe('plan: MPS', () => {
  it('fits clients by memory and pins each one to a guaranteed share', () => {
    const p = mps({ vramGiB: 4, replicas: 6 });
    expect(p.sharing).toEqual(
      expect.objectContaining({
        mode: 'mps',
        slicesPerGpu: 4,
        mpsPinnedMemoryMiB: 4096,
      }),
    );
    expect(p.sharing.deviceConfigName).toMatch(/^mps-4-[0-9a-f]{8}$/);
    expect(p.sharing.devicePluginConfig).toEqual({
      version: 'v1',
      flags: { migStrategy: 'none', mpsRoot: '/run/nvidia/mps' },
      sharing: {
        mps: {
          renameByDefault: true,
          failRequestsGreaterThanOne: true,
          resources: [{ name: 'nvidia.com/gpu', replicas: 4 }],
        },
      },
    });
    expect(p.resourceName).toBe('nvidia.com/gpu.shared');
    expect(p.pool.name).toBe('gpu-t4-mps4');
    expect(p.pool.labels['nvidia.com/device-plugin.config']).toBe(
      p.sharing.deviceConfigName,
    );
    expect(p.perReplica).toEqual({
      vramGiB: 4,
      vramGuaranteed: true,
      memoryMiB: 4096,
      gpuShare: 0.25,
    });
    expect(p.physicalGpus).toBe(1.5);
  });

  it('warns about GFD and per-process limits', () => {
    const p = mps({ vramGiB: 4 });
    expect(
      p.warnings.some(
        w => /GPU Feature Discovery/.test(w) && /mps\.capable=true/.test(w),
      ),
    ).toBe(true);
    expect(p.warnings.some(w => /per CUDA process/.test(w))).toBe(true);
  });

  it('refuses MPS on a cluster whose plugin runs the mixed MIG strategy', () => {
    expect(awsCluster.migStrategy).toBe('mixed');
    expect(inputIssues(() => mps({ vramGiB: 4 }, awsCluster))).toEqual([
      expect.objectContaining({
        path: 'spec.gpu.sharing',
        rule: 'mps-mig-strategy',
      }),
    ]);
  });

  it('clamps clients to the model limit (16 below compute capability 7.5)', () => {
    expect(mps({ model: 'v100', vramGiB: 0.5 }).sharing.slicesPerGpu).toBe(16);
    expect(mps({ model: 't4', vramGiB: 0.25 }).sharing.slicesPerGpu).toBe(48);
  });

  it('keeps the pinned limit at or above a fractional request', () => {
    const p = mps({ vramGiB: 0.3 });
    expect(p.sharing.mpsPinnedMemoryMiB! >= 0.3 * 1024).toBe(true);
    expect(p.sharing.mpsPinnedMemoryMiB).toBe(
      Math.floor(16384 / p.sharing.slicesPerGpu!),
    );
  });

  it('rejects a request where fewer than 2 clients fit, suggesting exclusive', () => {
    const issues = inputIssues(() => mps({ vramGiB: 10 }));
    expect(issues).toEqual([
      expect.objectContaining({
        path: 'spec.gpu.vramGiB',
        rule: 'mps-needs-two-clients',
      }),
    ]);
    expect(issues[0].message).toContain('exclusive');
  });
});

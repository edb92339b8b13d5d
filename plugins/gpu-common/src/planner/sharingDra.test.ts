import { plan } from './plan';
import { awsCluster, fixtureCatalog, gpuRequest } from './__testUtils__/fixtures';
import { inputIssues } from './__testUtils__/expectError';

describe('plan: DRA', () => {
  it('claims whole GPUs through DeviceClass gpu.nvidia.com on a static pool', () => {
    const p = plan(
      gpuRequest({ sharing: 'dra', replicas: 3, vramGiB: 8 }),
      fixtureCatalog,
      awsCluster,
    );
    expect(p.sharing).toEqual({ mode: 'dra' });
    expect(p.resourceName).toBe('gpu.nvidia.com');
    expect(p.resourcePerReplica).toBe(1);
    expect(p.pool.name).toBe('gpu-t4-dra');
    expect(p.perReplica.vramGuaranteed).toBe(true);
    expect(p.nodes.expected).toBe(3);
    // static NodePools only accept limits.nodes
    expect(p.pool.limits).toEqual({ nodes: 3 });
    expect(p.pool.labels['nvidia.com/gpu.deploy.device-plugin']).toBe('false');
    expect(
      p.warnings.some(
        w => /does not provision/.test(w) && /static pool/.test(w),
      ),
    ).toBe(true);
  });

  it('rejects VRAM larger than one GPU', () => {
    expect(
      inputIssues(() =>
        plan(
          gpuRequest({ sharing: 'dra', vramGiB: 17 }),
          fixtureCatalog,
          awsCluster,
        ),
      ),
    ).toEqual([
      expect.objectContaining({
        path: 'spec.gpu.vramGiB',
        rule: 'vram-exceeds-gpu',
      }),
    ]);
  });
});

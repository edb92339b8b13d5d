import { plan } from './plan';
import { awsCluster, fixtureCatalog, gpuRequest } from './__testUtils__/fixtures';
import { inputIssues } from './__testUtils__/expectError';

describe('plan: exclusive', () => {
  it('gives whole GPUs, guaranteed VRAM and the plain nvidia.com/gpu resource', () => {
    const p = plan(
      gpuRequest({ replicas: 3, vramGiB: 10 }),
      fixtureCatalog,
      awsCluster,
    );
    expect(p.resourceName).toBe('nvidia.com/gpu');
    expect(p.resourcePerReplica).toBe(1);
    expect(p.sharing).toEqual({ mode: 'exclusive' });
    expect(p.perReplica).toEqual({
      vramGiB: 10,
      vramGuaranteed: true,
      memoryMiB: 16384,
      gpuShare: 1,
    });
    expect(p.pool.name).toBe('gpu-t4');
    expect(p.pool.labels).toEqual({
      'gpu.backstage.io/pool': 'gpu-t4',
      'gpu.backstage.io/gpu-model': 't4',
      'gpu.backstage.io/sharing': 'exclusive',
    });
    expect(p.pool.taint).toEqual({
      key: 'nvidia.com/gpu',
      value: 'gpu-t4',
      effect: 'NoSchedule',
    });
    expect(p.physicalGpus).toBe(3);
    expect(p.warnings).toEqual([]);
  });

  it('sorts instance types by USD per GPU and prices the pool on its cheapest nodes within the limit', () => {
    // per GPU: t4-x4 1.8/4 = 0.45, t4-x1 0.5, t4-fat 1.0
    const three = plan(gpuRequest({ replicas: 3 }), fixtureCatalog, awsCluster);
    expect(three.pool.instanceTypes).toEqual(['t4-x4', 't4-x1', 't4-fat']);
    expect(three.pool.gpuCounts).toEqual([1, 4]);
    expect(three.pool.karpenterGpuNames).toEqual(['t4']);
    // 3 x t4-x1 = $1.5/h beats 1 x t4-x4 = $1.8/h
    expect(three.nodes).toEqual({
      expected: 3,
      slicesPerNode: 1,
      instanceType: 't4-x1',
    });
    expect(three.cost).toMatchObject({
      usdPerHour: 1.5,
      usdPerMonth: 1095,
      marginalUsdPerMonth: 1095,
    });
    expect(three.pool.limits).toEqual({ 'nvidia.com/gpu': 3 });

    // 4 replicas: 1 x t4-x4 = $1.8/h beats 4 x t4-x1 = $2/h
    const four = plan(gpuRequest({ replicas: 4 }), fixtureCatalog, awsCluster);
    expect(four.nodes).toEqual({
      expected: 1,
      slicesPerNode: 4,
      instanceType: 't4-x4',
    });
    expect(four.cost).toMatchObject({
      usdPerHour: 1.8,
      usdPerMonth: 1314,
      marginalUsdPerMonth: 1314,
    });
    expect(four.pool.limits).toEqual({ 'nvidia.com/gpu': 4 });
  });

  it('spans several GPUs per replica only on nodes that have them', () => {
    const p = plan(
      gpuRequest({ replicas: 3, vramGiB: 20, gpusPerReplica: 2 }),
      fixtureCatalog,
      awsCluster,
    );
    expect(p.resourcePerReplica).toBe(2);
    expect(p.pool.instanceTypes).toEqual(['t4-x4']);
    expect(p.nodes).toEqual({
      expected: 2,
      slicesPerNode: 4,
      instanceType: 't4-x4',
    });
    expect(p.pool.limits).toEqual({ 'nvidia.com/gpu': 8 });
    expect(p.physicalGpus).toBe(6);
    expect(p.perReplica.memoryMiB).toBe(2 * 16384);
    expect(p.perReplica.gpuShare).toBe(2);
  });

  it('rejects VRAM larger than the GPUs of one replica', () => {
    expect(
      inputIssues(() =>
        plan(gpuRequest({ vramGiB: 20 }), fixtureCatalog, awsCluster),
      ),
    ).toEqual([
      expect.objectContaining({
        path: 'spec.gpu.vramGiB',
        rule: 'vram-exceeds-gpu',
      }),
    ]);
  });

  it('rejects more GPUs per replica than any node has', () => {
    expect(
      inputIssues(() =>
        plan(gpuRequest({ gpusPerReplica: 8 }), fixtureCatalog, awsCluster),
      ),
    ).toEqual([
      expect.objectContaining({
        path: 'spec.gpu.gpusPerReplica',
        rule: 'exceeds-gpus-per-node',
      }),
    ]);
  });

  it('rejects VRAM beyond the largest GPU of the catalog', () => {
    expect(
      inputIssues(() =>
        plan(
          gpuRequest({ model: 'auto', vramGiB: 81 }),
          fixtureCatalog,
          awsCluster,
        ),
      ),
    ).toEqual([
      expect.objectContaining({
        path: 'spec.gpu.vramGiB',
        rule: 'exceeds-largest-gpu',
      }),
    ]);
  });

  it('rejects an unknown model', () => {
    expect(
      inputIssues(() =>
        plan(gpuRequest({ model: 'h900' }), fixtureCatalog, awsCluster),
      ),
    ).toEqual([
      expect.objectContaining({
        path: 'spec.gpu.model',
        rule: 'unknown-model',
      }),
    ]);
  });
});

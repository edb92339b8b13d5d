import { plan } from './plan';
import { OVERSUBSCRIBED_PREFIX } from './sharingTimeSlicing';
import { awsCluster, fixtureCatalog, gpuRequest } from './__testUtils__/fixtures';
import { inputIssues } from './__testUtils__/expectError';

const ts = (gpu: Parameters<typeof gpuRequest>[0]) =>
  plan(
    gpuRequest({ sharing: 'time-slicing', ...gpu }),
    fixtureCatalog,
    awsCluster,
  );

describe('plan: time-slicing', () => {
  it('derives slices from memory and advertises nvidia.com/gpu.shared', () => {
    const p = ts({ replicas: 10, vramGiB: 4 });
    expect(p.sharing.slicesPerGpu).toBe(4);
    expect(p.resourceName).toBe('nvidia.com/gpu.shared');
    expect(p.resourcePerReplica).toBe(1);
    expect(p.pool.name).toBe('gpu-t4-ts4');
    expect(p.sharing.deviceConfigName).toMatch(/^ts-4-[0-9a-f]{8}$/);
    expect(p.pool.labels['nvidia.com/device-plugin.config']).toBe(
      p.sharing.deviceConfigName,
    );
    expect(p.sharing.devicePluginConfig).toEqual({
      version: 'v1',
      flags: { migStrategy: 'none' },
      sharing: {
        timeSlicing: {
          renameByDefault: true,
          failRequestsGreaterThanOne: true,
          resources: [{ name: 'nvidia.com/gpu', replicas: 4 }],
        },
      },
    });
    expect(p.pool.taint).toEqual({
      key: 'nvidia.com/gpu',
      value: 'gpu-t4-ts4',
      effect: 'NoSchedule',
    });
    expect(p.perReplica).toEqual({
      vramGiB: 4,
      vramGuaranteed: false,
      memoryMiB: 4096,
      gpuShare: 0.25,
    });
    // t4-x1: 4 slices/node -> 3 nodes $1.5/h; t4-x4: 16 slices -> 1 node $1.8/h
    expect(p.nodes).toEqual({
      expected: 3,
      slicesPerNode: 4,
      instanceType: 't4-x1',
    });
    expect(p.pool.limits).toEqual({ 'nvidia.com/gpu': 3 });
    expect(p.physicalGpus).toBe(2.5);
  });

  it('always warns that VRAM is not isolated, and not about oversubscription when it fits', () => {
    const p = ts({ vramGiB: 4 });
    expect(p.warnings.some(w => /does not isolate GPU memory/.test(w))).toBe(
      true,
    );
    expect(p.warnings.some(w => w.startsWith(OVERSUBSCRIBED_PREFIX))).toBe(
      false,
    );
  });

  it('honours slicesPerGpu and warns loudly when it oversubscribes memory', () => {
    const p = ts({ vramGiB: 4, slicesPerGpu: 8 });
    expect(p.sharing.slicesPerGpu).toBe(8);
    expect(p.pool.name).toBe('gpu-t4-ts8');
    expect(
      p.warnings.filter(w => w.startsWith(OVERSUBSCRIBED_PREFIX)),
    ).toHaveLength(1);
  });

  it('never plans slices below the ask: refuses with the alternatives when 2 slices are too small', () => {
    const [issue] = inputIssues(() => ts({ vramGiB: 10 }));
    expect(issue).toEqual(
      expect.objectContaining({
        path: 'spec.gpu.vramGiB',
        rule: 'slice-below-request',
      }),
    );
    expect(issue.message).toContain(
      '10.0 GiB per replica does not fit a time slice of a t4: the fewest slices (2 per GPU) leave 8.0 GiB each',
    );
    expect(issue.message).toContain(
      'sharing "exclusive" (a whole t4: 16.0 GiB)',
    );
    expect(issue.message).toContain(
      'a larger model for time-slicing: a100-80gb',
    );
  });

  it('takes one slice fewer when integer MiB would leave a slice below a fractional ask', () => {
    // 16384 / 3 = 5461 MiB < 5.334 GiB (5462.0 MiB): 2 slices, not 3.
    const p = ts({ vramGiB: 5.334 });
    expect(p.sharing.slicesPerGpu).toBe(2);
    expect(p.perReplica.memoryMiB).toBeGreaterThanOrEqual(5.334 * 1024);
  });

  it('caps derived slices for tiny requests', () => {
    expect(ts({ vramGiB: 0.25 }).sharing.slicesPerGpu).toBe(32);
  });

  it('derives a different config name for different content, the same for the same', () => {
    const a = ts({ vramGiB: 4 }).sharing.deviceConfigName;
    expect(ts({ vramGiB: 4, replicas: 7 }).sharing.deviceConfigName).toBe(a);
    expect(
      ts({ vramGiB: 4, slicesPerGpu: 5 }).sharing.deviceConfigName,
    ).not.toBe(a);
  });

  it('rejects VRAM larger than one GPU', () => {
    expect(inputIssues(() => ts({ vramGiB: 17 }))).toEqual([
      expect.objectContaining({
        path: 'spec.gpu.vramGiB',
        rule: 'vram-exceeds-gpu',
      }),
    ]);
  });
});

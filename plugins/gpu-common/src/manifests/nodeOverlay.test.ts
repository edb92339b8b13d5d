import {
  buildNodeOverlays,
  nodeOverlayName,
  sharedCapacityPerGpu,
} from './nodeOverlay';
import {
  awsCluster,
  draL4Plan,
  exclusiveT4Plan,
  migA100Plan,
  mpsL4Plan,
  plainCluster,
  timeSlicingT4Plan,
} from './__testUtils__/fixtures';
import { validateAgainstSchema } from './__testUtils__/kubernetesSchemas';

describe('buildNodeOverlays', () => {
  it('writes one overlay per GPU count with slices x GPUs (time-slicing)', () => {
    const overlays = buildNodeOverlays(timeSlicingT4Plan, awsCluster) as any[];
    expect(overlays.map(o => o.metadata.name)).toEqual([
      'gpu-t4-ts4-1gpu',
      'gpu-t4-ts4-4gpu',
    ]);
    for (const overlay of overlays)
      expect(() => validateAgainstSchema(overlay)).not.toThrow();
    expect(overlays[0].apiVersion).toBe('karpenter.sh/v1alpha1');
    expect(overlays[0].spec.requirements).toEqual([
      { key: 'karpenter.sh/nodepool', operator: 'In', values: ['gpu-t4-ts4'] },
      {
        key: 'karpenter.k8s.aws/instance-gpu-count',
        operator: 'In',
        values: ['1'],
      },
    ]);
    expect(overlays[0].spec.capacity).toEqual({ 'nvidia.com/gpu.shared': '4' });
    expect(overlays[1].spec.capacity).toEqual({
      'nvidia.com/gpu.shared': '16',
    });
  });

  it('counts MPS clients per GPU', () => {
    const overlays = buildNodeOverlays(mpsL4Plan, awsCluster) as any[];
    expect(overlays.map(o => o.spec.capacity)).toEqual([
      { 'nvidia.com/gpu.shared': '4' },
      { 'nvidia.com/gpu.shared': '16' },
    ]);
  });

  it('counts MIG instances per GPU x GPUs for mixed-strategy resources', () => {
    const overlays = buildNodeOverlays(migA100Plan, awsCluster) as any[];
    expect(overlays).toHaveLength(1);
    expect(overlays[0].metadata.name).toBe('gpu-a100-40gb-mig-3g.20gb-8gpu');
    expect(overlays[0].spec.capacity).toEqual({
      'nvidia.com/mig-3g.20gb': '16',
    });
    expect(() => validateAgainstSchema(overlays[0])).not.toThrow();
  });

  it('lists every profile of a mixed layout under its own resource name', () => {
    const plan = {
      ...migA100Plan,
      sharing: {
        ...migA100Plan.sharing,
        migLayout: { '3g.20gb': 1, '2g.10gb': 1, '1g.5gb+me': 1 },
      },
    };
    expect(sharedCapacityPerGpu(plan)).toEqual({
      'nvidia.com/mig-3g.20gb': 1,
      'nvidia.com/mig-2g.10gb': 1,
      'nvidia.com/mig-1g.5gb.me': 1,
    });
  });

  it('overrides nvidia.com/gpu with the MIG instance count under the single strategy', () => {
    const overlays = buildNodeOverlays(
      { ...migA100Plan, resourceName: 'nvidia.com/gpu' },
      awsCluster,
    ) as any[];
    const perGpu = Object.values(migA100Plan.sharing.migLayout!)[0];
    expect(overlays.length).toBe(migA100Plan.pool.gpuCounts.length);
    for (const [i, n] of migA100Plan.pool.gpuCounts.entries()) {
      expect(overlays[i].spec.capacity).toEqual({
        'nvidia.com/gpu': String(perGpu * n),
      });
    }
  });

  it('writes none for exclusive, DRA, or clusters without NodeOverlay', () => {
    expect(buildNodeOverlays(exclusiveT4Plan, awsCluster)).toEqual([]);
    expect(buildNodeOverlays(draL4Plan, awsCluster)).toEqual([]);
    expect(buildNodeOverlays(timeSlicingT4Plan, plainCluster)).toEqual([]);
    expect(
      buildNodeOverlays(timeSlicingT4Plan, {
        ...awsCluster,
        provider: 'static',
      }),
    ).toEqual([]);
  });

  it('uses the Azure GPU-count label on Azure', () => {
    const [overlay] = buildNodeOverlays(timeSlicingT4Plan, {
      ...awsCluster,
      provider: 'azure-karpenter',
    }) as any[];
    expect(overlay.spec.requirements[1].key).toBe(
      'karpenter.azure.com/sku-gpu-count',
    );
  });

  it('names overlays <pool>-<n>gpu', () => {
    expect(nodeOverlayName('gpu-l4-mps4', 8)).toBe('gpu-l4-mps4-8gpu');
  });

  it('the schema really rejects a broken NodeOverlay', () => {
    const [overlay] = buildNodeOverlays(timeSlicingT4Plan, awsCluster) as any[];
    expect(() =>
      validateAgainstSchema({
        ...overlay,
        spec: { capacity: overlay.spec.capacity },
      }),
    ).toThrow(/requirements/);
  });
});

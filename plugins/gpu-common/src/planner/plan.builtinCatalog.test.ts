import { builtinCatalog } from '../catalog/builtin';
import { resolveClusterProfile } from '../cluster/schema';
import { isDns1123Subdomain } from '../request/formats';
import { parseGpuRequest } from '../request/schema';
import { plan } from './plan';

const cluster = resolveClusterProfile();
/** MPS needs a device-plugin MIG strategy other than "mixed" (sharingMps.test.ts). */
const mpsCluster = resolveClusterProfile({ migStrategy: 'single' });
const clusterFor = (sharing: string) =>
  sharing === 'mps' ? mpsCluster : cluster;

function request(gpu: Record<string, unknown>) {
  return parseGpuRequest({
    kind: 'GpuRequest',
    metadata: { name: 'svc', namespace: 'team-a' },
    spec: {
      owner: 'group:default/team-a',
      gpu,
      workload: { image: 'ghcr.io/acme/svc:1' },
    },
  });
}

/**
 * Karpenter's label value rule (the `pattern` of label values in
 * aws/karpenter-provider-aws v1.14.1 `pkg/apis/crds/karpenter.sh_nodepools.yaml`).
 */
const LABEL_VALUE = /^(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?$/;

describe('plan against the built-in catalog', () => {
  it('time-slices a T4 on g4dn', () => {
    const p = plan(
      request({
        model: 't4',
        sharing: 'time-slicing',
        replicas: 6,
        vramGiB: 4,
      }),
      builtinCatalog,
      cluster,
    );
    // A T4 really offers 15360 MiB: floor(15 GiB / 4 GiB) = 3 slices per GPU.
    expect(p.sharing.slicesPerGpu).toBe(3);
    expect(p.pool.name).toBe('gpu-t4-ts3');
    expect(p.pool.instanceTypes.every(t => t.startsWith('g4dn.'))).toBe(true);
    expect(p.pool.karpenterGpuNames).toEqual(['t4']);
    expect(p.nodes.instanceType).toBe('g4dn.xlarge');
    expect(p.nodes.expected).toBe(2);
    expect(p.cost.usdPerHour).toBeCloseTo(2 * 0.526, 6);
  });

  it('partitions an A100-80GB with MIG on p4de', () => {
    const p = plan(
      request({ model: 'a100-80gb', sharing: 'mig', replicas: 10, vramGiB: 8 }),
      builtinCatalog,
      cluster,
    );
    expect(p.sharing.migProfile).toBe('1g.10gb');
    expect(p.sharing.migConfigName).toBe('all-1g.10gb');
    expect(p.resourceName).toBe('nvidia.com/mig-1g.10gb');
    expect(p.pool.name).toBe('gpu-a100-80gb-mig-1g.10gb');
    expect(p.nodes.slicesPerNode).toBe(56);
    expect(p.pool.limits).toEqual({ 'nvidia.com/gpu': 8 });
  });

  it.each(['exclusive', 'time-slicing', 'mps', 'mig', 'dra'])(
    'plans %s with model auto into valid names and labels',
    sharing => {
      const p = plan(
        request({ model: 'auto', sharing, replicas: 3, vramGiB: 6 }),
        builtinCatalog,
        clusterFor(sharing),
      );
      expect(isDns1123Subdomain(p.pool.name)).toBe(true);
      for (const [key, value] of Object.entries(p.pool.labels)) {
        expect(key.split('/')[0]).not.toMatch(
          /(karpenter\.sh|karpenter\.k8s\.aws|kubernetes\.io|k8s\.io)$/,
        );
        expect(value).toMatch(LABEL_VALUE);
        expect(value.length).toBeLessThanOrEqual(63);
      }
      expect(p.cost.usdPerMonth).toBeGreaterThan(0);
      expect(p.explanation[0]).toMatch(/^model auto:/);
    },
  );

  it('plans every model and mode it can, and fails only with field-named input errors', () => {
    const outcomes: string[] = [];
    for (const model of builtinCatalog.models) {
      for (const sharing of [
        'exclusive',
        'time-slicing',
        'mps',
        'mig',
        'dra',
      ]) {
        try {
          const p = plan(
            request({ model: model.id, sharing, replicas: 2, vramGiB: 4 }),
            builtinCatalog,
            clusterFor(sharing),
          );
          outcomes.push(
            p.pool.gpuModel === model.id && p.nodes.expected >= 1
              ? 'planned'
              : `bad plan ${model.id}/${sharing}`,
          );
        } catch (error: any) {
          outcomes.push(
            error.name === 'GpuInputError' &&
              /^spec\.gpu\./.test(error.issues[0].path)
              ? `rejected ${error.issues[0].rule}`
              : `crash ${model.id}/${sharing}: ${error.message}`,
          );
        }
      }
    }
    expect(outcomes.filter(o => !/^(planned|rejected )/.test(o))).toEqual([]);
    expect(outcomes.filter(o => o === 'planned').length).toBeGreaterThan(30);
    // at 4 GiB the only impossible combinations are MIG on GPUs without
    // MIG and models no AWS machine carries
    expect(
      [...new Set(outcomes.filter(o => o.startsWith('rejected')))].sort(),
    ).toEqual(['rejected mig-unsupported', 'rejected no-instance-type']);
  });
});

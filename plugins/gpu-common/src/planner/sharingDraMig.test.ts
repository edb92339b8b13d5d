import { buildManifests } from '../manifests/buildManifests';
import { validateAgainstSchema } from '../manifests/__testUtils__/kubernetesSchemas';
import { plan } from './plan';
import { cluster, fixtureCatalog, gpuRequest } from './__testUtils__/fixtures';

const dra = {
  karpenterVersion: '1.15.1',
  kubernetesVersion: '1.36.2',
  migStrategy: 'single',
};
const withStaticMig = cluster({
  ...dra,
  dra: { karpenterNvidiaGate: true, staticMig: true },
});
const request = (sharing: 'dra' | 'mig') =>
  gpuRequest({ model: 'a100-80gb', sharing, replicas: 3, vramGiB: 9 });

describe('plan: DRA of static MIG instances (dra.staticMig)', () => {
  const draMig = plan(request('dra'), fixtureCatalog, withStaticMig);
  const mig = plan(request('mig'), fixtureCatalog, withStaticMig);

  it('claims one MIG instance through DeviceClass mig.nvidia.com, with the MIG plan layout', () => {
    expect(draMig.sharing).toEqual({ ...mig.sharing, mode: 'dra' });
    expect(draMig.sharing.migProfile).toBe('1g.10gb');
    expect(draMig.resourceName).toBe('mig.nvidia.com');
    expect(draMig.pool.name).toBe('gpu-a100-80gb-dra-mig-1g.10gb');
    // mig-parted partitions the pool's GPUs; the device plugin stays off them.
    expect(draMig.pool.labels).toMatchObject({
      'nvidia.com/mig.config': mig.sharing.migConfigName,
      'nvidia.com/gpu.deploy.device-plugin': 'false',
    });
    expect(draMig.perReplica).toEqual(mig.perReplica);
  });

  it('costs and counts as the MIG plan, on a static pool', () => {
    expect(draMig.nodes).toEqual(mig.nodes);
    expect(draMig.cost.usdPerMonth).toBe(mig.cost.usdPerMonth);
    expect(draMig.pool.limits).toEqual({ nodes: draMig.nodes.expected });
    expect(draMig.warnings.join('\n')).toMatch(
      /cannot launch a node for a MIG instance/,
    );
  });

  it('renders a claim template valid against resource.k8s.io/v1 selecting the profile, and the mig-parted config', () => {
    const set = buildManifests(draMig, withStaticMig, {
      catalog: fixtureCatalog,
    });
    const template = set.workload.objects.find(
      o => o.kind === 'ResourceClaimTemplate',
    ) as any;
    expect(() => validateAgainstSchema(template)).not.toThrow();
    const [claim] = template.spec.spec.devices.requests;
    expect(claim.exactly.deviceClassName).toBe('mig.nvidia.com');
    expect(claim.exactly.selectors.map((s: any) => s.cel.expression)).toContain(
      "device.attributes['gpu.nvidia.com'].profile == '1g.10gb'",
    );
    expect(claim.exactly.capacity).toBeUndefined();
    expect(set.migConfig).toEqual(
      buildManifests(mig, withStaticMig, { catalog: fixtureCatalog }).migConfig,
    );
    const nodePool = set.pool.objects.find(o => o.kind === 'NodePool') as any;
    expect(nodePool.spec.replicas).toBe(draMig.nodes.expected);
  });

  it('without dra.staticMig a dra request still claims a whole GPU', () => {
    const whole = plan(
      request('dra'),
      fixtureCatalog,
      cluster({ ...dra, dra: { karpenterNvidiaGate: true } }),
    );
    expect(whole.sharing).toEqual({ mode: 'dra' });
    expect(whole.resourceName).toBe('gpu.nvidia.com');
  });

  it('a profile refuses staticMig beside consumableShares, naming both', () => {
    expect(() =>
      cluster({
        ...dra,
        dra: {
          karpenterNvidiaGate: true,
          staticMig: true,
          consumableShares: 4,
        },
      }),
    ).toThrow(/staticMig cannot go with consumableShares/);
  });
});

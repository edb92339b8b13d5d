import { HOURS_PER_MONTH } from '../capacity/poolCost';
import { builtinCatalog } from '../catalog/builtin';
import { resolveClusterProfile } from '../cluster/schema';
import { parseGpuRequest } from '../request/schema';
import { plan } from './plan';
import type { RepoState } from './types';
import {
  awsCluster,
  cluster,
  fixtureCatalog,
  gpuRequest,
} from './__testUtils__/fixtures';

describe('cost', () => {
  it('prices 730-hour months', () => {
    expect(HOURS_PER_MONTH).toBe(730);
  });

  it('prices spot requests at on-demand list price and says so', () => {
    const p = plan(
      gpuRequest({ replicas: 2 }, { capacityTypes: ['spot'] }),
      fixtureCatalog,
      awsCluster,
    );
    expect(p.pool.capacityTypes).toEqual(['spot']);
    expect(p.cost).toMatchObject({
      usdPerHour: 1,
      usdPerMonth: 730,
      marginalUsdPerMonth: 730,
      priceKnown: true,
    });
    expect(p.explanation.some(l => /spot is usually cheaper/.test(l))).toBe(
      true,
    );
  });

  it('warns when the only usable machine has no known price', () => {
    const catalog = {
      ...fixtureCatalog,
      instanceTypes: fixtureCatalog.instanceTypes.filter(
        t => t.name !== 'a100-x8',
      ),
    };
    const p = plan(
      gpuRequest({ model: 'a100-80gb', vramGiB: 40 }),
      catalog,
      awsCluster,
    );
    expect(p.nodes.instanceType).toBe('a100-block');
    expect(p.cost).toMatchObject({
      usdPerHour: 0,
      usdPerMonth: 0,
      marginalUsdPerMonth: 0,
      priceKnown: false,
    });
    expect(p.warnings.some(w => /price of a100-block is unknown/.test(w))).toBe(
      true,
    );
  });

  it('treats owned on-prem flavors as free, without a warning', () => {
    const p = plan(
      gpuRequest({ replicas: 3 }),
      fixtureCatalog,
      cluster({ provider: 'static' }),
    );
    expect(p.nodes).toEqual({
      expected: 2,
      slicesPerNode: 2,
      instanceType: 'rack-t4',
    });
    expect(p.cost).toMatchObject({
      usdPerHour: 0,
      usdPerMonth: 0,
      marginalUsdPerMonth: 0,
      priceKnown: true,
    });
    expect(p.warnings).toEqual([]);
  });

  it('refuses shared resources where Karpenter runs without the NodeOverlay gate', () => {
    expect(() =>
      plan(
        gpuRequest({ sharing: 'time-slicing', vramGiB: 4 }),
        fixtureCatalog,
        cluster({ nodeOverlay: false }),
      ),
    ).toThrow(
      expect.objectContaining({
        issues: [
          expect.objectContaining({
            path: 'spec.gpu.sharing',
            rule: 'nodeoverlay-gate-off',
            message: expect.stringContaining(
              'runs Karpenter without its NodeOverlay feature gate',
            ),
          }),
        ],
      }),
    );
  });
});

describe('cost: attributed, idle and marginal on the built-in catalog', () => {
  const builtin = resolveClusterProfile({ name: 'dev' });
  const t4Request = (name: string, replicas: number) =>
    parseGpuRequest({
      kind: 'GpuRequest',
      metadata: { name, namespace: 'ml' },
      spec: {
        owner: 'group:default/ml-platform',
        gpu: { model: 't4', sharing: 'time-slicing', replicas, vramGiB: 3.5 },
        workload: { image: 'ghcr.io/acme/app:1' },
      },
    });

  it('two requests sharing one $383.98 T4 node pay it once: shares + idle = the node, to the cent', () => {
    const first = plan(t4Request('chat', 2), builtinCatalog, builtin);
    expect(first.cost).toMatchObject({
      usdPerMonth: 191.99,
      marginalUsdPerMonth: 383.98,
    });
    const state: RepoState = {
      pools: [
        {
          name: first.pool.name,
          path: `clusters/dev/gpu/nodepools/${first.pool.name}.yaml`,
          gpuModel: 't4',
          sharingMode: 'time-slicing',
          slicesPerGpu: first.sharing.slicesPerGpu,
          resourceName: first.resourceName,
          instanceTypes: first.pool.instanceTypes,
          capacityTypes: first.pool.capacityTypes,
          deviceConfigName: first.sharing.deviceConfigName,
          limits: first.pool.limits,
          managed: true,
          ledger: first.pool.ledger,
        },
      ],
      devicePluginConfigs: {
        [first.sharing.deviceConfigName!]: first.sharing.devicePluginConfig,
      },
      migConfigs: {},
      workloads: [],
    };
    const second = plan(t4Request('search', 1), builtinCatalog, builtin, state);
    expect(second.pool.name).toBe(first.pool.name);
    expect(second.cost).toMatchObject({
      usdPerMonth: 96,
      marginalUsdPerMonth: 0,
    });
    const pool = second.cost.pool;
    expect(pool).toMatchObject({
      nodes: 1,
      nodesBefore: 1,
      instanceType: 'g4dn.xlarge',
      usdPerMonth: 383.98,
      idleUnits: 1,
      idleUsdPerMonth: 95.99,
    });
    expect(pool.shares).toEqual([
      { request: 'ml/chat', units: 2, usdPerMonth: 191.99 },
      { request: 'ml/search', units: 1, usdPerMonth: 96 },
    ]);
    const cents = (usd: number) => Math.round(usd * 100);
    expect(
      pool.shares.reduce((sum, s) => sum + cents(s.usdPerMonth), 0) +
        cents(pool.idleUsdPerMonth),
    ).toBe(cents(pool.usdPerMonth));
  });

  it('4 MIG slices of an 8-GPU A100 node pay a quarter; the idle GPUs are the pool’s', () => {
    const p = plan(
      parseGpuRequest({
        kind: 'GpuRequest',
        metadata: { name: 'bert', namespace: 'research' },
        spec: {
          owner: 'group:default/research',
          gpu: { model: 'a100-40gb', sharing: 'mig', replicas: 4, vramGiB: 10 },
          workload: { image: 'ghcr.io/acme/bert:1' },
        },
      }),
      builtinCatalog,
      builtin,
    );
    // 3g.20gb: 2 per GPU, 16 per p4d.24xlarge ($16,029.08/month).
    expect(p.sharing.migProfile).toBe('3g.20gb');
    expect(p.cost).toMatchObject({
      usdPerMonth: 4007.27,
      marginalUsdPerMonth: 16029.08,
    });
    expect(p.cost.pool).toMatchObject({
      usdPerMonth: 16029.08,
      capacityUnits: 16,
      idleUnits: 12,
      idleUsdPerMonth: 12021.81,
    });
  });
});

import { HOURS_PER_MONTH, nodeCost, round } from './cost';
import { plan } from './plan';
import {
  awsCluster,
  cluster,
  fixtureCatalog,
  gpuRequest,
} from './test-fixtures';

describe('cost', () => {
  it('prices nodes per hour and per 730-hour month', () => {
    expect(HOURS_PER_MONTH).toBe(730);
    expect(nodeCost(3, 0.526)).toEqual({
      usdPerHour: 1.578,
      usdPerMonth: 1151.94,
    });
    expect(round(0.1 + 0.2, 4)).toBe(0.3);
  });

  it('prices spot requests at on-demand list price and says so', () => {
    const p = plan(
      gpuRequest({ replicas: 2 }, { capacityTypes: ['spot'] }),
      fixtureCatalog,
      awsCluster,
    );
    expect(p.pool.capacityTypes).toEqual(['spot']);
    expect(p.cost).toEqual({ usdPerHour: 1, usdPerMonth: 730 });
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
    expect(p.cost).toEqual({ usdPerHour: 0, usdPerMonth: 0 });
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
    expect(p.cost).toEqual({ usdPerHour: 0, usdPerMonth: 0 });
    expect(p.warnings).toEqual([]);
  });

  it('warns that shared resources need NodeOverlay when it is off', () => {
    const p = plan(
      gpuRequest({ sharing: 'time-slicing', vramGiB: 4 }),
      fixtureCatalog,
      cluster({ nodeOverlay: false }),
    );
    expect(p.warnings.some(w => /NodeOverlay is off/.test(w))).toBe(true);
  });
});

import { plan } from './plan';
import {
  awsCluster,
  cluster,
  fixtureCatalog,
  gpuRequest,
} from './__testUtils__/fixtures';
import { inputIssues } from './__testUtils__/expectError';

describe('plan: model auto', () => {
  it('chooses the cheapest model for the request and explains it', () => {
    // t4 (from $0.5/h per node) beats v100 ($3/h) and a100 ($40/h)
    const p = plan(
      gpuRequest({ model: 'auto', sharing: 'time-slicing', vramGiB: 4 }),
      fixtureCatalog,
      awsCluster,
    );
    expect(p.pool.gpuModel).toBe('t4');
    expect(p.explanation[0]).toMatch(
      /^model auto: t4 is the cheapest of 3 fitting model/,
    );
  });

  it('skips models that cannot serve the mode', () => {
    const mig = plan(
      gpuRequest({ model: 'auto', sharing: 'mig', vramGiB: 4 }),
      fixtureCatalog,
      awsCluster,
    );
    expect(mig.pool.gpuModel).toBe('a100-80gb');
    const big = plan(
      gpuRequest({ model: 'auto', vramGiB: 30 }),
      fixtureCatalog,
      awsCluster,
    );
    expect(big.pool.gpuModel).toBe('a100-80gb');
  });

  it('compares the request cost, not the node price', () => {
    // 4 replicas x 1 GPU: t4 1 x t4-x4 = $1.8/h; v100 4 x $3 = $12/h
    const p = plan(
      gpuRequest({ model: 'auto', replicas: 4 }),
      fixtureCatalog,
      awsCluster,
    );
    expect(p.pool.gpuModel).toBe('t4');
    expect(p.cost.usdPerHour).toBe(1.8);
  });

  it('fails on spec.gpu.model when no model fits', () => {
    // 70 GiB fits only the A100, which has no MPS room for 2 clients
    expect(
      inputIssues(() =>
        plan(
          gpuRequest({ model: 'auto', sharing: 'mps', vramGiB: 70 }),
          fixtureCatalog,
          awsCluster,
        ),
      ),
    ).toEqual([
      expect.objectContaining({
        path: 'spec.gpu.model',
        rule: 'no-model-fits',
      }),
    ]);
  });

  it('only considers machines of the cluster provider', () => {
    const azure = cluster({ provider: 'azure-karpenter' });
    const p = plan(gpuRequest({ model: 'auto' }), fixtureCatalog, azure);
    expect(p.pool.instanceTypes).toEqual(['Standard_T4']);
    expect(
      inputIssues(() =>
        plan(gpuRequest({ model: 'a100-80gb' }), fixtureCatalog, azure),
      ),
    ).toEqual([
      expect.objectContaining({
        path: 'spec.gpu.model',
        rule: 'no-instance-type',
      }),
    ]);
  });
});

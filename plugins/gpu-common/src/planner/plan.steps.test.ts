import { runSteps } from '../steps';
import { plan, planSteps } from './plan';
import {
  awsCluster,
  fixtureCatalog,
  gpuRequest,
} from './__testUtils__/fixtures';
import type { PoolState, RepoState } from './types';

/** Pools of `model`, time-sliced four ways, named `<model>-shared-<i>`. */
function pools(model: string, count: number): PoolState[] {
  return Array.from({ length: count }, (_, i) => ({
    name: `${model}-shared-${i}`,
    path: `clusters/default/gpu/nodepools/${model}-shared-${i}.yaml`,
    gpuModel: model,
    sharingMode: 'time-slicing',
    slicesPerGpu: 4,
    resourceName: 'nvidia.com/gpu.shared',
    instanceTypes: [`${model}-x1`],
    capacityTypes: ['on-demand'],
    limits: { 'nvidia.com/gpu': 4 },
  }));
}

const repoState: RepoState = {
  pools: [...pools('t4', 3), ...pools('v100', 2)],
  devicePluginConfigs: {},
  migConfigs: {},
  workloads: [],
};

/** The steps counted, and the plan they end with. */
function counted(steps: Generator<void, ReturnType<typeof plan>>) {
  let count = 0;
  let step = steps.next();
  while (!step.done) {
    count += 1;
    step = steps.next();
  }
  return { count, plan: step.value };
}

describe('planSteps', () => {
  it('takes one step per pool of the model it judges, and ends with the plan plan() makes', () => {
    const request = gpuRequest({ sharing: 'time-slicing', vramGiB: 4 });
    const { count, plan: stepped } = counted(
      planSteps(request, fixtureCatalog, awsCluster, repoState),
    );
    expect(count).toBe(3);
    expect(stepped).toEqual(
      plan(request, fixtureCatalog, awsCluster, repoState),
    );
    expect(stepped.pool.reused).toBe(true);
    expect(stepped.pool.name).toMatch(/^t4-shared-/);
  });

  it('with model "auto", takes a step per pool of every model it plans on', () => {
    const request = gpuRequest({
      model: 'auto',
      sharing: 'time-slicing',
      vramGiB: 4,
    });
    const { count, plan: stepped } = counted(
      planSteps(request, fixtureCatalog, awsCluster, repoState),
    );
    expect(count).toBe(5);
    expect(stepped).toEqual(
      runSteps(planSteps(request, fixtureCatalog, awsCluster, repoState)),
    );
    expect(stepped).toEqual(
      plan(request, fixtureCatalog, awsCluster, repoState),
    );
  });

  it('throws the input error plan() throws, from its steps', () => {
    const request = gpuRequest({ sharing: 'time-slicing', vramGiB: 400 });
    expect(() => plan(request, fixtureCatalog, awsCluster, repoState)).toThrow(
      /spec\.gpu/,
    );
    expect(() =>
      runSteps(planSteps(request, fixtureCatalog, awsCluster, repoState)),
    ).toThrow(/spec\.gpu/);
  });
});

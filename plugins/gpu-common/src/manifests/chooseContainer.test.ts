import { GpuInputError } from '../errors';
import { chooseContainer } from './chooseContainer';

const recommender = {
  kind: 'Deployment' as const,
  name: 'recommender',
  containers: [{ name: 'api' }, { name: 'metrics-exporter' }],
};

function issuesOf(run: () => unknown) {
  try {
    run();
  } catch (error) {
    expect(error).toBeInstanceOf(GpuInputError);
    return (error as GpuInputError).issues;
  }
  throw new Error('expected a GpuInputError');
}

describe('chooseContainer', () => {
  it('takes the named container, or the only one', () => {
    expect(chooseContainer(recommender, 'metrics-exporter')).toBe(
      'metrics-exporter',
    );
    expect(
      chooseContainer(
        { kind: 'Job', name: 'train', containers: [{ name: 'trainer' }] },
        undefined,
      ),
    ).toBe('trainer');
  });

  it('refuses several containers and none named, listing them', () => {
    expect(issuesOf(() => chooseContainer(recommender, undefined))).toEqual([
      {
        path: 'spec.workload.existing.container',
        rule: 'container-required',
        message:
          'Deployment "recommender" has 2 containers (api, metrics-exporter): name the one that gets the GPU',
      },
    ]);
  });

  it('refuses a container the workload does not have', () => {
    expect(issuesOf(() => chooseContainer(recommender, 'web'))).toEqual([
      {
        path: 'spec.workload.existing.container',
        rule: 'container-not-found',
        message:
          'Deployment "recommender" has no container "web"; its containers: api, metrics-exporter',
      },
    ]);
  });
});

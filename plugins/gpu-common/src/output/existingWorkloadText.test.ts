import {
  describeExistingWorkload,
  formatReplicaCount,
} from './existingWorkloadText';

describe('describeExistingWorkload', () => {
  const recommender = {
    kind: 'Deployment' as const,
    name: 'recommender',
    replicas: 3,
    containers: ['api', 'metrics-exporter'],
  };

  it('shows the count now and the requested one when they differ', () => {
    expect(describeExistingWorkload(recommender, 2, 'api')).toBe(
      'Existing Deployment recommender: 3 replicas now → 2 requested (containers: api, metrics-exporter; GPU to api)',
    );
  });

  it('shows only the count now when the request keeps it', () => {
    expect(describeExistingWorkload(recommender, 3, 'api')).toBe(
      'Existing Deployment recommender: 3 replicas now (containers: api, metrics-exporter; GPU to api)',
    );
  });

  it("names a Job's or CronJob's parallelism", () => {
    expect(
      describeExistingWorkload(
        { kind: 'Job', name: 'train-nightly', replicas: 2, containers: ['t'] },
        4,
        't',
      ),
    ).toBe(
      'Existing Job train-nightly: parallelism 2 now → 4 requested (containers: t; GPU to t)',
    );
    expect(formatReplicaCount('CronJob', 1)).toBe('parallelism 1');
    expect(formatReplicaCount('StatefulSet', 1)).toBe('1 replica');
  });
});

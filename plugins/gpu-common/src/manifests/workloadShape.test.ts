import { WORKLOAD_KINDS } from '../request/types';
import { scaledByKustomizeReplicas, workloadShape } from './workloadShape';

describe('scaledByKustomizeReplicas', () => {
  it('holds for the kinds counted by spec.replicas, never for parallelism', () => {
    expect(WORKLOAD_KINDS.filter(scaledByKustomizeReplicas)).toEqual([
      'Deployment',
      'StatefulSet',
    ]);
    for (const kind of WORKLOAD_KINDS) {
      expect(scaledByKustomizeReplicas(kind)).toBe(
        workloadShape(kind).replicasField === 'replicas',
      );
    }
  });
});

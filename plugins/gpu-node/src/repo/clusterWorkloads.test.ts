import type { WorkloadState } from '@gpu-gitops/plugin-gpu-common';
import { workloadsOfCluster } from './clusterWorkloads';
import { ParseCache } from './parseCache';
import { MemoryRepoTree } from './tree';

const workload = (j: number): WorkloadState => ({
  id: `ml/app-${j}`,
  namespace: 'ml',
  name: `app-${j}`,
  path: `apps/ml/app-${j}/deployment.yaml`,
  resourceName: 'nvidia.com/gpu',
  replicas: 1,
  perReplica: 1,
  request: `ml/app-${j}`,
});

const record = (cluster: string) =>
  `apiVersion: gpu.gitops.io/v1alpha1\nkind: GpuRequest\nspec:\n  cluster: ${cluster}\n`;

/** A tree whose reads take a turn of the event loop, counting how many are under way at once. */
class CountingTree extends MemoryRepoTree {
  inFlight = 0;
  mostInFlight = 0;

  async readFile(path: string): Promise<string | undefined> {
    this.inFlight++;
    this.mostInFlight = Math.max(this.mostInFlight, this.inFlight);
    try {
      await new Promise(resolve => setImmediate(resolve));
      return await super.readFile(path);
    } finally {
      this.inFlight--;
    }
  }
}

describe('workloadsOfCluster', () => {
  it('keeps the workloads whose request record names the cluster, and those whose record does not tell', async () => {
    const files: Record<string, string> = {
      'requests/ml/app-0.yaml': record('dev'),
      'requests/ml/app-1.yaml': record('prod'),
      'requests/ml/app-2.yaml': 'spec: { cluster: [broken\n',
      'requests/ml/app-3.yaml': `${record('prod')}---\n${record('prod')}`,
    };
    const workloads = [0, 1, 2, 3, 4].map(workload);
    const onDev = await workloadsOfCluster(
      new MemoryRepoTree(files),
      undefined,
      'dev',
      workloads,
      new ParseCache(),
    );
    // app-2's record does not parse, app-3's holds two documents, app-4 has none: they stay.
    expect(onDev.map(w => w.name)).toEqual([
      'app-0',
      'app-2',
      'app-3',
      'app-4',
    ]);
  });

  it('reads the request records a few dozen at a time, not all at once (10k ran out of file handles)', async () => {
    const files: Record<string, string> = {};
    for (let j = 0; j < 500; j++) {
      files[`requests/ml/app-${j}.yaml`] = record(j % 2 ? 'dev' : 'prod');
    }
    const tree = new CountingTree(files);
    const onDev = await workloadsOfCluster(
      tree,
      undefined,
      'dev',
      Array.from({ length: 500 }, (_, j) => workload(j)),
      new ParseCache(),
    );
    expect(onDev).toHaveLength(250);
    expect(tree.mostInFlight).toBeGreaterThan(1);
    expect(tree.mostInFlight).toBeLessThanOrEqual(32);
  });
});

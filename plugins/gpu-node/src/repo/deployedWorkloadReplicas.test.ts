/**
 * The replicas reader reads the workload folders a few at a time: a scale
 * cluster's 10k folders read all at once ran out of file descriptors
 * (EMFILE) in the updater, once the parse cache had spared the state reader
 * reading their files.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { readRepoState } from './readRepoState';
import { MemoryRepoTree, type RepoTree } from './tree';

const FOLDERS = 300;

const gpuWorkload = (i: number) => `apiVersion: apps/v1
kind: Deployment
metadata: { name: app-${i}, namespace: ml }
spec:
  replicas: 1
  template:
    spec:
      containers:
        - name: app
          image: app:1
          resources: { limits: { nvidia.com/gpu: 1 } }
`;

/** A tree that notes how many reads are in flight at most (each takes a moment, as a disk read does). */
class CountingTree extends MemoryRepoTree implements RepoTree {
  inFlight = 0;
  most = 0;

  async readFile(path: string): Promise<string | undefined> {
    this.inFlight++;
    this.most = Math.max(this.most, this.inFlight);
    try {
      await sleep(1);
      return await super.readFile(path);
    } finally {
      this.inFlight--;
    }
  }
}

describe('readRepoState on many workload folders', () => {
  it('reads a bounded number of files at once, and every workload with its replicas', async () => {
    const tree = new CountingTree({
      'clusters/prod/gpu/kustomization.yaml':
        'apiVersion: kustomize.config.k8s.io/v1beta1\nkind: Kustomization\n',
      ...Object.fromEntries(
        Array.from({ length: FOLDERS }, (_, i) => [
          `apps/ml/app-${i}/deployment.yaml`,
          gpuWorkload(i),
        ]),
      ),
    });
    const state = await readRepoState(tree, undefined, 'prod');
    expect(state.workloads).toHaveLength(FOLDERS);
    expect(state.workloads.every(w => w.replicas === 1)).toBe(true);
    // The state reader's and the replicas reader's reads, a few dozen each.
    expect(tree.most).toBeLessThanOrEqual(64);
  });
});

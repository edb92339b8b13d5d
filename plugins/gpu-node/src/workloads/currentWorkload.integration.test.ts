/**
 * The "before" of a change is the repository as merged: a request that
 * scaled a team's workload from 3 to 2 replicas, changed again to 1, tells
 * the reviewer "2 → 1" — what the diff's minus side shows — never the team's
 * count before the first request (3).
 */
import { builtinCatalog, type GpuRequest } from '@gpu-gitops/plugin-gpu-common';
import { buildRequestChange } from '../changes/buildRequestChange';
import { writeChangeSet } from '../changes/stagedTree';
import { mlRequest } from '../changes/__fixtures__/requests';
import {
  addMlApp,
  devCluster as cluster,
  existingRepoFiles,
  removeTempRepo,
  writeTempRepo,
} from '../changes/__fixtures__/gitopsRepo';
import { renderPullRequest } from '../pr/renderPullRequest';
import { FsRepoTree } from '../repo/tree';

// Real kustomize builds, several per test, on a loaded two-core machine.
jest.setTimeout(300_000);

const { ['apps/web/storefront/broken.yaml']: _broken, ...repoFiles } =
  existingRepoFiles;

const ranker = `apiVersion: apps/v1
kind: Deployment
metadata:
  name: ranker
  namespace: ml
spec:
  replicas: 3
  selector:
    matchLabels:
      app: ranker
  template:
    metadata:
      labels:
        app: ranker
    spec:
      containers:
        - name: ranker
          image: ghcr.io/example/ranker:2.0.0
`;

const rankerRequest = (replicas: number): GpuRequest =>
  mlRequest(
    'ranker',
    {
      model: 'l4',
      sharing: 'time-slicing',
      slicesPerGpu: 4,
      replicas,
      vramGiB: 4,
    },
    { workload: { existing: { kind: 'Deployment', name: 'ranker' } } },
  );

describe('the before of a change to an existing workload', () => {
  let dir: string;
  let tree: FsRepoTree;
  beforeEach(async () => {
    dir = await writeTempRepo(repoFiles);
    tree = new FsRepoTree(dir);
  });
  afterEach(async () => {
    await removeTempRepo(dir);
  });

  const change = (replicas: number) =>
    buildRequestChange({
      tree,
      dir: tree.root,
      request: rankerRequest(replicas),
      cluster,
      catalog: builtinCatalog,
    });

  it.each([
    ['an overlay patch', true],
    ['a plain manifest edited in place', false],
  ])(
    'is read from the repository as merged (%s): "replicas 2 → 1", as the diff shows',
    async (_how, listed) => {
      if (listed) await addMlApp(tree, 'ranker', ranker);
      else await tree.writeFile('apps/ml/ranker/deployment.yaml', ranker);
      await writeChangeSet(tree, (await change(2)).changeSet);

      const resize = await change(1);
      const workloadFile = resize.changeSet.changes.find(
        c => c.path.startsWith('apps/ml/ranker/') && c.action === 'update',
      )!;
      // The minus side of the diff: what the repository holds now.
      expect(await tree.readFile(workloadFile.path)).toMatch(/replicas: 2\b/);
      expect(resize.existing!.merged.replicas).toBe(2);
      // What a new patch is built from is still the team's own count.
      expect(resize.existing!.current.replicas).toBe(3);

      const { body } = renderPullRequest({
        plan: resize.plan,
        files: resize.changeSet.changes,
        existing: {
          container: resize.existing!.target.container,
          current: resize.existing!.current,
          merged: resize.existing!.merged,
        },
      });
      expect(body).toContain('**replicas 2 → 1**');
      expect(body).not.toContain('replicas 3 →');
    },
  );
});

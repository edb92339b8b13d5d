/**
 * A team's hand-written NodePool, the way EKS blueprints write one (no
 * capacity-type requirement, no instance-type list, sizes narrowed by
 * requirements), on disk through the real planner, merge engine and
 * kustomize: a request reuses it, priced on the sizes it allows, and its
 * release starts from the price the request reported.
 */
import { builtinCatalog } from '@gpu-gitops/plugin-gpu-common';
import { FsRepoTree } from '../../repo/tree';
import { buildRequestChange } from '../buildRequestChange';
import { writeChangeSet } from '../stagedTree';
import { mlRequest } from '../__fixtures__/requests';
import {
  buildableRepoFiles as repoFiles,
  devCluster as cluster,
  removeTempRepo,
  writeTempRepo,
} from '../__fixtures__/gitopsRepo';
import { releaseOnDisk } from '../__testUtils__/releaseOnDisk';

// A hang guard, not a speed goal: each test runs the real kustomize (and git) several
// times, which on a loaded two-core CI machine takes far longer than the default 30 s.
jest.setTimeout(300_000);

const TEAM_POOL = 'clusters/dev/gpu/nodepools/team-a10g.yaml';
const GPU_KUSTOMIZATION = 'clusters/dev/gpu/kustomization.yaml';

const files = {
  ...repoFiles,
  [GPU_KUSTOMIZATION]: repoFiles[GPU_KUSTOMIZATION].replace(
    '  - nodepools/gpu-t4-ts4.yaml # the shared inference pool\n',
    '  - nodepools/gpu-t4-ts4.yaml # the shared inference pool\n  - nodepools/team-a10g.yaml\n',
  ),
  [TEAM_POOL]: `# The ML team's A10G nodes: G5 of 4xlarge and up, any capacity type.
apiVersion: karpenter.sh/v1
kind: NodePool
metadata:
  name: team-a10g
spec:
  template:
    spec:
      nodeClassRef:
        group: karpenter.k8s.aws
        kind: EC2NodeClass
        name: gpu
      requirements:
        - key: karpenter.k8s.aws/instance-gpu-name
          operator: In
          values: ["a10g"]
        - key: karpenter.k8s.aws/instance-family
          operator: In
          values: ["g5"]
        - key: karpenter.k8s.aws/instance-size
          operator: NotIn
          values: ["xlarge", "2xlarge", "metal"]
      taints:
        - key: nvidia.com/gpu
          value: "true"
          effect: NoSchedule
  limits:
    nvidia.com/gpu: "4"
`,
};

const chat = mlRequest('chat', {
  model: 'a10g',
  sharing: 'exclusive',
  replicas: 2,
  vramGiB: 20,
});

describe('a hand-written pool has one price in a request and its release', () => {
  let dir: string;
  let tree: FsRepoTree;
  beforeEach(async () => {
    dir = await writeTempRepo(files);
    tree = new FsRepoTree(dir);
  });
  afterEach(async () => {
    await removeTempRepo(dir);
  });

  it('an on-demand request reuses the pool without a capacity-type requirement, priced on the sizes it allows, and the release starts from that price', async () => {
    const requested = await buildRequestChange({
      tree,
      dir: tree.root,
      request: chat,
      cluster,
      catalog: builtinCatalog,
    });
    const plan = requested.plan;
    expect(plan.pool).toMatchObject({ name: 'team-a10g', reused: true });
    // g5.4xlarge, the cheapest size it allows: 2 nodes x $1.624/h x 730 h.
    expect(plan.cost.pool).toMatchObject({
      instanceType: 'g5.4xlarge',
      nodes: 2,
      usdPerMonth: 2371.04,
    });
    await writeChangeSet(tree, requested.changeSet);

    const released = await releaseOnDisk(
      tree,
      tree.root,
      'chat',
      cluster,
      builtinCatalog,
    );
    expect(released.plan.pools).toEqual([
      expect.objectContaining({
        name: 'team-a10g',
        nodesBefore: plan.cost.pool.nodes,
        usdPerMonthBefore: plan.cost.pool.usdPerMonth,
        usdPerMonthAfter: 0,
      }),
    ]);
    expect(released.plan.savedUsdPerMonth).toBe(plan.cost.pool.usdPerMonth);
  });
});

/**
 * The import puts a workload on the pool its pods can land on, as the
 * scheduler decides it: a team that selects its GPU pool by a label of the
 * pool's node template (`intent: gpu`) gets its request record, a workload
 * that fits two GPU pools gets none and is told which, a selector no pool's
 * nodes carry is told what blocks it. On the v1beta1 fixture (`gpu-l4`
 * under gpu/, the hand-written `gpu-batch` under karpenter/, both tainted
 * `nvidia.com/gpu`), with the ranker's selector and the pool's labels
 * edited as each case needs.
 */
import { promises as fs } from 'node:fs';
import type { PoolState } from '@gpu-gitops/plugin-gpu-common';
import type { FsRepoTree } from '../repo/tree';
import { copyOf } from './__testUtils__/fixtureCopies';
import { importCluster, importProfile } from './__testUtils__/importCluster';
import { gpuPoolShapes } from '../repo/gpuPoolShapes';

jest.setTimeout(300_000);

const POOL_FILE = 'clusters/prod/gpu/nodepools/gpu-l4.yaml';
const WORKLOAD_FILE = 'apps/ml/ranker/deployment.yaml';
const FIXTURE_SELECTOR =
  '      nodeSelector:\n        karpenter.sh/nodepool: gpu-l4\n';

async function edit(
  tree: FsRepoTree,
  file: string,
  from: string,
  to: string,
): Promise<void> {
  const text = (await tree.readFile(file))!;
  expect(text).toContain(from);
  await tree.writeFile(file, text.replace(from, to));
}

/** The v1beta1 fixture with the ranker selecting its pool by `selector` (YAML lines, or none). */
async function rankerSelecting(selector: string): Promise<FsRepoTree> {
  const tree = await copyOf('v1beta1-repo');
  await edit(tree, WORKLOAD_FILE, FIXTURE_SELECTOR, selector);
  // The team's own label on the L4 pool's nodes, beside the fixture's.
  await edit(
    tree,
    POOL_FILE,
    '        workload-class: inference\n',
    '        workload-class: inference\n        intent: gpu\n',
  );
  return tree;
}

const rankerFinding = (messages: { path?: string; message: string }[]) =>
  messages.filter(f => f.path === WORKLOAD_FILE).map(f => f.message);

describe('the pool of an imported workload, as its pods land', () => {
  const trees: FsRepoTree[] = [];
  afterAll(() =>
    Promise.all(
      trees.map(t => fs.rm(t.root, { recursive: true, force: true })),
    ),
  );
  const imported = async (selector: string) => {
    const tree = await rankerSelecting(selector);
    trees.push(tree);
    return importCluster(tree, importProfile('prod'));
  };

  it('a workload selecting a label of the pool’s node template runs on that pool', async () => {
    const change = await imported('      nodeSelector:\n        intent: gpu\n');
    expect(change.requests).toEqual([
      expect.objectContaining({ id: 'ml/ranker', pool: 'gpu-l4' }),
    ]);
    expect(change.adoptedPools.map(p => [p.name, p.ledger])).toEqual([
      ['gpu-l4', 'ml/ranker=2'],
      ['gpu-batch', ''],
    ]);
    expect(rankerFinding(change.findings)).toEqual([]);
  });

  it('a workload whose pods fit two GPU pools gets no record, and is told which', async () => {
    const change = await imported('');
    expect(change.requests).toEqual([]);
    expect(rankerFinding(change.findings)).toEqual([
      expect.stringContaining(
        'its pods can land on pools gpu-l4, gpu-batch: which one it runs on is ambiguous, and the import does not guess',
      ),
    ]);
  });

  it('a workload selecting another GPU’s product name is not put on the L4 pool', async () => {
    const change = await imported(
      '      nodeSelector:\n        intent: gpu\n        nvidia.com/gpu.product: Tesla-T4\n',
    );
    expect(change.requests).toEqual([]);
    expect(rankerFinding(change.findings)).toEqual([
      expect.stringContaining('nvidia.com/gpu.product=Tesla-T4'),
    ]);
  });

  it('a selector no GPU pool’s nodes carry says what blocks it', async () => {
    const change = await imported('      nodeSelector:\n        intent: cpu\n');
    expect(change.requests).toEqual([]);
    expect(rankerFinding(change.findings)).toEqual([
      expect.stringMatching(
        /^it runs on no GPU pool of the cluster the import adopted \(nodeSelector intent=cpu: nodes of NodePool gpu-l4 carry gpu; .*gpu-batch never carry label intent/,
      ),
    ]);
  });
});

describe('the node shapes the import judges a workload against', () => {
  const nodePool = {
    apiVersion: 'karpenter.sh/v1',
    kind: 'NodePool',
    metadata: { name: 'gpu-l4' },
    spec: { template: { spec: { requirements: [] } } },
  };
  const pool = (over: Partial<PoolState>): PoolState => ({
    name: 'gpu-l4',
    path: 'clusters/prod/gpu/nodepools/gpu-l4.yaml',
    gpuModel: 'l4',
    sharingMode: 'exclusive',
    resourceName: 'nvidia.com/gpu',
    instanceTypes: [],
    capacityTypes: ['on-demand'],
    ...over,
  });
  const productsOf = (state: PoolState) =>
    gpuPoolShapes([{ path: state.path, index: 0, value: nodePool }], [state])[0]
      .gpuProducts;

  it('name the GPU product of the pool’s model as GPU Feature Discovery labels it, shared or not', () => {
    expect(productsOf(pool({}))).toEqual(['NVIDIA-L4']);
    expect(
      productsOf(pool({ sharingMode: 'time-slicing', slicesPerGpu: 4 })),
    ).toEqual(['NVIDIA-L4-SHARED']);
    expect(
      productsOf(
        pool({
          sharingMode: 'time-slicing',
          slicesPerGpu: 4,
          resourceName: 'nvidia.com/gpu.shared',
        }),
      ),
    ).toEqual(['NVIDIA-L4']);
  });

  it('leave the product open when the pool’s model is not known', () => {
    expect(productsOf(pool({ gpuModel: undefined }))).toBeUndefined();
  });
});

describe('the import lands workloads on the GPU NodePools it leaves to the team too', () => {
  let tree: FsRepoTree;
  afterAll(() => fs.rm(tree.root, { recursive: true, force: true }));

  it('does not adopt a selector-less workload onto gpu-serve when its pods may land on the patched gpu-train', async () => {
    // v1beta1-overlays-repo: the overlay patches gpu-train (never adopted), gpu-serve is adopted.
    tree = await copyOf('v1beta1-overlays-repo');
    await tree.writeFile(
      'apps/ml/trainer/deployment.yaml',
      `apiVersion: apps/v1
kind: Deployment
metadata: { name: trainer, namespace: ml }
spec:
  selector: { matchLabels: { app: trainer } }
  template:
    metadata: { labels: { app: trainer } }
    spec:
      tolerations: [{ key: nvidia.com/gpu, operator: Exists, effect: NoSchedule }]
      containers:
        - name: train
          image: pytorch/pytorch:2.3.0-cuda12.1-cudnn8-runtime
          resources: { limits: { nvidia.com/gpu: 1 } }
`,
    );
    const change = await importCluster(tree, importProfile('prod'));
    expect(change.adoptedPools.map(p => p.name)).toEqual(['gpu-serve']);
    expect(change.requests).toEqual([]);
    expect(
      change.findings
        .filter(f => f.path === 'apps/ml/trainer/deployment.yaml')
        .map(f => f.message),
    ).toEqual([
      expect.stringContaining(
        'its pods can land on pools gpu-serve, gpu-train: which one it runs on is ambiguous',
      ),
    ]);
  });
});

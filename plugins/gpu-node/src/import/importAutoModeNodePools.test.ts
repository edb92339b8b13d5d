/**
 * Importing an EKS Auto Mode cluster (`test/fixtures/eks-auto-mode-repo`,
 * origins in its README): a team's GPU NodePool in Auto Mode's labels only
 * (`eks.amazonaws.com/instance-gpu-name`, `instance-gpu-count`) is a GPU
 * pool with its model and its limit in GPUs; AWS's example pool of two
 * families (g6e, g6: L40S and L4) is a GPU pool of no one model; the CPU
 * pool and the NodeClasses are left byte for byte.
 */
import { promises as fs } from 'node:fs';
import {
  builtinCatalog,
  resolveClusterProfile,
} from '@gpu-gitops/plugin-gpu-common';
import {
  checkoutShape,
  snapshot,
} from '../changes/shapes/__testUtils__/shapeRound';
import { writeChangeSet } from '../changes/stagedTree';
import type { FsRepoTree } from '../repo/tree';
import { buildImportChange } from './buildImportChange';
import { IMPORT_OWNER } from './__testUtils__/importCluster';

// The real kustomize builds the cluster before and after.
jest.setTimeout(300_000);

const cluster = resolveClusterProfile({
  name: 'auto-ml',
  provider: 'eks-auto-mode',
  region: 'us-east-1',
  kubernetesVersion: '1.36',
});
const FOLDER = 'clusters/auto-ml/eks-automode-config';

describe('importing an EKS Auto Mode cluster’s hand-written GPU NodePools', () => {
  let tree: FsRepoTree;
  afterAll(() =>
    tree ? fs.rm(tree.root, { recursive: true, force: true }) : undefined,
  );

  it('adopts them with their model and their limit in GPUs, annotations only', async () => {
    tree = await checkoutShape('eks-auto-mode-repo', 'gpu-import-auto-');
    const before = await snapshot(tree);
    const change = await buildImportChange({
      tree,
      dir: tree.root,
      cluster,
      catalog: builtinCatalog,
      owner: IMPORT_OWNER,
    });
    expect(change.verification?.verified).toEqual(['clusters/auto-ml']);
    expect(
      change.adoptedPools.map(p => [
        p.name,
        p.gpuModel,
        p.sharingMode,
        p.counts,
      ]),
    ).toEqual([
      ['gpu', undefined, 'exclusive', []],
      [
        'gpu-l40s',
        'l40s',
        'exclusive',
        ['spec.limits nvidia.com/gpu: 4 counts GPUs'],
      ],
    ]);
    await writeChangeSet(tree, change.changeSet);
    const after = await snapshot(tree);
    for (const file of [
      `${FOLDER}/nodepool-amd64.yaml`,
      `${FOLDER}/nodeclass-basic.yaml`,
      `${FOLDER}/nodeclass-ebs-optimized.yaml`,
    ]) {
      expect(after[file]).toBe(before[file]);
    }
    const pool = `${FOLDER}/nodepool-l40s.yaml`;
    const kept = after[pool]
      .split('\n')
      .filter(line => !/^  annotations:$|^    gpu\.backstage\.io\//.test(line));
    expect(kept).toEqual(before[pool].split('\n'));
  });

  it('a NodePool of two GPU names (instance-gpu-name In [l4, a10g]) is adopted with no model, says which two, and its workload is not recorded as either', async () => {
    const mixed = await checkoutShape('eks-auto-mode-repo', 'gpu-import-auto-');
    try {
      await mixed.writeFile(
        `${FOLDER}/nodepool-l4-a10g.yaml`,
        `apiVersion: karpenter.sh/v1
kind: NodePool
metadata:
  name: gpu-l4-a10g
spec:
  template:
    spec:
      nodeClassRef: {group: eks.amazonaws.com, kind: NodeClass, name: default}
      requirements:
        - key: eks.amazonaws.com/instance-gpu-name
          operator: In
          values: [l4, a10g]
      taints:
        - key: nvidia.com/gpu
          effect: NoSchedule
  limits:
    nvidia.com/gpu: 4
`,
      );
      const kustomization = `${FOLDER}/kustomization.yaml`;
      await mixed.writeFile(
        kustomization,
        (await mixed.readFile(kustomization))!.replace(
          'resources:\n',
          'resources:\n  - nodepool-l4-a10g.yaml\n',
        ),
      );
      await mixed.writeFile(
        'apps/ml/chat/deployment.yaml',
        `apiVersion: apps/v1
kind: Deployment
metadata: {name: chat, namespace: ml}
spec:
  replicas: 2
  selector: {matchLabels: {app: chat}}
  template:
    metadata: {labels: {app: chat}}
    spec:
      nodeSelector: {karpenter.sh/nodepool: gpu-l4-a10g}
      tolerations: [{key: nvidia.com/gpu, operator: Exists, effect: NoSchedule}]
      containers:
        - name: server
          image: vllm/vllm-openai:v0.11.0
          resources: {limits: {nvidia.com/gpu: 1}}
`,
      );
      const change = await buildImportChange({
        tree: mixed,
        dir: mixed.root,
        cluster,
        catalog: builtinCatalog,
        owner: IMPORT_OWNER,
      });
      expect(
        change.adoptedPools.find(p => p.name === 'gpu-l4-a10g')?.gpuModel,
      ).toBeUndefined();
      expect(change.requests).toEqual([]);
      expect(change.findings).toEqual(
        expect.arrayContaining([
          expect.objectContaining({
            kind: 'note',
            object: 'NodePool "gpu-l4-a10g"',
            message: expect.stringContaining(
              'its requirements let Karpenter launch GPUs of 2 models (a10g, l4)',
            ),
          }),
          expect.objectContaining({
            kind: 'not-understood',
            path: 'apps/ml/chat/deployment.yaml',
            message: expect.stringContaining(
              'pool gpu-l4-a10g launches GPUs of 2 models (a10g, l4): which one its pods get is not known',
            ),
          }),
        ]),
      );
    } finally {
      await fs.rm(mixed.root, { recursive: true, force: true });
    }
  });
});

/**
 * A platform team's round on an AKS cluster with node auto-provisioning
 * (Karpenter v1 and Azure's AKSNodeClass) whose GPU Jobs are the Azure
 * provider's own samples, each with its own tolerations and node selector
 * (`test/fixtures/aks-nap-repo`, origins in its README). Validate on the
 * untouched repository, import, bootstrap, then requests and their
 * releases; every request's pods land on the pool the plan chose and on no
 * other, and every file comes back.
 */
import { parseAllDocuments, parseDocument } from 'yaml';
import {
  builtinCatalog,
  parseGpuRequest,
  resolveClusterProfile,
} from '@gpu-gitops/plugin-gpu-common';
import type { FsRepoTree } from '../../repo/tree';
import { validateGitOpsTree } from '../../validate/validateGitOpsTree';
import { buildRequestChange } from '../buildRequestChange';
import {
  bootstrapShape,
  expectLandsOnPlannedPool,
  importShape,
  shapeRequest,
  withShapeRepository,
  expectCleanRound,
} from './__testUtils__/shapeRound';

// Import, bootstrap, requests and releases each build with the real
// kustomize on a shared CI machine.
jest.setTimeout(240_000);

const POOL_FILE = 'clusters/aks-west/karpenter/gpu.yaml';
const CPU_POOL_FILE = 'clusters/aks-west/karpenter/general-purpose.yaml';
const MNIST = 'apps/ml/mnist/job.yaml';
const TRAINER = 'sample-aiml-gpu-hard';

const cluster = resolveClusterProfile({
  name: 'aks-west',
  provider: 'azure-karpenter',
  region: 'westeurope',
  nodeClass: {
    group: 'karpenter.azure.com',
    kind: 'AKSNodeClass',
    name: 'gpu',
  },
  migStrategy: 'single',
});

const objectsIn = (text: string) =>
  parseAllDocuments(text).map(doc => doc.toJS());

describe('the AKS node auto-provisioning repository with the provider’s sample GPU Jobs', () => {
  let tree: FsRepoTree;
  let original: Record<string, string>;
  withShapeRepository('aks-nap-repo', 'gpu-shape-aks-', checkout => {
    ({ tree, original } = checkout);
  });

  it('validate on the untouched repository finds only the Job that tolerates a taint no GPU pool has (the CPU pool launches no GPU node)', async () => {
    expect(await validateGitOpsTree(tree.root, { cluster })).toEqual([
      {
        file: MNIST,
        object: 'Job/samples-tf-mnist-demo',
        rule: 'untolerated-taint',
        message:
          'no pool serving nvidia.com/gpu (gpu) has taints this workload tolerates; add a toleration for nvidia.com/gpu:NoSchedule',
      },
    ]);
  });

  it('the import adopts the GPU pool as exclusive T4, keeps both node classes Azure’s and the CPU pool as written, and records the Job that runs there', async () => {
    const imported = await importShape(tree, cluster);
    expect(imported.changeSet.changes.map(c => c.path)).toEqual([
      POOL_FILE,
      `requests/ml/${TRAINER}.yaml`,
    ]);
    const objects = objectsIn((await tree.readFile(POOL_FILE))!);
    const pool = objects.find(o => o.kind === 'NodePool');
    expect(pool.spec.template.spec.nodeClassRef).toEqual({
      group: 'karpenter.azure.com',
      kind: 'AKSNodeClass',
      name: 'gpu',
    });
    expect(pool.metadata.annotations).toMatchObject({
      'gpu.backstage.io/requests': `ml/${TRAINER}=1`,
      'gpu.backstage.io/sharing-mode': 'exclusive',
      'gpu.backstage.io/gpu-model': 't4',
    });
    expect(await tree.readFile(CPU_POOL_FILE)).toBe(original[CPU_POOL_FILE]);
    expect(imported.findings).toContainEqual(
      expect.objectContaining({ path: MNIST, kind: 'not-understood' }),
    );
  });

  describe('bootstrapped', () => {
    let bootstrapped: Record<string, string>;
    beforeAll(async () => {
      ({ bootstrapped } = await bootstrapShape(tree, cluster));
    });

    it('validate still finds only the Job no GPU pool takes', async () => {
      const findings = await validateGitOpsTree(tree.root, { cluster });
      expect(findings.map(f => `${f.object} ${f.rule}`)).toEqual([
        'Job/samples-tf-mnist-demo untolerated-taint',
      ]);
    });

    it('the imported Job’s record renders again on its pool, its pods landing there only', async () => {
      const record = parseGpuRequest(
        parseDocument(bootstrapped[`requests/ml/${TRAINER}.yaml`]).toJS(),
      );
      const change = await buildRequestChange({
        tree,
        dir: tree.root,
        request: record,
        cluster,
        catalog: builtinCatalog,
      });
      expect(change.plan.pool.name).toBe('gpu');
      expectLandsOnPlannedPool(change, 'gpu');
    });

    it.each([
      [
        'exclusive',
        { model: 't4', sharing: 'exclusive', replicas: 1, vramGiB: 15 },
        'gpu',
      ],
      [
        'time-slicing',
        { model: 't4', sharing: 'time-slicing', replicas: 2, vramGiB: 4 },
        undefined,
      ],
      [
        'MPS',
        { model: 't4', sharing: 'mps', replicas: 2, vramGiB: 4 },
        undefined,
      ],
      [
        'MIG',
        { model: 'a100-80gb', sharing: 'mig', replicas: 1, vramGiB: 10 },
        undefined,
      ],
    ])(
      'the Job no pool took gets %s GPUs: its pods land on the pool the plan chose only, validate finds it fixed, and its release gives every file back',
      async (_mode, gpu, reused) => {
        const { change } = await expectCleanRound(
          tree,
          shapeRequest('samples-tf-mnist-demo', {
            gpu,
            workload: {
              existing: { kind: 'Job', name: 'samples-tf-mnist-demo' },
            },
          }),
          cluster,
          bootstrapped,
        );
        if (reused) expect(change.plan.pool.name).toBe(reused);
      },
    );
  });
});

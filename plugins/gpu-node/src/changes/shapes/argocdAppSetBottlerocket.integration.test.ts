/**
 * A platform team's round on an Argo CD ApplicationSet repository whose git
 * directory generator applies every `clusters/*` folder, with a Karpenter
 * v1beta1 GPU pool on Bottlerocket whose node class user data time-slices
 * every GPU 4 ways (`test/fixtures/argocd-appset-bottlerocket-repo`, origins
 * in its README). Validate on the untouched repository, import, bootstrap,
 * then requests and their releases; every request's pods land on the pool
 * the plan chose and on no other.
 */
import { parseAllDocuments } from 'yaml';
import { resolveClusterProfile } from '@gpu-gitops/plugin-gpu-common';
import type { FsRepoTree } from '../../repo/tree';
import { validateGitOpsTree } from '../../validate/validateGitOpsTree';
import {
  bootstrapShape,
  expectLandsOnPlannedPool,
  importShape,
  refusalOf,
  requestThenRelease,
  shapeRequest,
  expectOnlyChanged,
  snapshot,
  withShapeRepository,
  expectOneIssue,
} from './__testUtils__/shapeRound';

// Import, bootstrap, requests and releases each build with the real
// kustomize on a shared CI machine.
jest.setTimeout(240_000);

const POOL_FILE = 'clusters/gpu-east/karpenter/gpu.yaml';

const cluster = resolveClusterProfile({
  name: 'gpu-east',
  provider: 'aws-karpenter',
  karpenterVersion: '1.0.8',
  nodeClass: { group: 'karpenter.k8s.aws', kind: 'EC2NodeClass', name: 'gpu' },
  nodeOverlay: false,
  migStrategy: 'single',
});

const objectsIn = (text: string) =>
  parseAllDocuments(text).map(doc => doc.toJS());

describe('the Argo CD ApplicationSet repository with a Karpenter v1beta1 pool on Bottlerocket', () => {
  let tree: FsRepoTree;
  let original: Record<string, string>;
  withShapeRepository(
    'argocd-appset-bottlerocket-repo',
    'gpu-shape-appset-',
    checkout => {
      ({ tree, original } = checkout);
    },
  );

  it('validate finds nothing wrong in the untouched repository', async () => {
    expect(await validateGitOpsTree(tree.root, { cluster })).toEqual([]);
  });

  it('the import converts the pool to v1 and adopts it as Bottlerocket shares it: 4 time slices per GPU', async () => {
    const imported = await importShape(tree, cluster);
    const objects = objectsIn((await tree.readFile(POOL_FILE))!);
    const pool = objects.find(o => o.kind === 'NodePool');
    const nodeClass = objects.find(o => o.kind === 'EC2NodeClass');
    expect(pool.apiVersion).toBe('karpenter.sh/v1');
    expect(nodeClass.apiVersion).toBe('karpenter.k8s.aws/v1');
    expect(pool.spec.template.spec.nodeClassRef).toEqual({
      group: 'karpenter.k8s.aws',
      kind: 'EC2NodeClass',
      name: 'gpu',
    });
    expect(pool.metadata.annotations).toMatchObject({
      'gpu.backstage.io/sharing-mode': 'time-slicing',
      'gpu.backstage.io/slices-per-gpu': '4',
    });
    expect(imported.changeSet.changes.map(c => c.path)).toEqual([POOL_FILE]);
  });

  it('validate finds nothing wrong once imported, and the import gave back nothing else', async () => {
    expect(await validateGitOpsTree(tree.root, { cluster })).toEqual([]);
    await expectOnlyChanged(tree, original, [POOL_FILE]);
  });

  describe('bootstrapped', () => {
    let bootstrapped: Record<string, string>;
    let notes: string[];
    beforeAll(async () => {
      const bootstrap = await bootstrapShape(tree, cluster);
      notes = bootstrap.changeSet.notes ?? [];
      bootstrapped = bootstrap.bootstrapped;
    });

    it('validate finds nothing wrong once bootstrapped', async () => {
      expect(await validateGitOpsTree(tree.root, { cluster })).toEqual([]);
    });

    it('the bootstrap says whole GPUs are refused: Bottlerocket’s device plugin time-slices every GPU of the pools’ node class', () => {
      expect(notes).toContainEqual(
        expect.stringMatching(
          /^Requests for exclusive are refused: .*Bottlerocket's built-in NVIDIA device plugin .*which shares every GPU \(time-slicing, 4 per GPU, as `nvidia.com\/gpu`/,
        ),
      );
    });

    it.each([
      ['the Job with its own GPU limit', 'nvidia-smi', 'Job', 't4', 8],
      ['the Deployment', 'vision', 'Deployment', 'a10g', 20],
    ])(
      'refuses whole GPUs for %s — a new pool on that node class would give each pod a quarter of a GPU — and writes nothing',
      async (_what, name, kind, model, vramGiB) => {
        const error = await refusalOf(
          tree,
          shapeRequest(name, {
            gpu: { model, sharing: 'exclusive', replicas: 1, vramGiB },
            workload: { existing: { kind, name } },
          }),
          cluster,
        );
        expectOneIssue(error, {
          path: 'spec.gpu.sharing',
          rule: 'device-plugin-shares-by-default',
        });
        expect(error.issues[0].message).toContain(
          'set device-sharing-strategy = "none" in that node class\'s user data',
        );
        expect(await snapshot(tree)).toEqual(bootstrapped);
      },
    );

    it.each([
      ['the Deployment', 'vision', 'Deployment', 'a10g', 5],
      ['the Job with its own GPU limit', 'nvidia-smi', 'Job', 't4', 3.5],
    ])(
      'time-slices %s on the node class’s own 4 slices per GPU: each pod asks for one nvidia.com/gpu slice, lands on the planned pool only, no config or label is written, and the release gives every file back',
      async (_what, name, kind, model, vramGiB) => {
        let whileMerged: Record<string, string> = {};
        const { change, findings } = await requestThenRelease(
          tree,
          shapeRequest(name, {
            gpu: { model, sharing: 'time-slicing', replicas: 2, vramGiB },
            workload: { existing: { kind, name } },
          }),
          cluster,
          async () => {
            whileMerged = await snapshot(tree);
          },
        );
        const { plan } = change;
        expectLandsOnPlannedPool(change);
        expect(findings).toEqual([]);
        expect(plan.resourceName).toBe('nvidia.com/gpu');
        expect(plan.resourcePerReplica).toBe(1);
        expect(plan.sharing).toMatchObject({
          slicesPerGpu: 4,
          sharedByProvider: true,
        });
        expect(
          plan.pool.labels['nvidia.com/device-plugin.config'],
        ).toBeUndefined();
        expect(plan.explanation).toContainEqual(
          expect.stringContaining(
            "Bottlerocket's device plugin advertises each GPU 4 times as nvidia.com/gpu on every node of the class; a replica holds 1 slice (1/4 of a GPU)",
          ),
        );
        const written = Object.entries(whileMerged).filter(
          ([file, text]) => bootstrapped[file] !== text,
        );
        expect(
          written.filter(([, text]) =>
            /nvidia\.com\/device-plugin\.config|sharing:\s*\n\s*timeSlicing/.test(
              text,
            ),
          ),
        ).toEqual([]);
        expect(await snapshot(tree)).toEqual(bootstrapped);
      },
    );

    it.each([
      [
        'more memory than one of its slices holds',
        { vramGiB: 8 },
        'spec.gpu.vramGiB',
        '8.0 GiB per replica does not fit one slice',
      ],
      [
        'other slices per GPU',
        { vramGiB: 4, slicesPerGpu: 2 },
        'spec.gpu.slicesPerGpu',
        'slicesPerGpu 2 cannot run',
      ],
    ])(
      'refuses time-slicing asking for %s, saying what the node class sets, and writes nothing',
      async (_what, asks, path, words) => {
        const error = await refusalOf(
          tree,
          shapeRequest('vision', {
            gpu: {
              model: 'a10g',
              sharing: 'time-slicing',
              replicas: 1,
              ...asks,
            },
            workload: { existing: { kind: 'Deployment', name: 'vision' } },
          }),
          cluster,
        );
        expectOneIssue(error, { path, rule: 'node-class-sharing' });
        expect(error.issues[0].message).toContain(words);
        expect(error.issues[0].message).toContain(
          'whose user data time-slices every GPU 4 ways (time-slicing.replicas = 4), each slice a nvidia.com/gpu',
        );
        expect(await snapshot(tree)).toEqual(bootstrapped);
      },
    );
  });
});

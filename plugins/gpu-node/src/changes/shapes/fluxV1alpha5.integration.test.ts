/**
 * A platform team's round on an EKS repository whose GPU pool was written
 * from the Data on EKS blueprint and whose workloads choose their nodes
 * themselves (`test/fixtures/flux-v1alpha5-repo`, origins in its README): a
 * Deployment in a kustomize base with its overlay's own node affinity, and a
 * plain Job with required affinity on instance family and size. Validate on
 * the untouched repository, import, bootstrap, then requests and their
 * releases; every request's pods land on the pool the plan chose and on no
 * other.
 */
import { parseAllDocuments } from 'yaml';
import type { FsRepoTree } from '../../repo/tree';
import { validateGitOpsTree } from '../../validate/validateGitOpsTree';
import {
  bootstrapShape,
  expectLandsOnPlannedPool,
  importShape,
  karpenterAwsShapeCluster,
  refusalOf,
  requestThenRelease,
  shapeRequest,
  snapshot,
  withShapeRepository,
  expectOneIssue,
  TIME_SLICING_CONFIG_MAP,
} from './__testUtils__/shapeRound';

// Import, bootstrap, requests and releases each build with the real
// kustomize on a shared CI machine.
jest.setTimeout(240_000);

const POOL_FILE = 'clusters/prod/karpenter/nvidia-gpu.yaml';

const cluster = karpenterAwsShapeCluster('prod', 'default', {
  devicePluginConfigMap: TIME_SLICING_CONFIG_MAP,
});

const request = shapeRequest;

const objectsIn = (text: string) =>
  parseAllDocuments(text).map(doc => doc.toJS());
const nodePoolIn = (text: string) =>
  objectsIn(text).find(o => o.kind === 'NodePool');

const STATEFULSET = 'apps/prod/speech/statefulset.yaml';

describe('the Flux repository on Karpenter v1alpha5 with its GPU Operator values in a ConfigMap', () => {
  let tree: FsRepoTree;
  let original: Record<string, string>;
  withShapeRepository('flux-v1alpha5-repo', 'gpu-shape-v1alpha5-', checkout => {
    ({ tree, original } = checkout);
  });

  it('validate says the v1alpha5 objects are not served and the StatefulSet’s GPUs have no pool, and nothing else', async () => {
    const findings = await validateGitOpsTree(tree.root, { cluster });
    expect(findings.map(f => `${f.object} ${f.rule}`).sort()).toEqual([
      'AWSNodeTemplate/default karpenter-api-not-served',
      'Provisioner/nvidia-gpu karpenter-api-not-served',
      'StatefulSet/whisper unserved-resource',
    ]);
  });

  it('the import converts the Provisioner and adopts it time-sliced 4 ways, as the operator’s values from the ConfigMap say', async () => {
    const imported = await importShape(tree, cluster);
    expect(imported.adoptedPools).toEqual([
      expect.objectContaining({
        name: 'nvidia-gpu',
        gpuModel: 't4',
        sharingMode: 'time-slicing',
        slicesPerGpu: 4,
        ledger: 'ml/whisper=2',
      }),
    ]);
    expect(imported.adoptedPools[0].sharingSource).toContain(
      'devicePlugin.config.default in Flux HelmRelease `gpu-operator`',
    );
    const pool = nodePoolIn((await tree.readFile(POOL_FILE))!);
    expect(pool.apiVersion).toBe('karpenter.sh/v1');
  });

  describe('bootstrapped', () => {
    let bootstrapped: Record<string, string>;
    beforeAll(async () => {
      ({ bootstrapped } = await bootstrapShape(tree, cluster));
    });

    it('refuses whole GPUs, naming the values ConfigMap that time-slices them, and writes nothing', async () => {
      const error = await refusalOf(
        tree,
        request('trainer', {
          gpu: { model: 't4', sharing: 'exclusive', replicas: 1, vramGiB: 14 },
          workload: { image: 'ghcr.io/acme/trainer:1.0' },
        }),
        cluster,
      );
      expectOneIssue(error, {
        path: 'spec.gpu.sharing',
        rule: 'device-plugin-shares-by-default',
      });
      expect(error.issues[0].message).toContain(
        '`spec.valuesFrom` ConfigMap `gpu-operator-values` (key `values.yaml`, in `clusters/prod/gpu-operator/values.yaml`)',
      );
      expect(await snapshot(tree)).toEqual(bootstrapped);
    });

    it('a new time-sliced workload lands on the adopted pool only, validates as before, leaves the pool’s template as it was (its nodes already run the operator’s default, and a changed template replaces them), tells Karpenter the slices by NodeOverlays, and its release gives every file back byte for byte', async () => {
      const findingsBefore = await validateGitOpsTree(tree.root, { cluster });
      const templateBefore = nodePoolIn(bootstrapped[POOL_FILE]).spec.template;
      const { change, findings } = await requestThenRelease(
        tree,
        request('embed', {
          gpu: {
            model: 't4',
            sharing: 'time-slicing',
            replicas: 1,
            vramGiB: 3,
            slicesPerGpu: 4,
          },
          workload: { image: 'ghcr.io/acme/embed:1.0' },
        }),
        cluster,
      );
      expect(change.plan.pool.name).toBe('nvidia-gpu');
      expectLandsOnPlannedPool(change, 'nvidia-gpu');
      expect(findings).toEqual(findingsBefore);
      const poolWrite = change.changeSet.changes.find(
        c => c.path === POOL_FILE,
      );
      const poolText =
        poolWrite && 'content' in poolWrite ? poolWrite.content : '';
      expect(poolText).toContain('ml/embed');
      expect(poolText).not.toContain('nvidia.com/device-plugin.config');
      expect(nodePoolIn(poolText).spec.template).toEqual(templateBefore);
      // Karpenter counts 4 slices per GPU of each g4dn size, not 1.
      expect(
        objectsIn(poolText)
          .filter(o => o.kind === 'NodeOverlay')
          .map(o => [
            o.spec.requirements.find(
              (r: { key: string }) =>
                r.key === 'karpenter.k8s.aws/instance-gpu-count',
            ).values,
            o.spec.capacity,
          ]),
      ).toEqual([
        [['1'], { 'nvidia.com/gpu': '4' }],
        [['4'], { 'nvidia.com/gpu': '16' }],
        [['8'], { 'nvidia.com/gpu': '32' }],
      ]);
      expect(await tree.readFile(POOL_FILE)).toBe(bootstrapped[POOL_FILE]);
      expect(await snapshot(tree)).toEqual(bootstrapped);
    });

    it('the imported StatefulSet grows on its pool, its provisioner-name selector taken out while it runs there; its release gives the team’s manifest back', async () => {
      const { change, findings } = await requestThenRelease(
        tree,
        request('whisper', {
          gpu: {
            model: 't4',
            sharing: 'time-slicing',
            replicas: 3,
            vramGiB: 3,
            slicesPerGpu: 4,
          },
          workload: { existing: { kind: 'StatefulSet', name: 'whisper' } },
        }),
        cluster,
      );
      expect(change.plan.pool.name).toBe('nvidia-gpu');
      expectLandsOnPlannedPool(change, 'nvidia-gpu');
      expect(change.plan.warnings.join('\n')).toContain(
        'nodeSelector `karpenter.sh/provisioner-name: nvidia-gpu` is removed',
      );
      expect(findings).toEqual([]);
      expect(await tree.readFile(STATEFULSET)).toBe(original[STATEFULSET]);
    });
  });
});

/**
 * A platform team's whole round on a repository shaped as public ones are
 * (`test/fixtures/flux-blueprints-repo`, origins in its README): import,
 * bootstrap, then requests and their releases. Every request's pods land on
 * the pool the plan chose (verifyChange), and a release gives back every
 * file byte for byte, the team's own style included.
 */
import type { FsRepoTree } from '../../repo/tree';
import {
  bootstrapShape,
  importShape,
  karpenterAwsShapeCluster,
  refusalOf,
  shapeRequest,
  snapshot,
  withShapeRepository,
  expectCleanRound,
  expectOneIssue,
  TIME_SLICING_CONFIG_MAP,
} from './__testUtils__/shapeRound';

// Import, bootstrap, requests and releases each build with the real
// kustomize on a shared CI machine.
jest.setTimeout(240_000);

const NODE_POOL = 'clusters/production/karpenter/gpu-nodepool.yaml';

// The profile the team would write: the device plugin reads the hand-written
// ConfigMap the HelmRelease names, Karpenter has its NodeOverlay gate, and
// the release runs the chart's default MIG strategy.
const cluster = karpenterAwsShapeCluster('production', 'gpu', {
  devicePluginConfigMap: TIME_SLICING_CONFIG_MAP,
});

const request = shapeRequest;

/** NVIDIA's DRA driver (kubernetes-sigs/dra-driver-nvidia-gpu v0.4.1 chart), placed on DRA pools' nodes. */
const DRA_DRIVER = `apiVersion: helm.toolkit.fluxcd.io/v2
kind: HelmRelease
metadata:
  name: dra-driver-nvidia-gpu
  namespace: nvidia-dra-driver-gpu
spec:
  interval: 1h
  chart:
    spec:
      chart: dra-driver-nvidia-gpu
      version: 0.4.1
      sourceRef: {kind: HelmRepository, name: nvidia, namespace: flux-system}
  values:
    gpuResourcesEnabledOverride: true
    kubeletPlugin:
      nodeSelector: {nvidia.com/gpu.deploy.device-plugin: "false"}
      tolerations: [{operator: Exists}]
`;

describe('the Flux repository with the Karpenter GPU blueprint', () => {
  let tree: FsRepoTree;
  let original: Record<string, string>;

  withShapeRepository('flux-blueprints-repo', 'gpu-shape-flux-', checkout => {
    ({ tree, original } = checkout);
  });

  it('the import adds its annotations to the blueprint’s NodePool and leaves every line of it as written', async () => {
    await importShape(tree, cluster);
    const adopted = (await tree.readFile(NODE_POOL))!;
    const added = adopted
      .split('\n')
      .filter(line => !original[NODE_POOL].split('\n').includes(line));
    expect(added).toEqual([
      '  annotations:',
      '    gpu.backstage.io/requests: ""',
      '    gpu.backstage.io/sharing-mode: time-slicing',
      '    gpu.backstage.io/resource-name: nvidia.com/gpu',
      '    gpu.backstage.io/slices-per-gpu: "4"',
      '    gpu.backstage.io/limit-floor: "5"',
    ]);
    expect(adopted.replace(`${added.join('\n')}\n`, '')).toBe(
      original[NODE_POOL],
    );
  });

  describe('bootstrapped', () => {
    let bootstrapped: Record<string, string>;

    beforeAll(async () => {
      await bootstrapShape(tree, cluster);
      // DRA pools need NVIDIA's DRA driver, its kubelet plugin on their nodes
      // only (the GPU Operator's device plugin stays off them by their
      // nvidia.com/gpu.deploy.device-plugin=false label).
      await tree.writeFile('infrastructure/dra-driver.yaml', DRA_DRIVER);
      bootstrapped = await snapshot(tree);
    });

    it('a first request lands on its pool, validates clean, and its release gives back the bootstrap’s GPU folder byte for byte', async () => {
      await expectCleanRound(
        tree,
        request('embedder', {
          gpu: { model: 'l4', sharing: 'dra', replicas: 1, vramGiB: 10 },
          workload: { image: 'ghcr.io/acme/embedder:1.0' },
        }),
        cluster,
        bootstrapped,
      );
    });

    it('refuses whole GPUs, since the GPU Operator’s default config time-slices every GPU of an unlabelled pool, naming the file and setting, and writes nothing', async () => {
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
        "its GPU Operator's default device-plugin config shares every GPU (time-slicing, 4 per GPU, as `nvidia.com/gpu`; `devicePlugin.config.default: any` (key of ConfigMap `time-slicing-config`) in",
      );
      expect(error.issues[0].message).toContain(
        'in `clusters/production/gpu-operator/gpu-operator.yaml` point devicePlugin.config.default at a config without sharing, or label exclusive pools',
      );
      expect(await snapshot(tree)).toEqual(bootstrapped);
    });

    it('the team’s StatefulSet gets time-sliced T4s on the pool the plan chose, and its release gives back the team’s kustomization in its own list style', async () => {
      const { change } = await expectCleanRound(
        tree,
        request('vision', {
          gpu: {
            model: 't4',
            sharing: 'time-slicing',
            replicas: 2,
            vramGiB: 3,
            slicesPerGpu: 4,
          },
          workload: { existing: { kind: 'StatefulSet', name: 'vision' } },
        }),
        cluster,
        bootstrapped,
      );
      expect(change.verification?.verified).toContain('apps/production');
    });
  });
});

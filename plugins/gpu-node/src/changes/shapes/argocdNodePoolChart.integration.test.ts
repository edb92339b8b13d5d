/**
 * A platform team's round on a repository whose GPU NodePool lives in a
 * Helm chart of its own (`test/fixtures/argocd-nodepool-chart-repo`:
 * chanzuckerberg's `karpenter-gpu-nodepool` chart, applied by an Argo CD
 * Application's `source.path`; origins in its README): validate on the
 * untouched repository says where it could not look instead of calling the
 * team's workload unserved; the import, the bootstrap (whose GPU Operator
 * runs no device plugin beside the one the chart renders), then a new
 * workload and the team's own Deployment each land on the pool the plan
 * chose, the chart is never written to, and each release gives every file
 * back; time-slicing, which that plugin cannot switch per pool, is refused.
 */
import {
  isGpuInputError,
  resolveClusterProfile,
} from '@gpu-gitops/plugin-gpu-common';
import { readGpuStack } from '../../repo/gpuStack/readGpuStack';
import type { FsRepoTree } from '../../repo/tree';
import {
  validateGitOpsTree,
  validateGitOpsTreeReport,
} from '../../validate/validateGitOpsTree';
import { clusterReleaseFiles } from '../bootstrap/helmReleases/findHelmReleases';
import {
  bootstrapShape,
  expectLandsOnPlannedPool,
  importShape,
  refusalOf,
  requestThenRelease,
  shapeRequest,
  snapshot,
  withShapeRepository,
} from './__testUtils__/shapeRound';

// The import, the bootstrap, each request and release build with the real kustomize.
jest.setTimeout(300_000);

const cluster = resolveClusterProfile({
  name: 'prod',
  provider: 'aws-karpenter',
  karpenterVersion: '1.8.0',
  nodeClass: { group: 'karpenter.k8s.aws', kind: 'EC2NodeClass', name: 'gpu' },
  nodeOverlay: true,
  migStrategy: 'single',
});

const chartFiles = (files: Record<string, string>) =>
  Object.entries(files).filter(([file]) => file.startsWith('charts/'));

describe('a GPU NodePool kept in a Helm chart folder, applied by an Argo CD Application', () => {
  let tree: FsRepoTree;
  let untouched: Record<string, string>;

  withShapeRepository(
    'argocd-nodepool-chart-repo',
    'gpu-shape-chart-',
    checkout => {
      ({ tree, original: untouched } = checkout);
    },
  );

  it('validate finds nothing wrong in the untouched repository, and notes where the team’s workload may land unchecked', async () => {
    const report = await validateGitOpsTreeReport(tree.root, { cluster });
    expect(report.findings).toEqual([]);
    expect(report.notes).toContainEqual(
      expect.stringContaining(
        "Deployment/trainer lands on no pool the repository's YAML holds, but its pods may land on the nodes of a pool a Helm chart renders (charts/karpenter-gpu-nodepool/templates/nodepool.yaml)",
      ),
    );
  });

  describe('imported and bootstrapped', () => {
    let bootstrapped: Record<string, string>;

    beforeAll(async () => {
      await importShape(tree, cluster);
      ({ bootstrapped } = await bootstrapShape(tree, cluster));
    });

    it('the chart is left as it was', () => {
      expect(chartFiles(bootstrapped)).toEqual(chartFiles(untouched));
    });

    it('validate still finds nothing wrong', async () => {
      expect(await validateGitOpsTree(tree.root, { cluster })).toEqual([]);
    });

    it('the bootstrap’s GPU Operator runs no device plugin beside the one the chart renders', async () => {
      const stack = await readGpuStack(
        tree,
        cluster,
        await clusterReleaseFiles(tree, undefined, cluster.name),
      );
      expect(stack.operatorDevicePluginOff?.setting).toContain(
        '`devicePlugin.enabled: false`',
      );
      expect(stack.devicePlugins).toEqual([
        expect.objectContaining({
          kind: 'standalone',
          setting: expect.stringContaining(
            'the chart `karpenter-gpu-nodepool` renders it',
          ),
        }),
      ]);
    });

    it('refuses time-slicing for the team’s Deployment: the chart’s device plugin reads no per-pool config, and nothing is written', async () => {
      const error = await refusalOf(
        tree,
        shapeRequest('trainer', {
          gpu: {
            model: 'a10g',
            sharing: 'time-slicing',
            replicas: 2,
            vramGiB: 10,
            slicesPerGpu: 2,
          },
          workload: { existing: { kind: 'Deployment', name: 'trainer' } },
        }),
        cluster,
      );
      expect(isGpuInputError(error)).toBe(true);
      expect(error.issues).toEqual([
        expect.objectContaining({
          rule: 'device-plugin-standalone',
          message: expect.stringContaining(
            'the chart `karpenter-gpu-nodepool` renders it',
          ),
        }),
      ]);
      expect(await snapshot(tree)).toEqual(bootstrapped);
    });

    it.each([
      [
        't4-new',
        { model: 't4', sharing: 'exclusive', replicas: 2, vramGiB: 12 },
        { image: 'ghcr.io/acme/t4-new:1.0' },
      ],
      [
        'trainer',
        { model: 'a10g', sharing: 'exclusive', replicas: 2, vramGiB: 10 },
        { existing: { kind: 'Deployment', name: 'trainer' } },
      ],
    ])(
      '%s lands on the planned pool only, validates clean, leaves the chart alone and is released to the byte',
      async (name, gpu, workload) => {
        let whileMerged: Record<string, string> = {};
        const { change, findings } = await requestThenRelease(
          tree,
          shapeRequest(name, { gpu, workload }),
          cluster,
          async () => {
            whileMerged = await snapshot(tree);
          },
        );
        expectLandsOnPlannedPool(change);
        expect(findings).toEqual([]);
        expect(chartFiles(whileMerged)).toEqual(chartFiles(untouched));
        expect(await snapshot(tree)).toEqual(bootstrapped);
      },
    );
  });
});

/**
 * `validate` on a Cluster API management repository (CAPZ's GPU flavor,
 * `test/fixtures/capz-gpu-repo`): the GPU ConfigMaps its root applies to the
 * management cluster must reach the workload Cluster through a
 * ClusterResourceSet, as generated.
 */
import { promises as fs } from 'node:fs';
import path from 'node:path';
import { resolveClusterProfile } from '@gpu-gitops/plugin-gpu-common';
import { buildBootstrapChangeSet } from '../changes/bootstrap/bootstrapChangeSet';
import {
  checkoutShape,
  snapshot,
} from '../changes/shapes/__testUtils__/shapeRound';
import { writeChangeSet } from '../changes/stagedTree';
import type { FsRepoTree } from '../repo/tree';
import { validateGitOpsTree } from './validateGitOpsTree';

jest.setTimeout(120_000);

const cluster = resolveClusterProfile({
  name: 'ml-azure',
  provider: 'cluster-api',
  migStrategy: 'single',
  devicePluginConfigMap: { namespace: 'default' },
  migPartedConfigMap: { namespace: 'default' },
  clusterApi: {
    clusterName: 'ml-azure',
    namespace: 'default',
    infrastructure: 'azure',
    kubernetesVersion: 'v1.33.1',
    autoscaler: false,
    azure: {},
  },
});

const GPU = 'clusters/ml-azure/gpu';
const deliveryRules = async (tree: FsRepoTree) =>
  (await validateGitOpsTree(tree.root, { cluster }))
    .filter(f => f.rule.startsWith('gpu-configs-'))
    .map(f => [f.file, f.object, f.rule]);

describe('GPU ConfigMaps of a Cluster API management root', () => {
  let tree: FsRepoTree;
  let bootstrapped: Record<string, string>;

  beforeAll(async () => {
    tree = await checkoutShape('capz-gpu-repo', 'gpu-validate-capz-');
    // The operator reads the product's ConfigMaps, as the bootstrap says to set.
    await fs.appendFile(
      path.join(tree.root, 'clusters/ml-azure/gpu-operator.yaml'),
      '  valuesTemplate: |\n    devicePlugin:\n      config:\n        name: nvidia-device-plugin-configs\n        default: default\n    migManager:\n      config:\n        name: custom-mig-parted-config\n',
    );
    await writeChangeSet(
      tree,
      await buildBootstrapChangeSet(tree, cluster, {
        operatorChartVersion: 'v26.7.0',
        binPacking: false,
      }),
    );
    bootstrapped = await snapshot(tree);
  });
  afterAll(() => fs.rm(tree.root, { recursive: true, force: true }));

  const restore = async () => {
    for (const [file, text] of Object.entries(bootstrapped)) {
      await fs.writeFile(path.join(tree.root, file), text);
    }
  };

  it('carried to the workload Cluster by the bootstrap’s ClusterResourceSet: no finding', async () => {
    expect(bootstrapped[`${GPU}/workload-cluster.yaml`]).toContain(
      'kind: ClusterResourceSet',
    );
    expect(await deliveryRules(tree)).toEqual([]);
  });

  /** The GPU kustomization as the bootstrap wrote it before it kept the GPU ConfigMaps out of the build. */
  const unmarkGeneratedConfigMaps = async () => {
    const kustomization = path.join(tree.root, GPU, 'kustomization.yaml');
    const text = await fs.readFile(kustomization, 'utf8');
    const unmarked = text.replace(
      /\n {2}annotations:\n {4}config\.kubernetes\.io\/local-config: "true"/,
      '',
    );
    expect(unmarked).not.toBe(text);
    await fs.writeFile(kustomization, unmarked);
  };

  it('applied to the management cluster only (the GPU folder as bootstrapped before): each reported, the fix named', async () => {
    await fs.rm(path.join(tree.root, GPU, 'workload-cluster.yaml'));
    await unmarkGeneratedConfigMaps();
    const kustomization = path.join(tree.root, GPU, 'kustomization.yaml');
    await fs.writeFile(
      kustomization,
      (await fs.readFile(kustomization, 'utf8')).replace(
        /resources:\n {2}- workload-cluster.yaml\n/,
        'resources: []\n',
      ),
    );
    const findings = await validateGitOpsTree(tree.root, { cluster });
    expect(
      findings
        .filter(f => f.rule.startsWith('gpu-configs-'))
        .map(f => [f.file, f.object, f.rule]),
    ).toEqual([
      [
        'clusters/ml-azure/kustomization.yaml',
        'ConfigMap/custom-mig-parted-config',
        'gpu-configs-not-delivered',
      ],
      [
        'clusters/ml-azure/kustomization.yaml',
        'ConfigMap/custom-mig-parted-config',
        'gpu-configs-on-management-cluster',
      ],
      [
        'clusters/ml-azure/kustomization.yaml',
        'ConfigMap/nvidia-device-plugin-configs',
        'gpu-configs-not-delivered',
      ],
      [
        'clusters/ml-azure/kustomization.yaml',
        'ConfigMap/nvidia-device-plugin-configs',
        'gpu-configs-on-management-cluster',
      ],
    ]);
    expect(
      findings.find(f => f.rule === 'gpu-configs-not-delivered')?.message,
    ).toContain('Fix: run the bootstrap again');
    await restore();
  });

  it('carried, and applied to the management cluster as well (a delivery written before the GPU ConfigMaps left the build): each reported', async () => {
    await unmarkGeneratedConfigMaps();
    expect(await deliveryRules(tree)).toEqual([
      [
        'clusters/ml-azure/kustomization.yaml',
        'ConfigMap/custom-mig-parted-config',
        'gpu-configs-on-management-cluster',
      ],
      [
        'clusters/ml-azure/kustomization.yaml',
        'ConfigMap/nvidia-device-plugin-configs',
        'gpu-configs-on-management-cluster',
      ],
    ]);
    await restore();
  });

  it('carried, but an older copy than the root generates: reported as stale', async () => {
    await fs.appendFile(
      path.join(tree.root, GPU, 'device-plugin/default.yaml'),
      'sharing:\n  timeSlicing:\n    resources:\n      - name: nvidia.com/gpu\n        replicas: 2\n',
    );
    expect(await deliveryRules(tree)).toEqual([
      [
        'clusters/ml-azure/kustomization.yaml',
        'ConfigMap/nvidia-device-plugin-configs',
        'gpu-configs-delivery-stale',
      ],
    ]);
    await restore();
  });
});

/**
 * The bootstrap on the imported Karpenter v0.31 setup, whose device plugin
 * and MIG manager read the team's hand-written ConfigMaps in
 * `clusters/legacy/gpu-operator/`: it never replaces the team's files, adopts
 * the GPU Operator release the repository declares, generates no ConfigMap
 * of the team's names, and a request afterwards builds with the real
 * kustomize and validates clean.
 */
import { promises as fs } from 'node:fs';
import path from 'node:path';
import {
  builtinCatalog,
  isGpuInputError,
  parseGpuRequest,
  type ClusterProfile,
} from '@gpu-gitops/plugin-gpu-common';
import { parse } from 'yaml';
import { buildBootstrapChangeSet } from '../changes/bootstrap/bootstrapChangeSet';
import { buildRequestChange } from '../changes/buildRequestChange';
import { writes } from '../changes/__testUtils__/writes';
import { writeChangeSet } from '../changes/stagedTree';
import { kustomizeBuild } from '../kustomize';
import type { FsRepoTree } from '../repo/tree';
import { validateGitOpsTree } from '../validate/validateGitOpsTree';
import { snapshot } from './__testUtils__/fixtureCopies';
import {
  IMPORT_OWNER as OWNER,
  importedCopy,
  importProfile,
} from './__testUtils__/importCluster';
import {
  EXPECTED_LEGACY_SELECTOR_FINDINGS,
  legacySelectorFindings,
} from './__testUtils__/legacySelectorFindings';

// The import, the bootstrap and the request each build with the real
// kustomize on a shared CI machine.
jest.setTimeout(120_000);

const OPTIONS = { operatorChartVersion: 'v26.7.0', binPacking: false };
const OPERATOR_FOLDER = 'clusters/legacy/gpu-operator';

// As the import tests have it: the device plugin reads the team's ConfigMap
// kube-system/nvidia-device-plugin, the MIG manager the team's
// gpu-operator/custom-mig-parted-config (the profile's default name).
const legacy: ClusterProfile = {
  ...importProfile('legacy'),
  devicePluginConfigMap: {
    name: 'nvidia-device-plugin',
    namespace: 'kube-system',
  },
};

/** How the team installs its GPU Operator: an Argo CD Application of the chart, beside the cluster's folder. */
const OPERATOR_APPLICATION = 'argocd/legacy-gpu-operator.yaml';
const OPERATOR_APPLICATION_TEXT = [
  'apiVersion: argoproj.io/v1alpha1',
  'kind: Application',
  'metadata:',
  '  name: legacy-gpu-operator',
  '  namespace: argocd',
  'spec:',
  '  project: platform',
  '  source:',
  '    repoURL: https://helm.ngc.nvidia.com/nvidia',
  '    chart: gpu-operator',
  '    targetRevision: v23.9.2',
  '    helm:',
  '      valuesObject:',
  '        driver: { enabled: false }',
  '        toolkit: { enabled: false }',
  '        mig: { strategy: mixed }',
  '        devicePlugin:',
  '          config: { name: nvidia-device-plugin, default: any }',
  '        migManager:',
  '          config: { name: custom-mig-parted-config }',
  '  destination:',
  '    name: legacy',
  '    namespace: gpu-operator',
  '',
].join('\n');

async function importedLegacy(): Promise<FsRepoTree> {
  return (await importedCopy('v1alpha5-repo', legacy)).tree;
}

describe('bootstrap of the imported v0.31 setup', () => {
  const trees: FsRepoTree[] = [];
  afterAll(() =>
    Promise.all(
      trees.map(tree => fs.rm(tree.root, { recursive: true, force: true })),
    ),
  );

  it('as the fixture has it (no GPU Operator release declared), refuses the team’s kustomization in gpu-operator/, saying what to do, and writes nothing', async () => {
    const tree = await importedLegacy();
    trees.push(tree);
    const before = await snapshot(tree);
    const error = await buildBootstrapChangeSet(tree, legacy, OPTIONS).catch(
      e => e,
    );
    expect(isGpuInputError(error)).toBe(true);
    expect(error.issues).toEqual([
      {
        path: `${OPERATOR_FOLDER}/kustomization.yaml`,
        rule: 'bootstrap-file-not-managed',
        message: `${OPERATOR_FOLDER}/kustomization.yaml exists and the bootstrap did not write it: the bootstrap writes the GPU Operator's Helm release (a kustomize helmCharts entry) there and never replaces a file it did not write. Move it out of ${OPERATOR_FOLDER}/. If this repository installs the GPU Operator, declare it so the bootstrap finds it (a kustomize helmCharts entry, a Flux HelmRelease or an Argo CD Application of the chart "gpu-operator"), then run the bootstrap again: it then writes no release of its own, never edits yours, and says what to set in it.`,
      },
    ]);
    expect(await snapshot(tree)).toEqual(before);
  });

  describe('with its GPU Operator declared', () => {
    let tree: FsRepoTree;
    let before: Record<string, string>;

    beforeAll(async () => {
      tree = await importedLegacy();
      trees.push(tree);
      await tree.writeFile(OPERATOR_APPLICATION, OPERATOR_APPLICATION_TEXT);
      before = await snapshot(tree);
    });

    it('adopts the operator and leaves its ConfigMaps, node class and files byte for byte; the notes say what to set', async () => {
      const changeSet = await buildBootstrapChangeSet(tree, legacy, OPTIONS);
      expect(changeSet.gpuOperatorRelease).toBe('repository');
      // Only the GPU folder's kustomization, listed in the cluster's, and
      // Karpenter's release: no operator release, no ConfigMap generator,
      // no config, no second EC2NodeClass `gpu` (the import converted the
      // team's in karpenter/).
      expect(changeSet.changes.map(c => [c.path, c.action]).sort()).toEqual([
        ['clusters/legacy/gpu/kustomization.yaml', 'create'],
        ['clusters/legacy/karpenter-controller/kustomization.yaml', 'create'],
        ['clusters/legacy/karpenter-controller/values.yaml', 'create'],
        ['clusters/legacy/kustomization.yaml', 'update'],
      ]);
      expect(
        parse(
          writes(changeSet).find(
            c => c.path === 'clusters/legacy/gpu/kustomization.yaml',
          )!.content,
        ),
      ).toEqual({
        apiVersion: 'kustomize.config.k8s.io/v1beta1',
        kind: 'Kustomization',
        resources: [],
      });
      expect(changeSet.notes.slice(0, 5)).toEqual([
        `The GPU Operator is installed by Argo CD Application \`argocd/legacy-gpu-operator\` (\`spec.source\`) in \`${OPERATOR_APPLICATION}\`, chart version v23.9.2, in namespace \`gpu-operator\`; the bootstrap writes no GPU Operator release of its own and never edits this one. As the product needs: \`devicePlugin.config.name: nvidia-device-plugin\`, \`devicePlugin.config.default: any\`, \`devicePlugin.config.create: false\`, \`migManager.config.name: custom-mig-parted-config\`, \`migManager.config.create: false\`, \`mig.strategy: mixed\`, \`daemonsets.tolerations\` (tolerates \`nvidia.com/gpu\`, the chart's default), \`node-feature-discovery.worker.tolerations\` (tolerates \`nvidia.com/gpu\`, the chart's default).`,
        // The fixture keeps its two ConfigMaps in two namespaces; one
        // operator reads both only from its own.
        "**The cluster profile disagrees**: this release runs the operator, and with it the operands that mount its ConfigMaps, in namespace `gpu-operator`, and a pod mounts ConfigMaps of its own namespace only, while `devicePluginConfigMap` of the cluster profile `legacy` (`gpu.clusters.profiles.legacy.devicePluginConfigMap`) is in `kube-system`. Set the profile's `devicePluginConfigMap.namespace` to `gpu-operator`, and move the ConfigMap written by hand in `clusters/legacy/gpu-operator/device-plugin-configs.yaml` there.",
        "The device plugin reads ConfigMap `kube-system/nvidia-device-plugin`, written by hand in `clusters/legacy/gpu-operator/device-plugin-configs.yaml` (the cluster profile's `devicePluginConfigMap`): the bootstrap generates no ConfigMap of that name and writes no `default` config, and the product never edits it. Requests use only its keys: `a100-mig` (whole GPUs), `any` (whole GPUs), `t4-ts-4` (time-slicing, 4 per GPU, as `nvidia.com/gpu.shared`); one that needs another is refused, naming the key and the content to add.",
        "The MIG manager reads ConfigMap `gpu-operator/custom-mig-parted-config`, written by hand in `clusters/legacy/gpu-operator/mig-parted-config.yaml` (the cluster profile's `migPartedConfigMap`): the bootstrap generates no ConfigMap of that name and adds no `all-disabled` entry, and the product never edits it. Requests use only its mig-configs entries: `all-1g.10gb`, `all-disabled`; one that needs another is refused, naming the entry and the content to add.",
        expect.stringContaining('No Karpenter release was found'),
      ]);

      await writeChangeSet(tree, changeSet);
      const after = await snapshot(tree);
      // The cluster's build lists the GPU folder: one line added.
      const root = 'clusters/legacy/kustomization.yaml';
      expect(after[root]).toBe(`${before[root]}  - gpu\n`);
      // Every other file of the team's byte for byte.
      expect({ ...after, [root]: before[root] }).toMatchObject(before);
      // Nothing more to do.
      expect(
        (await buildBootstrapChangeSet(tree, legacy, OPTIONS)).changes,
      ).toEqual([]);
    });

    it('then a time-sliced T4 request reuses the imported pool: kustomize builds the cluster with its GPU folder, and validate is clean', async () => {
      // The bootstrap listed the GPU folder in the cluster's build.
      const request = parseGpuRequest({
        apiVersion: 'gpu.backstage.io/v1alpha1',
        kind: 'GpuRequest',
        metadata: { name: 'summarizer', namespace: 'ml' },
        spec: {
          owner: OWNER,
          gpu: {
            model: 't4',
            sharing: 'time-slicing',
            replicas: 1,
            vramGiB: 3,
          },
          workload: { image: 'ghcr.io/acme/summarizer:1.0' },
          capacityTypes: ['on-demand'],
        },
      });
      const change = await buildRequestChange({
        tree,
        dir: tree.root,
        request,
        cluster: legacy,
        catalog: builtinCatalog,
      });
      expect(change.verification?.unverifiable).toEqual([]);
      expect(change.verification?.verified).toContain('clusters/legacy');
      expect(change.plan.pool).toMatchObject({ name: 'gpu-t4', reused: true });
      expect(change.plan.sharing.handWrittenConfigMap).toMatchObject({
        name: 'nvidia-device-plugin',
        path: `${OPERATOR_FOLDER}/device-plugin-configs.yaml`,
      });
      const touched = change.changeSet.changes.map(c => c.path);
      expect(touched.filter(p => p.startsWith(`${OPERATOR_FOLDER}/`))).toEqual(
        [],
      );
      await writeChangeSet(tree, change.changeSet);

      // Only the imported workloads' own legacy selectors, which the import reported.
      expect(
        legacySelectorFindings(
          await validateGitOpsTree(tree.root, { cluster: legacy }),
        ),
      ).toEqual(EXPECTED_LEGACY_SELECTOR_FINDINGS);
      const built = await kustomizeBuild(
        path.join(tree.root, 'clusters', 'legacy'),
      );
      const named = (kind: string, name: string) =>
        built.filter(o => o.kind === kind && o.metadata.name === name);
      expect(named('NodePool', 'gpu-t4')).toHaveLength(1);
      expect(named('EC2NodeClass', 'gpu')).toHaveLength(1);
      // The team's two ConfigMaps, once each: none of the product's.
      expect(
        built
          .filter(o => o.kind === 'ConfigMap')
          .map(o => o.metadata.name)
          .sort(),
      ).toEqual(['custom-mig-parted-config', 'nvidia-device-plugin']);
      const again = await buildRequestChange({
        tree,
        dir: tree.root,
        request,
        cluster: legacy,
        catalog: builtinCatalog,
      });
      expect(again.changeSet.changes).toEqual([]);
    });
  });
});

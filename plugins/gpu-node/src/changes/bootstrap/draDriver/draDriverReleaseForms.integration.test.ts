/**
 * The bootstrap's DRA driver on the repositories that install their charts
 * with Flux (`test/fixtures/flux-v1alpha5-repo`, `flux-blueprints-repo`)
 * or Argo CD (`argocd-helm-repo`): written as their other charts are, valid
 * against the Flux and Argo CD CRDs at their tags, applied by the cluster's
 * kustomization (built with the real kustomize), recognised on the next
 * run as the bootstrap's own, and publishing the DRA pools' GPUs.
 */
import { promises as fs } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseAllDocuments } from 'yaml';
import { resolveClusterProfile } from '@gpu-gitops/plugin-gpu-common';
import { crdSchemaErrors } from '@gpu-gitops/plugin-gpu-common/src/manifests/__testUtils__/crdSchemas';
import { kustomizeBuild } from '../../../kustomize/build';
import { readGpuStack } from '../../../repo/gpuStack/readGpuStack';
import { FsRepoTree } from '../../../repo/tree';
import { validateGitOpsTree } from '../../../validate/validateGitOpsTree';
import { writeChangeSet } from '../../stagedTree';
import { buildBootstrapChangeSet } from '../bootstrapChangeSet';
import { clusterReleaseFiles } from '../helmReleases/findHelmReleases';

// The real kustomize builds each cluster folder on a shared CI machine.
jest.setTimeout(120_000);

const FIXTURES = path.join(__dirname, '../../../../../../test/fixtures');
const CRDS = path.join(__dirname, '__fixtures__/crds');
const SCHEMAS: Record<string, string> = {
  HelmRepository:
    'flux-source-controller-v1.9.1_source.toolkit.fluxcd.io_helmrepositories.yaml',
  HelmRelease:
    'flux-helm-controller-v1.6.3_helm.toolkit.fluxcd.io_helmreleases.yaml',
  Application: 'argo-cd-v3.5.1_argoproj.io_applications.yaml',
};

const profile = (name: string) =>
  resolveClusterProfile({
    name,
    provider: 'aws-karpenter',
    karpenterVersion: '1.15.1',
    kubernetesVersion: '1.36.2',
    nodeClass: {
      group: 'karpenter.k8s.aws',
      kind: 'EC2NodeClass',
      name: 'gpu',
    },
    devicePluginConfigMap: {
      name: 'time-slicing-config',
      namespace: 'gpu-operator',
    },
    nodeOverlay: true,
    migStrategy: 'single',
    dra: { karpenterNvidiaGate: true, consumableShares: 4 },
  });

const objectsIn = (text: string) =>
  parseAllDocuments(text).map(doc => doc.toJS());

describe.each([
  ['flux-v1alpha5-repo', 'prod', ['HelmRepository', 'HelmRelease']],
  ['flux-blueprints-repo', 'production', ['HelmRepository', 'HelmRelease']],
  ['argocd-helm-repo', 'prod', ['Application']],
])('the DRA driver on %s', (fixture, clusterName, kinds) => {
  const cluster = profile(clusterName);
  const folder = `clusters/${clusterName}/dra-driver`;
  let tree: FsRepoTree;
  let notes: string[];
  beforeAll(async () => {
    const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'gpu-dra-form-'));
    await fs.cp(path.join(FIXTURES, fixture), dir, { recursive: true });
    tree = new FsRepoTree(dir);
    const change = await buildBootstrapChangeSet(tree, cluster, {
      operatorChartVersion: 'v26.7.0',
      binPacking: false,
    });
    notes = change.notes;
    await writeChangeSet(tree, change);
  });
  afterAll(() => fs.rm(tree.root, { recursive: true, force: true }));

  it('is written as the repository installs its charts, valid against their CRDs', async () => {
    const objects = objectsIn((await tree.readFile(`${folder}/release.yaml`))!);
    expect(objects.map(o => o.kind)).toEqual(kinds);
    for (const object of objects) {
      expect(
        crdSchemaErrors(object, path.join(CRDS, SCHEMAS[object.kind])),
      ).toEqual([]);
    }
    const release = objects.find(o => o.kind !== 'HelmRepository');
    const chart = release.spec.chart?.spec ?? release.spec.source;
    expect(chart.chart).toBe('dra-driver-nvidia-gpu');
    expect(chart.version ?? chart.targetRevision).toBe('0.5.0');
    const values = release.spec.values ?? release.spec.source.helm.valuesObject;
    expect(values.gpuResourcesEnabledOverride).toBe(true);
    expect(values.featureGates).toEqual({ ConsumableShares: true });
    if (kinds.includes('HelmRepository')) {
      expect(objects[0].spec).toMatchObject({
        type: 'oci',
        url: 'oci://registry.k8s.io/dra-driver-nvidia/charts',
      });
      expect(release.spec.chart.spec.sourceRef.name).toBe(
        objects[0].metadata.name,
      );
    } else {
      expect(release.spec.source.repoURL).toBe(
        'registry.k8s.io/dra-driver-nvidia/charts',
      );
    }
    // No chart for kustomize to inflate, so no to-do to apply it by hand.
    const kustomization = objectsIn(
      (await tree.readFile(`${folder}/kustomization.yaml`))!,
    )[0];
    expect(kustomization.helmCharts).toBeUndefined();
    expect(
      notes.filter(n => n.includes(folder) && n.startsWith('**To do**')),
    ).toEqual([]);
  });

  it("is applied with the cluster's folder", async () => {
    const built = await kustomizeBuild(
      path.join(tree.root, `clusters/${clusterName}`),
    );
    expect(
      built
        .filter(o => o.metadata.name === 'dra-driver-nvidia-gpu')
        .map(o => o.kind),
    ).toEqual(kinds.filter(k => k !== 'HelmRepository'));
  });

  it('gives validate nothing to report', async () => {
    const findings = await validateGitOpsTree(tree.root, { cluster });
    expect(findings.filter(f => f.file.startsWith(folder))).toEqual([]);
  });

  it("is the bootstrap's own on the next run, and publishes the DRA pools' GPUs", async () => {
    const again = await buildBootstrapChangeSet(tree, cluster, {
      operatorChartVersion: 'v26.7.0',
      binPacking: false,
    });
    expect(again.changes.filter(c => c.path.startsWith(folder))).toEqual([]);
    expect(again.notes.filter(n => n.includes('a second time'))).toEqual([]);
    const stack = await readGpuStack(
      tree,
      cluster,
      await clusterReleaseFiles(tree, undefined, cluster.name),
    );
    const drivers = (stack.draDrivers ?? []).filter(d =>
      d.file.startsWith(folder),
    );
    expect(drivers.map(d => d.servesGpus)).toEqual([true]);
  });
});

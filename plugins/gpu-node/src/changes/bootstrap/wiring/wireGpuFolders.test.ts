/**
 * The bootstrap wires what it writes into what applies the cluster, on
 * repositories shaped like Argo CD app-of-apps and Flux layouts: the
 * cluster's kustomization lists the GPU folder (one line added, the team's
 * file otherwise byte for byte, and the real kustomize builds it with the
 * GPU ConfigMaps), and where an Argo CD Application or Flux Kustomization
 * does not apply it the notes name the object, its file and field.
 */
import path from 'node:path';
import { resolveClusterProfile } from '@gpu-gitops/plugin-gpu-common';
import { kustomizeBuild } from '../../../kustomize/build';
import { FsRepoTree, MemoryRepoTree } from '../../../repo/tree';
import { removeTempRepo, writeTempRepo } from '../../__fixtures__/gitopsRepo';
import { writeChangeSet } from '../../stagedTree';
import { buildBootstrapChangeSet } from '../bootstrapChangeSet';

jest.setTimeout(60_000);

const cluster = resolveClusterProfile({ name: 'prod' });
const OPTIONS = { operatorChartVersion: 'v26.7.0', binPacking: false };

/** The team's cluster kustomization: comments, `./` entries, dashes at the key's indent. */
const CLUSTER_KUSTOMIZATION = `# Everything Argo CD syncs to prod.
apiVersion: kustomize.config.k8s.io/v1beta1
kind: Kustomization
resources:
- ./namespaces.yaml   # keep first
- ./monitoring
`;

const NAMESPACES =
  'apiVersion: v1\nkind: Namespace\nmetadata:\n  name: gpu-operator\n';
const MONITORING = {
  'clusters/prod/monitoring/kustomization.yaml': 'resources:\n  - ns.yaml\n',
  'clusters/prod/monitoring/ns.yaml':
    'apiVersion: v1\nkind: Namespace\nmetadata:\n  name: monitoring\n',
};

const argoApplication = (
  name: string,
  source: string,
) => `apiVersion: argoproj.io/v1alpha1
kind: Application
metadata:
  name: ${name}
  namespace: argocd
spec:
  project: default
  destination:
    server: https://kubernetes.default.svc
  source:
    repoURL: https://github.com/example/platform-gitops.git
    targetRevision: main
${source}
  syncPolicy:
    automated: { prune: true }
`;

/** The app-of-apps root and its child for the cluster's folder. */
const APP_OF_APPS = {
  'argocd/root.yaml': argoApplication('root', '    path: argocd/apps'),
  'argocd/apps/prod.yaml': argoApplication('prod', '    path: clusters/prod'),
};

const fluxKustomization = (
  name: string,
  spec: string,
) => `apiVersion: kustomize.toolkit.fluxcd.io/v1
kind: Kustomization
metadata:
  name: ${name}
  namespace: flux-system
spec:
  interval: 10m0s
${spec}
  prune: true
  sourceRef:
    kind: GitRepository
    name: flux-system
`;

async function bootstrap(files: Record<string, string>) {
  const tree = new MemoryRepoTree(files);
  const changeSet = await buildBootstrapChangeSet(tree, cluster, OPTIONS);
  await writeChangeSet(tree, changeSet);
  return { tree, changeSet, notes: changeSet.notes };
}

const toDo = (notes: string[]) => notes.filter(n => n.startsWith('**To do**'));

describe('Argo CD app-of-apps syncing the cluster folder', () => {
  const dirs: string[] = [];
  afterAll(() => Promise.all(dirs.map(removeTempRepo)));

  it("lists the GPU folder in the cluster's kustomization with one line, which the real kustomize builds with the GPU ConfigMaps", async () => {
    const { tree, changeSet, notes } = await bootstrap({
      ...APP_OF_APPS,
      'clusters/prod/kustomization.yaml': CLUSTER_KUSTOMIZATION,
      'clusters/prod/namespaces.yaml': NAMESPACES,
      ...MONITORING,
    });
    const after = (await tree.readFile('clusters/prod/kustomization.yaml'))!;
    expect(after).toBe(`${CLUSTER_KUSTOMIZATION}- gpu\n`);
    expect(changeSet.changes.map(c => c.path)).toContain(
      'clusters/prod/kustomization.yaml',
    );
    expect(notes).toContainEqual(
      'Lists `gpu` in the `resources` of `clusters/prod/kustomization.yaml` (one line each; nothing else in that file changes), so what applies `clusters/prod/` applies the GPU folder.',
    );
    // The charts (GPU Operator, Karpenter) are not built by the cluster's
    // kustomization: listing them would fail that whole build without
    // --enable-helm.
    expect(toDo(notes)).toEqual([
      expect.stringContaining(
        "**To do**: the GPU Operator's release `clusters/prod/gpu-operator/` inflates a Helm chart (kustomize `helmCharts`). It is not listed in `clusters/prod/kustomization.yaml`: nothing that file builds inflates a Helm chart",
      ),
      expect.stringContaining(
        "**To do**: Karpenter's release `clusters/prod/karpenter-controller/` inflates a Helm chart",
      ),
    ]);
    expect(toDo(notes)[0]).toContain(
      'an Argo CD Application with `spec.source.path: clusters/prod/gpu-operator`, and `kustomize.buildOptions: --enable-helm` in `argocd-cm`',
    );

    // On disk, the cluster's root builds with the GPU folder in it.
    const dir = await writeTempRepo(Object.fromEntries(tree.files));
    dirs.push(dir);
    const built = await kustomizeBuild(path.join(dir, 'clusters/prod'));
    expect(
      built.filter(o => o.kind === 'ConfigMap').map(o => o.metadata.name),
    ).toEqual(
      expect.arrayContaining([
        cluster.devicePluginConfigMap.name,
        cluster.migPartedConfigMap.name,
      ]),
    );
    expect(built.map(o => o.kind)).toContain('EC2NodeClass');

    // Run again: nothing to add.
    const again = await buildBootstrapChangeSet(
      new FsRepoTree(dir),
      cluster,
      OPTIONS,
    );
    expect(again.changes).toEqual([]);
  });

  it('also lists the GPU Operator release when the cluster build inflates Helm charts already', async () => {
    const { tree } = await bootstrap({
      ...APP_OF_APPS,
      'clusters/prod/kustomization.yaml':
        'resources: [namespaces.yaml, cert-manager]\n',
      'clusters/prod/namespaces.yaml': NAMESPACES,
      'clusters/prod/cert-manager/kustomization.yaml':
        'helmCharts:\n  - name: cert-manager\n    repo: https://charts.jetstack.io\n    version: v1.16.1\n',
    });
    expect(await tree.readFile('clusters/prod/kustomization.yaml')).toBe(
      'resources: [namespaces.yaml, cert-manager, gpu, gpu-operator, karpenter-controller]\n',
    );
  });

  it('an Application of the cluster’s apps folder only: names it, its file and field, and the line to add', async () => {
    const { tree, notes } = await bootstrap({
      'argocd/apps/prod-apps.yaml': argoApplication(
        'prod-apps',
        '    path: clusters/prod/apps',
      ),
      'clusters/prod/apps/kustomization.yaml': 'resources:\n  - ns.yaml\n',
      'clusters/prod/apps/ns.yaml': NAMESPACES,
    });
    // No kustomization of the cluster's folder to list it in.
    expect(await tree.readFile('clusters/prod/kustomization.yaml')).toBe(
      undefined,
    );
    expect(toDo(notes)).toContainEqual(
      '**To do**: the GPU folder `clusters/prod/gpu/` is not applied by Argo CD Application `argocd/prod-apps` in `argocd/apps/prod-apps.yaml`: its `spec.source.path: clusters/prod/apps` builds `clusters/prod/apps`, which does not reach `clusters/prod/gpu/`. To apply it, add `../gpu` to the `resources` of `clusters/prod/apps/kustomization.yaml`, or add an Argo CD Application per folder (a copy of this one with `spec.source.path: <folder>`) for `clusters/prod/gpu/`.',
    );
  });

  it('a directory source of the cluster’s folder (no kustomization, not recursive): says Argo CD never builds the GPU kustomization', async () => {
    const { notes } = await bootstrap({
      'argocd/apps/prod.yaml': argoApplication(
        'prod',
        '    path: clusters/prod\n    directory:\n      recurse: false',
      ),
      'clusters/prod/namespaces.yaml': NAMESPACES,
    });
    expect(toDo(notes)).toContainEqual(
      '**To do**: the GPU folder `clusters/prod/gpu/` is not applied by Argo CD Application `argocd/prod` in `argocd/apps/prod.yaml`: its `spec.source.path: clusters/prod` has no kustomization, so Argo CD applies it as a directory of plain manifests and never builds a kustomization below it. To apply it, add an Argo CD Application per folder (a copy of this one with `spec.source.path: <folder>`) for `clusters/prod/gpu/`.',
    );
  });
});

describe('Flux layouts', () => {
  const gotkSync = (spec: string) => ({
    'clusters/prod/flux-system/gotk-sync.yaml': fluxKustomization(
      'flux-system',
      spec,
    ),
  });

  it('a Flux Kustomization of the cluster folder without kustomization.yaml applies the GPU folder (Flux generates one); the GPU Operator chart needs a HelmRelease', async () => {
    const { notes } = await bootstrap({
      ...gotkSync('  path: ./clusters/prod'),
      'clusters/prod/namespaces.yaml': NAMESPACES,
    });
    expect(notes.filter(n => n.includes('`clusters/prod/gpu/`'))).toEqual([]);
    expect(toDo(notes)).toEqual(
      ['gpu-operator', 'karpenter-controller'].map(folder =>
        expect.stringContaining(
          `\`clusters/prod/${folder}/\` inflates a Helm chart (kustomize \`helmCharts\`). Flux cannot build it: install the chart with a Flux HelmRelease instead (the bootstrap then adopts it and writes no release of its own) and remove the folder.`,
        ),
      ),
    );
  });

  it('a cluster kustomization Flux applies: the GPU folder is listed, the GPU Operator chart is not', async () => {
    const kustomization =
      'apiVersion: kustomize.config.k8s.io/v1beta1\nkind: Kustomization\nresources:\n  - flux-system\n  - namespaces.yaml\n';
    const { tree, notes } = await bootstrap({
      ...gotkSync('  path: ./clusters/prod'),
      'clusters/prod/kustomization.yaml': kustomization,
      'clusters/prod/flux-system/kustomization.yaml':
        'resources:\n  - gotk-sync.yaml\n',
      'clusters/prod/namespaces.yaml': NAMESPACES,
    });
    expect(await tree.readFile('clusters/prod/kustomization.yaml')).toBe(
      `${kustomization}  - gpu\n`,
    );
    expect(toDo(notes)).toEqual(
      ['gpu-operator', 'karpenter-controller'].map(folder =>
        expect.stringContaining(
          `\`clusters/prod/${folder}/\` inflates a Helm chart (kustomize \`helmCharts\`). It is not listed in \`clusters/prod/kustomization.yaml\`: Flux's kustomize-controller never inflates Helm charts`,
        ),
      ),
    );
  });

  it('a Flux Kustomization of another folder of the cluster: names it and its spec.path', async () => {
    const { notes } = await bootstrap({
      'clusters/prod/flux-system/apps.yaml': fluxKustomization(
        'apps',
        '  path: ./clusters/prod/apps',
      ),
      'clusters/prod/apps/ns.yaml': NAMESPACES,
    });
    expect(toDo(notes)).toContainEqual(
      '**To do**: the GPU folder `clusters/prod/gpu/` is not applied by Flux Kustomization `flux-system/apps` in `clusters/prod/flux-system/apps.yaml`: its `spec.path: clusters/prod/apps` does not hold `clusters/prod/gpu/`. To apply it, add a Flux Kustomization per folder (a copy of this one with `spec.path: ./<folder>`) for `clusters/prod/gpu/`.',
    );
  });
});

describe('a repository where nothing applies the cluster folder', () => {
  it('says so, naming the folders to apply', async () => {
    const { notes } = await bootstrap({});
    expect(toDo(notes)).toContainEqual(
      '**To do**: nothing in this repository applies `clusters/prod/` (it has no kustomization, and no Argo CD Application or Flux Kustomization names it or a folder above it): make sure what syncs cluster `prod` applies `clusters/prod/gpu/`.',
    );
  });
});

describe('Argo CD ApplicationSets with a git generator', () => {
  /** An ApplicationSet making one Application per folder its git generator finds (argo-cd docs, Generators-Git). */
  const applicationSet = (
    generator: string,
  ) => `apiVersion: argoproj.io/v1alpha1
kind: ApplicationSet
metadata:
  name: cluster-folders
  namespace: argocd
spec:
  goTemplate: true
  generators:
    - git:
        repoURL: https://github.com/example/platform-gitops.git
        revision: HEAD
${generator}
  template:
    metadata:
      name: '{{.path.basename}}'
    spec:
      project: default
      source:
        repoURL: https://github.com/example/platform-gitops.git
        targetRevision: HEAD
        path: '{{.path.path}}'
      destination:
        server: https://kubernetes.default.svc
`;
  const APPS = {
    'clusters/prod/apps/kustomization.yaml': 'resources:\n  - ns.yaml\n',
    'clusters/prod/apps/ns.yaml': NAMESPACES,
  };

  it('a directories glob that matches the GPU folder: says it is picked up, and asks nothing', async () => {
    const { notes } = await bootstrap({
      ...APPS,
      'argocd/cluster-folders.yaml': applicationSet(
        '        directories:\n          - path: clusters/*/*',
      ),
    });
    expect(notes).toContainEqual(
      'Argo CD ApplicationSet `argocd/cluster-folders` in `argocd/cluster-folders.yaml` picks up the GPU folder `clusters/prod/gpu/`: its `spec.generators[0].git.directories` glob `clusters/*/*` matches it, so it makes an Application for it.',
    );
    expect(toDo(notes).filter(n => n.includes('clusters/prod/gpu/'))).toEqual(
      [],
    );
  });

  it('globs that leave it out (or exclude it): names the set, its generator field and the entry to add, once', async () => {
    for (const generator of [
      '        directories:\n          - path: clusters/prod/apps',
      '        directories:\n          - path: clusters/*/*\n          - path: clusters/*/gpu\n            exclude: true',
    ]) {
      const { notes } = await bootstrap({
        ...APPS,
        'argocd/cluster-folders.yaml': applicationSet(generator),
      });
      const about = toDo(notes).filter(n => n.includes('ApplicationSet'));
      expect(about).toHaveLength(1);
      expect(about[0]).toMatch(
        /^\*\*To do\*\*: the GPU folder `clusters\/prod\/gpu\/` is not picked up by Argo CD ApplicationSet `argocd\/cluster-folders` in `argocd\/cluster-folders.yaml`: the globs of its `spec.generators\[0\].git.directories` \(`clusters\/[^)]*`\) do not match it, and none of the Applications it makes reaches it. To apply it, add `- path: clusters\/prod\/gpu` to its `spec.generators\[0\].git.directories`/,
      );
    }
  });
});

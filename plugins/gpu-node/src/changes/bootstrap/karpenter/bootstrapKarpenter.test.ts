/**
 * The bootstrap's Karpenter step end to end, on a repository on disk:
 * the release it writes (checked against the upstream chart's values and
 * built by `validate` and the real kustomize), the release it keeps, and
 * the hand-written releases it never touches but reports on.
 */
import { promises as fs } from 'node:fs';
import path from 'node:path';
import { parse } from 'yaml';
import {
  isGpuInputError,
  resolveClusterProfile,
  type ClusterProfileOverride,
} from '@gpu-gitops/plugin-gpu-common';
import { kustomizeBuild } from '../../../kustomize/build';
import { buildKustomizationRoot } from '../../../kustomize/buildRoot';
import { readKustomizationGraph } from '../../../kustomize/roots';
import { FsRepoTree } from '../../../repo/tree';
import { validateGitOpsTreeReport } from '../../../validate/validateGitOpsTree';
import { removeTempRepo, writeTempRepo } from '../../__fixtures__/gitopsRepo';
import { writes } from '../../__testUtils__/writes';
import { writeChangeSet } from '../../stagedTree';
import { buildBootstrapChangeSet } from '../bootstrapChangeSet';
import {
  upstreamChartValues,
  valuesNotInChart,
} from './__testUtils__/upstreamChartValues';
import { otherThanWiring } from '../../__testUtils__/otherThanWiring';

// Real kustomize builds of every root on a shared CI machine.
jest.setTimeout(120_000);

const OPTIONS = { operatorChartVersion: 'v26.7.0', binPacking: false };
const RELEASE = 'clusters/prod/karpenter-controller';
/** What the repository holds before the bootstrap, in every case: a cluster folder. */
const CLUSTER_FOLDER = {
  'clusters/prod/kustomization.yaml':
    'apiVersion: kustomize.config.k8s.io/v1beta1\nkind: Kustomization\nresources: []\n',
};

const dirs: string[] = [];
afterAll(async () => {
  await Promise.all(dirs.map(removeTempRepo));
});

async function repo(files: Record<string, string> = {}) {
  const dir = await writeTempRepo({ ...CLUSTER_FOLDER, ...files });
  dirs.push(dir);
  return { dir, tree: new FsRepoTree(dir) };
}

function profile(override: ClusterProfileOverride = {}) {
  return resolveClusterProfile({
    name: 'prod',
    karpenterVersion: '1.14.1',
    ...override,
  });
}

async function bootstrap(
  tree: FsRepoTree,
  override: ClusterProfileOverride = {},
) {
  return buildBootstrapChangeSet(tree, profile(override), OPTIONS);
}

function contentOf(
  changeSet: Awaited<ReturnType<typeof bootstrap>>,
  file: string,
) {
  return writes(changeSet).find(c => c.path === file)?.content;
}

describe('bootstrap of a cluster whose repository installs no Karpenter', () => {
  it('writes a Karpenter release pinned to the profile’s version with the gate on, which validate and kustomize accept', async () => {
    const { dir, tree } = await repo();
    const changeSet = await bootstrap(tree);

    const kustomization = parse(
      contentOf(changeSet, `${RELEASE}/kustomization.yaml`)!,
    );
    expect(kustomization.helmCharts).toEqual([
      {
        name: 'karpenter',
        repo: 'oci://public.ecr.aws/karpenter',
        version: '1.14.1',
        releaseName: 'karpenter',
        namespace: 'kube-system',
        includeCRDs: true,
        valuesFile: 'values.yaml',
      },
    ]);
    const valuesText = contentOf(changeSet, `${RELEASE}/values.yaml`)!;
    const values = parse(valuesText);
    expect(values).toEqual({
      settings: { clusterName: '', featureGates: { nodeOverlay: true } },
    });
    expect(valuesText).toContain(
      "# REQUIRED before the first sync: the EKS cluster's name; the chart refuses to render without it.",
    );
    // Every key written is one the chart declares, with its type.
    expect(
      valuesNotInChart(values, upstreamChartValues('aws-karpenter')),
    ).toEqual([]);

    expect(otherThanWiring(changeSet.notes)).toEqual([
      expect.stringContaining(
        `No Karpenter release was found in the repository, so this pull request adds one in \`${RELEASE}/\`: chart \`karpenter\` 1.14.1 from \`oci://public.ecr.aws/karpenter\` in \`kube-system\`, with \`settings.featureGates.nodeOverlay: true\``,
      ),
      expect.stringContaining(
        `**Before it syncs**: set \`settings.clusterName\` (the EKS cluster's name; the chart refuses to render without it) in \`${RELEASE}/values.yaml\``,
      ),
    ]);

    await writeChangeSet(tree, changeSet);
    const report = await validateGitOpsTreeReport(dir);
    expect(report.findings).toEqual([]);
    expect(otherThanWiring(report.notes)).toContain(
      `${RELEASE} was built without the Helm charts of ${RELEASE}: kustomize inflates them only with --enable-helm, a helm binary and the charts' repositories (pass --enable-helm where those are at hand)`,
    );
    const built = await buildKustomizationRoot(
      dir,
      await readKustomizationGraph(dir),
      RELEASE,
    );
    expect(built).toEqual({ objects: [], chartsLeftOut: [RELEASE] });

    // Idempotent: nothing to change, and still the reminder.
    const again = await bootstrap(tree);
    expect(again.changes).toEqual([]);
    expect(otherThanWiring(again.notes)).toEqual([
      `The bootstrap's Karpenter release in \`${RELEASE}/\` pins 1.14.1 and sets \`settings.featureGates.nodeOverlay: true\`, as the cluster profile says.`,
      `**Before it syncs**: set \`settings.clusterName\` (the EKS cluster's name; the chart refuses to render without it) in \`${RELEASE}/values.yaml\`.`,
    ]);
  });

  it('writes a kustomization the real kustomize takes, handing helm the chart, version, namespace and values', async () => {
    const { dir, tree } = await repo();
    await writeChangeSet(tree, await bootstrap(tree));
    // kustomize 4.5.4 decodes a kustomization strictly (an unknown helmCharts
    // field fails the build) and then runs `helm`: a stand-in records what
    // it is asked, so the chart is never fetched.
    const bin = path.join(dir, '.bin');
    await fs.mkdir(bin);
    await fs.writeFile(
      path.join(bin, 'helm'),
      [
        '#!/bin/sh',
        'printf "%s\\n" "$*" >> "$HELM_CALLS"',
        'if [ "$1" = version ]; then echo v3.14.4; exit 0; fi',
        'while [ $# -gt 0 ]; do',
        '  if [ "$1" = --values ]; then cp "$2" "$HELM_VALUES"; fi',
        '  shift',
        'done',
        '',
      ].join('\n'),
      { mode: 0o755 },
    );
    const calls = path.join(dir, '.helm-calls');
    const handedValues = path.join(dir, '.helm-values.yaml');
    const root = path.join(dir, RELEASE);
    const built = await kustomizeBuild(root, {
      enableHelm: true,
      env: {
        ...process.env,
        PATH: `${bin}${path.delimiter}${process.env.PATH}`,
        HELM_CALLS: calls,
        HELM_VALUES: handedValues,
      },
    });
    expect(built).toEqual([]);
    const charts = path.join(root, 'charts');
    const [version, pull, template] = (await fs.readFile(calls, 'utf8'))
      .trim()
      .split('\n');
    expect(version).toBe('version -c --short');
    // kustomize 4.5.4's pull; v5.2.0 and later pull an oci:// repository as
    // `helm pull oci://public.ecr.aws/karpenter/karpenter`.
    expect(pull).toBe(
      `pull --untar --untardir ${charts} --repo oci://public.ecr.aws/karpenter karpenter --version 1.14.1`,
    );
    const [templateArgs, valuesArg] = template.split(' --values ');
    expect(templateArgs).toBe(
      `template karpenter --namespace kube-system ${charts}/karpenter`,
    );
    expect(valuesArg.endsWith(' --include-crds')).toBe(true);
    expect(parse(await fs.readFile(handedValues, 'utf8'))).toEqual(
      parse(await fs.readFile(path.join(root, 'values.yaml'), 'utf8')),
    );
  });

  it('writes the Azure chart for an azure-karpenter cluster, its version without the v', async () => {
    const { tree } = await repo();
    const changeSet = await bootstrap(tree, {
      provider: 'azure-karpenter',
      karpenterVersion: 'v1.14.2',
    });
    const entry = parse(contentOf(changeSet, `${RELEASE}/kustomization.yaml`)!)
      .helmCharts[0];
    expect(entry).toMatchObject({
      repo: 'oci://mcr.microsoft.com/aks/karpenter',
      version: '1.14.2',
      namespace: 'kube-system',
    });
    const values = parse(contentOf(changeSet, `${RELEASE}/values.yaml`)!);
    expect(values).toEqual({
      settings: { featureGates: { nodeOverlay: true } },
    });
    expect(
      valuesNotInChart(values, upstreamChartValues('azure-karpenter')),
    ).toEqual([]);
    expect(otherThanWiring(changeSet.notes).join('\n')).toContain(
      "**Before it syncs**: add the AKS cluster's own values",
    );
  });

  it('writes the gate off when the profile says nodeOverlay: false, and says what that refuses', async () => {
    const { tree } = await repo();
    const changeSet = await bootstrap(tree, { nodeOverlay: false });
    expect(
      parse(contentOf(changeSet, `${RELEASE}/values.yaml`)!).settings
        .featureGates,
    ).toEqual({ nodeOverlay: false });
    expect(otherThanWiring(changeSet.notes)).toContain(
      '`nodeOverlay` of the cluster profile `prod` (`gpu.clusters.profiles.prod.nodeOverlay`) is `false`: time-slicing, MPS and mixed-strategy MIG requests are refused for this cluster until it is `true` and the bootstrap runs again.',
    );
  });

  it('keeps what the platform team filled in, and follows the profile’s new version and gate', async () => {
    const { dir, tree } = await repo();
    await writeChangeSet(tree, await bootstrap(tree));
    const valuesPath = path.join(dir, RELEASE, 'values.yaml');
    const filledIn = (await fs.readFile(valuesPath, 'utf8'))
      .replace('clusterName: ""', 'clusterName: prod-eks # the EKS name')
      .concat(
        'serviceAccount:\n  annotations:\n    eks.amazonaws.com/role-arn: arn:aws:iam::111122223333:role/prod-karpenter\n',
      );
    await fs.writeFile(valuesPath, filledIn);
    const kustomizationBefore = await fs.readFile(
      path.join(dir, RELEASE, 'kustomization.yaml'),
      'utf8',
    );

    const changeSet = await bootstrap(tree, {
      karpenterVersion: '1.15.0',
      nodeOverlay: false,
    });
    expect(changeSet.changes.map(c => c.path)).toEqual([
      `${RELEASE}/kustomization.yaml`,
      `${RELEASE}/values.yaml`,
    ]);
    // Only the version changes in the kustomization, only the gate in the values.
    expect(contentOf(changeSet, `${RELEASE}/kustomization.yaml`)).toBe(
      kustomizationBefore.replace('version: 1.14.1', 'version: 1.15.0'),
    );
    expect(contentOf(changeSet, `${RELEASE}/values.yaml`)).toBe(
      filledIn.replace('nodeOverlay: true', 'nodeOverlay: false'),
    );
    expect(otherThanWiring(changeSet.notes)[0]).toBe(
      `The bootstrap's Karpenter release in \`${RELEASE}/\` now pins 1.15.0 (was 1.14.1) and sets \`settings.featureGates.nodeOverlay: false\` (was \`true\`), as the cluster profile says.`,
    );
    expect(otherThanWiring(changeSet.notes).join('\n')).not.toContain(
      'Before it syncs',
    );
  });

  it('writes nothing about Karpenter for a cluster without it', async () => {
    const { tree } = await repo();
    const changeSet = await bootstrap(tree, { provider: 'static' });
    expect(changeSet.changes.filter(c => c.path.includes('karpenter'))).toEqual(
      [],
    );
    expect(otherThanWiring(changeSet.notes)).toEqual([]);
  });

  it('refuses, writing nothing, when a file it would write is not its own', async () => {
    const { tree } = await repo({
      [`${RELEASE}/kustomization.yaml`]: 'resources:\n  - controller.yaml\n',
    });
    const error = await bootstrap(tree).catch(e => e);
    expect(isGpuInputError(error)).toBe(true);
    expect(error.issues).toEqual([
      {
        path: `${RELEASE}/kustomization.yaml`,
        rule: 'bootstrap-file-not-managed',
        message: expect.stringContaining(
          `${RELEASE}/kustomization.yaml exists and the bootstrap did not write it`,
        ),
      },
    ]);
  });

  it('writes its release over blank files in its folder, as over none', async () => {
    const { tree } = await repo({
      [`${RELEASE}/kustomization.yaml`]: '\n',
      [`${RELEASE}/values.yaml`]: '',
    });
    const changeSet = await bootstrap(tree);
    expect(
      parse(contentOf(changeSet, `${RELEASE}/kustomization.yaml`)!)
        .helmCharts[0],
    ).toMatchObject({ name: 'karpenter', version: '1.14.1' });
    expect(otherThanWiring(changeSet.notes)[0]).toContain(
      'No Karpenter release was found in the repository, so this pull request adds one',
    );
  });

  it('takes a release in another cluster’s folder as that cluster’s, and one outside every cluster’s folder as possibly this one’s', async () => {
    const otherCluster = await repo({
      'clusters/dev/karpenter/kustomization.yaml':
        'helmCharts:\n  - name: karpenter\n    version: 1.14.1\n',
    });
    const written = await bootstrap(otherCluster.tree);
    expect(written.changes.map(c => c.path)).toContain(
      `${RELEASE}/kustomization.yaml`,
    );
    const shared = await repo({
      'infrastructure/karpenter/kustomization.yaml':
        'helmCharts:\n  - name: karpenter\n    version: 1.14.1\n',
    });
    const found = await bootstrap(shared.tree);
    expect(found.changes.map(c => c.path)).not.toContain(
      `${RELEASE}/kustomization.yaml`,
    );
    expect(otherThanWiring(found.notes)[0]).toContain(
      'Karpenter is installed by the kustomize helmCharts entry `karpenter` in `infrastructure/karpenter/kustomization.yaml`',
    );
  });
});

describe('bootstrap of a cluster whose repository installs Karpenter by hand', () => {
  /** Bootstraps, writes the result, and checks the hand-written files are byte for byte what they were. */
  async function bootstrapAround(
    handWritten: Record<string, string>,
    override: ClusterProfileOverride = {},
  ) {
    const { dir, tree } = await repo(handWritten);
    const changeSet = await bootstrap(tree, override);
    const touched = changeSet.changes.map(c => c.path);
    expect(touched.filter(p => p in handWritten)).toEqual([]);
    expect(touched.filter(p => p.startsWith(RELEASE))).toEqual([]);
    await writeChangeSet(tree, changeSet);
    for (const [file, content] of Object.entries(handWritten)) {
      expect(await fs.readFile(path.join(dir, file))).toEqual(
        Buffer.from(content, 'utf8'),
      );
    }
    return otherThanWiring(changeSet.notes);
  }

  const helmCharts = (values: string) =>
    [
      '# Karpenter, installed by the platform team.',
      'apiVersion: kustomize.config.k8s.io/v1beta1',
      'kind: Kustomization',
      'helmCharts:',
      '  - name: karpenter',
      '    repo: oci://public.ecr.aws/karpenter',
      '    version: 1.14.1',
      '    releaseName: karpenter',
      '    namespace: kube-system',
      '    valuesInline:',
      '      settings:',
      '        clusterName: prod-eks',
      values,
      '',
    ].join('\n');
  const HELM_CHARTS_FILE = 'clusters/prod/karpenter/kustomization.yaml';
  const INLINE = `\`valuesInline\` of the helmCharts entry \`karpenter\` in \`${HELM_CHARTS_FILE}\``;

  it.each([
    [
      'on',
      '        featureGates:\n          nodeOverlay: true',
      `Its NodeOverlay gate is on (\`settings.featureGates.nodeOverlay\` in ${INLINE}).`,
    ],
    [
      'off',
      '        featureGates:\n          nodeOverlay: false',
      `Its NodeOverlay gate is off (\`settings.featureGates.nodeOverlay\` in ${INLINE}). **To do**: set \`settings.featureGates.nodeOverlay: true\` in ${INLINE}. **The cluster profile disagrees**: \`nodeOverlay\` of the cluster profile \`prod\` (\`gpu.clusters.profiles.prod.nodeOverlay\`) is \`true\`, so time-slicing, MPS and mixed-strategy MIG requests are planned for this cluster, and their pods stay Pending while this release keeps the gate off.`,
    ],
    [
      'absent',
      '        logLevel: debug',
      `Nothing sets its NodeOverlay gate, and the chart's default is off. **To do**: set \`settings.featureGates.nodeOverlay: true\` in ${INLINE}. **The cluster profile disagrees**`,
    ],
  ])(
    'leaves a helmCharts entry with the gate %s as it is, and says what to set',
    async (_state, values, said) => {
      const notes = await bootstrapAround({
        [HELM_CHARTS_FILE]: helmCharts(values),
      });
      expect(notes).toEqual([
        expect.stringContaining(
          `Karpenter is installed by the kustomize helmCharts entry \`karpenter\` in \`${HELM_CHARTS_FILE}\`, chart version 1.14.1; the bootstrap never edits it. ${said}`,
        ),
      ]);
    },
  );

  it('leaves a Flux HelmRelease as it is, and says what to set in spec.values and that its version is not the profile’s', async () => {
    const file = 'infrastructure/controllers/karpenter.yaml';
    const notes = await bootstrapAround({
      [file]: [
        'apiVersion: helm.toolkit.fluxcd.io/v2',
        'kind: HelmRelease',
        'metadata:',
        '  name: karpenter',
        '  namespace: kube-system',
        'spec:',
        '  interval: 10m',
        '  chart:',
        '    spec:',
        '      chart: karpenter',
        '      version: 1.13.0',
        '      sourceRef:',
        '        kind: HelmRepository',
        '        name: karpenter',
        '  values:',
        '    settings:',
        '      clusterName: prod-eks',
        '',
      ].join('\n'),
    });
    expect(notes).toHaveLength(1);
    expect(notes[0]).toContain(
      `Karpenter is installed by Flux HelmRelease \`kube-system/karpenter\` in \`${file}\`, chart version 1.13.0; the bootstrap never edits it. Nothing sets its NodeOverlay gate, and the chart's default is off. **To do**: set \`settings.featureGates.nodeOverlay: true\` in \`spec.values\` of HelmRelease \`kube-system/karpenter\` in \`${file}\`.`,
    );
    expect(notes[0]).toContain(
      'It pins 1.13.0 while the cluster profile says `karpenterVersion: 1.14.1`',
    );
  });

  it('leaves an Argo CD Application as it is, and says when the profile lags behind its gate', async () => {
    const file = 'argocd/karpenter.yaml';
    const notes = await bootstrapAround(
      {
        [file]: [
          'apiVersion: argoproj.io/v1alpha1',
          'kind: Application',
          'metadata:',
          '  name: karpenter',
          '  namespace: argocd',
          'spec:',
          '  project: platform',
          '  source:',
          '    repoURL: public.ecr.aws/karpenter',
          '    chart: karpenter',
          '    targetRevision: 1.14.1',
          '    helm:',
          '      valuesObject:',
          '        settings:',
          '          clusterName: prod-eks',
          '          featureGates:',
          '            nodeOverlay: true',
          '  destination:',
          '    name: prod',
          '    namespace: kube-system',
          '',
        ].join('\n'),
      },
      { nodeOverlay: false },
    );
    expect(notes).toEqual([
      `Karpenter is installed by Argo CD Application \`argocd/karpenter\` (\`spec.source\`) in \`${file}\`, chart version 1.14.1; the bootstrap never edits it. Its NodeOverlay gate is on (\`settings.featureGates.nodeOverlay\` in \`spec.source.helm.valuesObject\` of Application \`argocd/karpenter\` in \`${file}\`). **The cluster profile disagrees**: \`nodeOverlay\` of the cluster profile \`prod\` (\`gpu.clusters.profiles.prod.nodeOverlay\`) is \`false\` while this release turns the gate on; set it to \`true\` and time-slicing, MPS and mixed-strategy MIG requests are no longer refused.`,
    ]);
  });

  it('says when the pinned Karpenter has no NodeOverlay gate at all', async () => {
    const notes = await bootstrapAround({
      [HELM_CHARTS_FILE]: helmCharts(
        '        featureGates:\n          nodeOverlay: true',
      ).replace('version: 1.14.1', 'version: 1.6.3'),
    });
    expect(notes[0]).toContain(
      'Karpenter 1.6.3 has no NodeOverlay feature gate (it came in v1.7.0): upgrade it before asking for time-slicing, MPS and mixed-strategy MIG.',
    );
  });

  it('leaves its own release alone once a hand-written one is there, and says to remove one', async () => {
    const { dir, tree } = await repo();
    await writeChangeSet(tree, await bootstrap(tree));
    await fs.mkdir(path.join(dir, 'clusters/prod/karpenter'));
    await fs.writeFile(
      path.join(dir, HELM_CHARTS_FILE),
      helmCharts('        featureGates:\n          nodeOverlay: true'),
    );
    const changeSet = await bootstrap(tree, { karpenterVersion: '1.15.0' });
    expect(changeSet.changes).toEqual([]);
    expect(otherThanWiring(changeSet.notes)).toContain(
      `The bootstrap's own Karpenter release in \`${RELEASE}/\` installs Karpenter a second time: remove that folder.`,
    );
  });
});

import { promises as fs } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { FsRepoTree, MemoryRepoTree } from '../../../repo/tree';
import { clusterReleaseFiles } from '../helmReleases/findHelmReleases';
import { findKarpenterReleases } from './findKarpenterReleases';
import { layerToTurnOnIn, turnOnAdvice } from './nodeOverlayGate';

const KUSTOMIZATION = 'clusters/dev/karpenter-install/kustomization.yaml';

function helmChartsKustomization(entry: string): string {
  return [
    'apiVersion: kustomize.config.k8s.io/v1beta1',
    'kind: Kustomization',
    'helmCharts:',
    '  - name: karpenter',
    '    repo: oci://public.ecr.aws/karpenter',
    entry,
    '',
  ].join('\n');
}

async function find(files: Record<string, string>, cluster = 'dev') {
  const tree = new MemoryRepoTree(files);
  return findKarpenterReleases(
    tree,
    await clusterReleaseFiles(tree, undefined, cluster),
  );
}

/** Each release as the report needs it: where, version, gate, where to turn it on. */
async function summary(files: Record<string, string>, cluster = 'dev') {
  return (await find(files, cluster)).map(release => ({
    file: release.file,
    declaredBy: release.declaredBy,
    version: release.version,
    gate: release.gate.state,
    turnOn: turnOnAdvice(layerToTurnOnIn(release.layers, release.gate)),
  }));
}

describe('findKarpenterReleases: kustomize helmCharts', () => {
  it('reads the gate and version from valuesInline', async () => {
    expect(
      await summary({
        [KUSTOMIZATION]: helmChartsKustomization(
          [
            '    version: 1.14.1',
            '    valuesInline:',
            '      settings:',
            '        clusterName: dev',
            '        featureGates:',
            '          nodeOverlay: true',
          ].join('\n'),
        ),
      }),
    ).toEqual([
      {
        file: KUSTOMIZATION,
        declaredBy: 'the kustomize helmCharts entry `karpenter`',
        version: '1.14.1',
        gate: 'on',
        turnOn: `\`settings.featureGates.nodeOverlay: true\` in \`valuesInline\` of the helmCharts entry \`karpenter\` in \`${KUSTOMIZATION}\``,
      },
    ]);
  });

  it('reads the valuesFile beside the kustomization, and points at it to turn the gate on', async () => {
    const [release] = await summary({
      [KUSTOMIZATION]: helmChartsKustomization(
        '    version: "1.13.0"\n    valuesFile: karpenter-values.yaml',
      ),
      'clusters/dev/karpenter-install/karpenter-values.yaml':
        'settings:\n  featureGates:\n    nodeOverlay: false\n',
    });
    expect(release).toMatchObject({ version: '1.13.0', gate: 'off' });
    expect(release.turnOn).toBe(
      '`settings.featureGates.nodeOverlay: true` in `clusters/dev/karpenter-install/karpenter-values.yaml` (its `valuesFile`)',
    );
  });

  it('finds an entry whose values do not set the gate: the chart default, off', async () => {
    const [release] = await summary({
      [KUSTOMIZATION]: helmChartsKustomization(
        '    valuesInline:\n      settings:\n        clusterName: dev',
      ),
    });
    expect(release).toMatchObject({
      version: undefined,
      gate: 'chart-default',
    });
    expect(release.turnOn).toContain(
      'in `valuesInline` of the helmCharts entry',
    );
  });

  it('merges valuesInline and valuesFile as kustomize does for each valuesMerge', async () => {
    const files = (merge: string) => ({
      [KUSTOMIZATION]: helmChartsKustomization(
        [
          '    valuesFile: values.yaml',
          `    valuesMerge: ${merge}`,
          '    valuesInline:',
          '      settings: { featureGates: { nodeOverlay: true } }',
        ].join('\n'),
      ),
      'clusters/dev/karpenter-install/values.yaml':
        'settings: { featureGates: { nodeOverlay: false } }\n',
    });
    // override (the default): inline wins; merge: the file wins; replace: the file is not read.
    expect((await summary(files('override')))[0].gate).toBe('on');
    expect((await summary(files('merge')))[0].gate).toBe('off');
    expect((await summary(files('replace')))[0].gate).toBe('on');
  });

  it('cannot tell the gate when a values file it cannot read comes after the one it reads', async () => {
    const [release] = await find({
      [KUSTOMIZATION]: helmChartsKustomization(
        [
          '    valuesInline: { settings: { featureGates: { nodeOverlay: true } } }',
          '    additionalValuesFiles: [../../../../outside.yaml]',
        ].join('\n'),
      ),
    });
    expect(release.gate).toMatchObject({ state: 'unknown' });
    expect(release.gate.state === 'unknown' && release.gate.why).toBe(
      '`valuesInline` of the helmCharts entry `karpenter` in `clusters/dev/karpenter-install/kustomization.yaml` sets `settings.featureGates.nodeOverlay: true`, but `../../../../outside.yaml` (its `additionalValuesFiles`, outside the repository) may override it and the bootstrap cannot read it',
    );
  });

  it('takes the strings Argo CD and people write for booleans, and says so of anything else', async () => {
    const gateOf = async (value: string) =>
      (
        await find({
          [KUSTOMIZATION]: helmChartsKustomization(
            `    valuesInline: { settings: { featureGates: { nodeOverlay: ${value} } } }`,
          ),
        })
      )[0].gate;
    expect((await gateOf('"true"')).state).toBe('on');
    expect((await gateOf('"False"')).state).toBe('off');
    const odd = await gateOf('"yes"');
    expect(odd.state === 'unknown' && odd.why).toContain(
      '`settings.featureGates.nodeOverlay` is `"yes"`',
    );
  });

  it('leaves other charts, and entries of other clusters’ folders, out', async () => {
    expect(
      await summary({
        'clusters/dev/gpu-operator/kustomization.yaml':
          'helmCharts:\n  - name: gpu-operator\n    repo: https://helm.ngc.nvidia.com/nvidia\n',
        'clusters/prod/karpenter/kustomization.yaml': helmChartsKustomization(
          '    version: 1.14.1',
        ),
        // A NodePool folder named after Karpenter is no release.
        'clusters/dev/karpenter/kustomization.yaml':
          'resources:\n  - default-nodepool.yaml\n',
        'clusters/dev/karpenter/default-nodepool.yaml':
          'apiVersion: karpenter.sh/v1\nkind: NodePool\nmetadata:\n  name: default\n',
        // A file that does not parse declares nothing the bootstrap can see.
        'clusters/dev/broken.yaml': 'karpenter: [\n',
      }),
    ).toEqual([]);
    expect(
      (
        await summary(
          {
            'clusters/prod/karpenter/kustomization.yaml':
              helmChartsKustomization('    version: 1.14.1'),
          },
          'prod',
        )
      ).map(r => r.file),
    ).toEqual(['clusters/prod/karpenter/kustomization.yaml']);
  });

  it('never follows a symbolic link to a values file', async () => {
    const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'gpu-karpenter-link-'));
    try {
      const folder = path.join(dir, 'clusters/dev/karpenter-install');
      await fs.mkdir(folder, { recursive: true });
      await fs.writeFile(
        path.join(folder, 'kustomization.yaml'),
        helmChartsKustomization('    valuesFile: values.yaml'),
      );
      await fs.writeFile(
        path.join(dir, 'elsewhere.yaml'),
        'settings: { featureGates: { nodeOverlay: true } }\n',
      );
      await fs.symlink(
        path.join(dir, 'elsewhere.yaml'),
        path.join(folder, 'values.yaml'),
      );
      const tree = new FsRepoTree(dir);
      const [release] = await findKarpenterReleases(
        tree,
        await clusterReleaseFiles(tree, undefined, 'dev'),
      );
      expect(release.gate.state === 'unknown' && release.gate.why).toContain(
        '`values.yaml` (its `valuesFile`, a symbolic link, not read)',
      );
    } finally {
      await fs.rm(dir, { recursive: true, force: true });
    }
  });
});

describe('findKarpenterReleases: Flux HelmRelease', () => {
  const helmRelease = (apiVersion: string, spec: string) =>
    [
      `apiVersion: ${apiVersion}`,
      'kind: HelmRelease',
      'metadata:',
      '  name: karpenter',
      '  namespace: flux-system',
      'spec:',
      spec,
      '',
    ].join('\n');
  const chartSpec = [
    '  chart:',
    '    spec:',
    '      chart: karpenter',
    '      version: 1.14.1',
    '      sourceRef: { kind: HelmRepository, name: karpenter }',
  ].join('\n');

  it.each([
    'helm.toolkit.fluxcd.io/v2',
    'helm.toolkit.fluxcd.io/v2beta2',
    'helm.toolkit.fluxcd.io/v2beta1',
  ])('reads spec.values of %s', async apiVersion => {
    expect(
      await summary({
        'infrastructure/karpenter.yaml': helmRelease(
          apiVersion,
          `${chartSpec}\n  values:\n    settings:\n      featureGates:\n        nodeOverlay: false`,
        ),
      }),
    ).toEqual([
      {
        file: 'infrastructure/karpenter.yaml',
        declaredBy: 'Flux HelmRelease `flux-system/karpenter`',
        version: '1.14.1',
        gate: 'off',
        turnOn:
          '`settings.featureGates.nodeOverlay: true` in `spec.values` of HelmRelease `flux-system/karpenter` in `infrastructure/karpenter.yaml`',
      },
    ]);
  });

  it('cannot tell the gate when valuesFrom may set it, unless spec.values does', async () => {
    const valuesFrom =
      '  valuesFrom:\n    - kind: ConfigMap\n      name: karpenter-values';
    const [unknown] = await find({
      'infrastructure/karpenter.yaml': helmRelease(
        'helm.toolkit.fluxcd.io/v2',
        `${chartSpec}\n${valuesFrom}`,
      ),
    });
    expect(unknown.gate.state === 'unknown' && unknown.gate.why).toBe(
      'nothing the bootstrap can read sets `settings.featureGates.nodeOverlay`; `spec.valuesFrom` ConfigMap `karpenter-values` may, and the bootstrap cannot read it',
    );
    // spec.values is merged last: it decides.
    const [decided] = await find({
      'infrastructure/karpenter.yaml': helmRelease(
        'helm.toolkit.fluxcd.io/v2',
        `${chartSpec}\n${valuesFrom}\n  values: { settings: { featureGates: { nodeOverlay: true } } }`,
      ),
    });
    expect(decided.gate.state).toBe('on');
  });

  it('follows chartRef to an OCIRepository of the chart, and leaves other charts out', async () => {
    const releases = await summary({
      'infrastructure/karpenter/release.yaml': helmRelease(
        'helm.toolkit.fluxcd.io/v2',
        '  chartRef:\n    kind: OCIRepository\n    name: node-autoscaler',
      ),
      'infrastructure/karpenter/source.yaml': [
        'apiVersion: source.toolkit.fluxcd.io/v1',
        'kind: OCIRepository',
        'metadata:',
        '  name: node-autoscaler',
        '  namespace: flux-system',
        'spec:',
        '  url: oci://public.ecr.aws/karpenter/karpenter',
        '  ref:',
        '    tag: 1.14.1',
        '',
      ].join('\n'),
      'apps/serving/triton/helmrelease.yaml': helmRelease(
        'helm.toolkit.fluxcd.io/v2',
        '  chart:\n    spec:\n      chart: triton-inference-server\n  values:\n    karpenter: true',
      ).replace('name: karpenter', 'name: triton'),
    });
    expect(releases).toEqual([
      expect.objectContaining({
        file: 'infrastructure/karpenter/release.yaml',
        version: '1.14.1',
        gate: 'chart-default',
      }),
    ]);
  });
});

describe('findKarpenterReleases: Argo CD Application', () => {
  const application = (sourceYaml: string) =>
    [
      'apiVersion: argoproj.io/v1alpha1',
      'kind: Application',
      'metadata:',
      '  name: karpenter',
      '  namespace: argocd',
      'spec:',
      '  project: platform',
      sourceYaml,
      '  destination:',
      '    server: https://kubernetes.default.svc',
      '    namespace: kube-system',
      '',
    ].join('\n');

  it('reads helm.valuesObject of spec.source', async () => {
    expect(
      await summary({
        'argocd/karpenter.yaml': application(
          [
            '  source:',
            '    repoURL: public.ecr.aws/karpenter',
            '    chart: karpenter',
            '    targetRevision: 1.14.1',
            '    helm:',
            '      valuesObject:',
            '        settings: { featureGates: { nodeOverlay: true } }',
          ].join('\n'),
        ),
      }),
    ).toEqual([
      {
        file: 'argocd/karpenter.yaml',
        declaredBy: 'Argo CD Application `argocd/karpenter` (`spec.source`)',
        version: '1.14.1',
        gate: 'on',
        turnOn:
          '`settings.featureGates.nodeOverlay: true` in `spec.source.helm.valuesObject` of Application `argocd/karpenter` in `argocd/karpenter.yaml`',
      },
    ]);
  });

  it('reads the helm.values string of one of spec.sources, and points at it rather than a new valuesObject', async () => {
    const [release] = await summary({
      'argocd/karpenter.yaml': application(
        [
          '  sources:',
          '    - repoURL: https://git.example.com/platform/values.git',
          '      ref: values',
          '    - repoURL: public.ecr.aws/karpenter',
          '      chart: karpenter',
          '      targetRevision: 1.13.0',
          '      helm:',
          '        values: |',
          '          settings:',
          '            clusterName: dev',
        ].join('\n'),
      ),
    });
    expect(release).toMatchObject({
      declaredBy: 'Argo CD Application `argocd/karpenter` (`spec.sources[1]`)',
      version: '1.13.0',
      gate: 'chart-default',
    });
    expect(release.turnOn).toBe(
      '`settings.featureGates.nodeOverlay: true` in `spec.sources[1].helm.values` of Application `argocd/karpenter` in `argocd/karpenter.yaml`',
    );
  });

  it('takes a parameter over valuesObject, and valuesObject instead of values', async () => {
    const [release] = await summary({
      'argocd/karpenter.yaml': application(
        [
          '  source:',
          '    repoURL: public.ecr.aws/karpenter',
          '    chart: karpenter',
          '    targetRevision: 1.14.1',
          '    helm:',
          '      parameters:',
          '        - name: settings.featureGates.nodeOverlay',
          '          value: "false"',
          '      valuesObject: { settings: { featureGates: { nodeOverlay: true } } }',
        ].join('\n'),
      ),
    });
    expect(release).toMatchObject({ gate: 'off' });
    expect(release.turnOn).toBe(
      'the parameter `settings.featureGates.nodeOverlay` to `"true"` in `spec.source.helm.parameters` of Application `argocd/karpenter` in `argocd/karpenter.yaml`',
    );
    const [ignored] = await summary({
      'argocd/karpenter.yaml': application(
        [
          '  source:',
          '    chart: karpenter',
          '    helm:',
          '      valuesObject: { settings: { clusterName: dev } }',
          '      values: "settings: { featureGates: { nodeOverlay: true } }"',
        ].join('\n'),
      ),
    });
    expect(ignored.gate).toBe('chart-default');
  });

  it('cannot tell the gate set only by valueFiles of the chart repository', async () => {
    const [release] = await find({
      'argocd/karpenter.yaml': application(
        [
          '  source:',
          '    chart: karpenter',
          '    helm:',
          '      valueFiles: [values-prod.yaml]',
        ].join('\n'),
      ),
    });
    expect(release.gate.state).toBe('unknown');
  });
});

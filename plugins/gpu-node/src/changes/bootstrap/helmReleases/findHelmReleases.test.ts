/**
 * The release readers shared by every chart the bootstrap looks for (the
 * Karpenter tests cover the gate; these what the readers give any chart):
 * the namespace each form installs into, Flux `valuesFrom` ConfigMaps the
 * repository declares, and Argo CD parameters as the values Helm makes of
 * them.
 */
import { MemoryRepoTree } from '../../../repo/tree';
import { clusterReleaseFiles, findHelmReleases } from './findHelmReleases';
import { readValue, type ValuesLayer } from './valuesLayer';

const CHART = 'gpu-operator';

async function find(files: Record<string, string>, cluster = 'dev') {
  const tree = new MemoryRepoTree(files);
  return findHelmReleases(
    tree,
    await clusterReleaseFiles(tree, undefined, cluster),
    CHART,
  );
}

const valueOf = (layers: ValuesLayer[], path: string) =>
  readValue(layers, path.split('.'));

const helmRelease = (spec: string, namespace = 'gpu-operator') =>
  [
    'apiVersion: helm.toolkit.fluxcd.io/v2',
    'kind: HelmRelease',
    'metadata:',
    '  name: gpu-operator',
    `  namespace: ${namespace}`,
    'spec:',
    '  chart:',
    '    spec:',
    '      chart: gpu-operator',
    '      version: v25.10.1',
    '      sourceRef: { kind: HelmRepository, name: nvidia }',
    spec,
    '',
  ].join('\n');

describe('findHelmReleases: the namespace a release installs into', () => {
  it('is the helmCharts entry’s, unless the kustomization moves everything', async () => {
    const entry =
      'helmCharts:\n  - name: gpu-operator\n    namespace: gpu-operator\n';
    expect(
      (await find({ 'clusters/dev/op/kustomization.yaml': entry }))[0]
        .namespace,
    ).toBe('gpu-operator');
    expect(
      (
        await find({
          'clusters/dev/op/kustomization.yaml': `namespace: nvidia\n${entry}`,
        })
      )[0].namespace,
    ).toBe('nvidia');
  });

  it('is a HelmRelease’s targetNamespace, else its own namespace', async () => {
    expect(
      (await find({ 'infra/op.yaml': helmRelease('  interval: 1h') }))[0]
        .namespace,
    ).toBe('gpu-operator');
    expect(
      (
        await find({
          'infra/op.yaml': helmRelease(
            '  targetNamespace: nvidia-gpu',
            'flux-system',
          ),
        })
      )[0].namespace,
    ).toBe('nvidia-gpu');
  });

  it('is an Application’s destination namespace', async () => {
    const [release] = await find({
      'argocd/op.yaml': [
        'apiVersion: argoproj.io/v1alpha1',
        'kind: Application',
        'metadata: { name: gpu-operator, namespace: argocd }',
        'spec:',
        '  source: { chart: gpu-operator, repoURL: https://helm.ngc.nvidia.com/nvidia, targetRevision: v25.10.1 }',
        '  destination: { server: https://kubernetes.default.svc, namespace: gpu-operator }',
        '',
      ].join('\n'),
    });
    expect(release).toMatchObject({
      chart: CHART,
      version: 'v25.10.1',
      namespace: 'gpu-operator',
    });
  });
});

describe('findHelmReleases: which sources of an Application Argo CD reads', () => {
  it('reads spec.sources and ignores a spec.source left beside it, as Argo CD does', async () => {
    const releases = await find({
      'argocd/op.yaml': [
        'apiVersion: argoproj.io/v1alpha1',
        'kind: Application',
        'metadata: { name: gpu-operator, namespace: argocd }',
        'spec:',
        '  source: { chart: gpu-operator, repoURL: https://helm.ngc.nvidia.com/nvidia, targetRevision: v24.9.2 }',
        '  sources:',
        '    - { chart: gpu-operator, repoURL: https://helm.ngc.nvidia.com/nvidia, targetRevision: v25.10.1 }',
        '  destination: { server: https://kubernetes.default.svc, namespace: gpu-operator }',
        '',
      ].join('\n'),
    });
    expect(releases.map(r => [r.version, r.declaredBy])).toEqual([
      [
        'v25.10.1',
        'Argo CD Application `argocd/gpu-operator` (`spec.sources[0]`)',
      ],
    ]);
  });
});

describe('findHelmReleases: Flux valuesFrom', () => {
  const valuesFrom = (refs: string) => `  valuesFrom:\n${refs}`;

  it('reads a ConfigMap document of the HelmRelease’s namespace, under values.yaml or its valuesKey, below spec.values', async () => {
    const [release] = await find({
      'infra/op.yaml': helmRelease(
        [
          valuesFrom(
            [
              '    - kind: ConfigMap',
              '      name: gpu-operator-values',
              '    - kind: ConfigMap',
              '      name: gpu-operator-values',
              '      valuesKey: mig.yaml',
            ].join('\n'),
          ),
          '  values:',
          '    devicePlugin: { config: { name: from-spec-values } }',
        ].join('\n'),
      ),
      'infra/values.yaml': [
        'apiVersion: v1',
        'kind: ConfigMap',
        'metadata: { name: gpu-operator-values, namespace: gpu-operator }',
        'data:',
        '  values.yaml: |',
        '    devicePlugin: { config: { name: from-configmap, default: any } }',
        '    mig: { strategy: single }',
        '  mig.yaml: "mig: { strategy: mixed }"',
        '---',
        'apiVersion: v1',
        'kind: ConfigMap',
        'metadata: { name: gpu-operator-values, namespace: other }',
        'data: { values.yaml: "mig: { strategy: none }" }',
        '',
      ].join('\n'),
    });
    expect(release.layers.map(l => l.where)).toEqual([
      '`spec.values` of HelmRelease `gpu-operator/gpu-operator` in `infra/op.yaml`',
      '`spec.valuesFrom` ConfigMap `gpu-operator-values` (key `mig.yaml`, in `infra/values.yaml`)',
      '`spec.valuesFrom` ConfigMap `gpu-operator-values` (key `values.yaml`, in `infra/values.yaml`)',
    ]);
    expect(valueOf(release.layers, 'devicePlugin.config.name')).toMatchObject({
      state: 'set',
      value: 'from-spec-values',
    });
    expect(
      valueOf(release.layers, 'devicePlugin.config.default'),
    ).toMatchObject({ state: 'set', value: 'any' });
    // The later reference wins.
    expect(valueOf(release.layers, 'mig.strategy')).toMatchObject({
      state: 'set',
      value: 'mixed',
    });
  });

  it('reads a configMapGenerator’s files and literals', async () => {
    const release = async (generator: string) =>
      (
        await find({
          'infra/gpu-operator/release.yaml': helmRelease(
            valuesFrom('    - kind: ConfigMap\n      name: op-values'),
          ),
          'infra/gpu-operator/kustomization.yaml': [
            'namespace: gpu-operator',
            'resources: [release.yaml]',
            'configMapGenerator:',
            '  - name: op-values',
            generator,
            '',
          ].join('\n'),
          'infra/gpu-operator/op-values.yaml': 'mig: { strategy: mixed }\n',
        })
      )[0];
    const fromFile = await release('    files: [values.yaml=op-values.yaml]');
    expect(fromFile.layers[1].where).toBe(
      '`spec.valuesFrom` ConfigMap `op-values` (key `values.yaml`, in `infra/gpu-operator/op-values.yaml`)',
    );
    expect(valueOf(fromFile.layers, 'mig.strategy')).toMatchObject({
      state: 'set',
      value: 'mixed',
    });
    const fromLiteral = await release(
      '    literals: ["values.yaml=mig: { strategy: single }"]',
    );
    expect(valueOf(fromLiteral.layers, 'mig.strategy')).toMatchObject({
      state: 'set',
      value: 'single',
    });
    // A file named without a key is its own key: not values.yaml here.
    const otherKey = await release('    files: [op-values.yaml]');
    expect(otherKey.layers[1]).toMatchObject({
      where: '`spec.valuesFrom` ConfigMap `op-values` (no key `values.yaml`)',
      content: 'hidden',
    });
  });

  it('cannot read a Secret, a targetPath, a ConfigMap declared twice or none at all', async () => {
    const configMap = (file: string) => ({
      [file]:
        'apiVersion: v1\nkind: ConfigMap\nmetadata: { name: op-values }\ndata: { values.yaml: "{}" }\n',
    });
    const [release] = await find({
      'infra/op.yaml': helmRelease(
        valuesFrom(
          [
            '    - { kind: Secret, name: op-secret }',
            '    - { kind: ConfigMap, name: op-values, valuesKey: strategy, targetPath: mig.strategy }',
            '    - { kind: ConfigMap, name: op-values }',
            '    - { kind: ConfigMap, name: elsewhere }',
          ].join('\n'),
        ),
      ),
      ...configMap('infra/a.yaml'),
      ...configMap('infra/b.yaml'),
    });
    expect(release.layers.slice(1).map(l => [l.where, l.content])).toEqual([
      ['`spec.valuesFrom` ConfigMap `elsewhere`', 'hidden'],
      [
        '`spec.valuesFrom` ConfigMap `op-values` (declared 2 times (ConfigMap `op-values` in `infra/a.yaml`, ConfigMap `op-values` in `infra/b.yaml`))',
        'hidden',
      ],
      [
        '`spec.valuesFrom` ConfigMap `op-values` (its `targetPath` is not read)',
        'hidden',
      ],
      ['`spec.valuesFrom` Secret `op-secret`', 'hidden'],
    ]);
    expect(valueOf(release.layers, 'mig.strategy').state).toBe('unknown');
  });

  it('leaves out a ConfigMap of another cluster’s folder', async () => {
    const [release] = await find({
      'infra/op.yaml': helmRelease(
        valuesFrom('    - { kind: ConfigMap, name: op-values }'),
      ),
      'clusters/prod/op-values.yaml':
        'apiVersion: v1\nkind: ConfigMap\nmetadata: { name: op-values }\ndata: { values.yaml: "mig: { strategy: mixed }" }\n',
    });
    expect(release.layers[1].content).toBe('hidden');
  });
});

describe('findHelmReleases: Argo CD parameters', () => {
  it('reads every parameter as Helm reads --set: paths with list indices and escaped dots, true and false as booleans unless forced to strings', async () => {
    const [release] = await find({
      'argocd/op.yaml': [
        'apiVersion: argoproj.io/v1alpha1',
        'kind: Application',
        'metadata: { name: gpu-operator, namespace: argocd }',
        'spec:',
        '  source:',
        '    chart: gpu-operator',
        '    helm:',
        '      parameters:',
        '        - { name: "daemonsets.tolerations[0].key", value: example.com/gpu }',
        '        - { name: "daemonsets.tolerations[0].operator", value: Exists }',
        '        - { name: node-feature-discovery.master.enableTaints, value: "TRUE" }',
        '        - { name: devicePlugin.config.create, value: "false", forceString: true }',
        '        - { name: nodeSelector.kubernetes\\.io/os, value: linux }',
        '        - { name: "bad..name", value: x }',
        '      valuesObject: { mig: { strategy: mixed } }',
        '',
      ].join('\n'),
    });
    expect(release.layers[0]).toEqual({
      where:
        '`spec.source.helm.parameters` of Application `argocd/gpu-operator` in `argocd/op.yaml`',
      form: 'parameters',
      content: {
        values: {
          daemonsets: {
            tolerations: [{ key: 'example.com/gpu', operator: 'Exists' }],
          },
          'node-feature-discovery': { master: { enableTaints: true } },
          devicePlugin: { config: { create: 'false' } },
          nodeSelector: { 'kubernetes.io/os': 'linux' },
        },
      },
    });
    expect(valueOf(release.layers, 'mig.strategy')).toMatchObject({
      state: 'set',
      value: 'mixed',
    });
  });
});

describe('findHelmReleases: a Cluster API add-on HelmChartProxy', () => {
  // kubernetes-sigs/cluster-api-provider-azure v1.26.0
  // templates/addons/cluster-api-helm/gpu-operator.yaml, byte for byte.
  const capzGpuOperator = [
    'apiVersion: addons.cluster.x-k8s.io/v1alpha1',
    'kind: HelmChartProxy',
    'metadata:',
    '  name: gpu-operator',
    'spec:',
    '  clusterSelector:',
    '    matchLabels:',
    '      gpu-operator: "true"',
    '  repoURL: https://helm.ngc.nvidia.com/nvidia',
    '  chartName: gpu-operator',
    '  releaseName: nvidia-gpu-operator',
    '  namespace: default',
    '',
  ].join('\n');

  it('is a release of its chart, in its namespace, on the chart’s defaults when it has no values', async () => {
    const [release, ...others] = await find({
      'clusters/dev/gpu-operator.yaml': capzGpuOperator,
    });
    expect(others).toEqual([]);
    expect(release).toMatchObject({
      chart: 'gpu-operator',
      file: 'clusters/dev/gpu-operator.yaml',
      declaredBy: 'Cluster API add-on HelmChartProxy `gpu-operator`',
      namespace: 'default',
      version: undefined,
    });
    expect(valueOf(release.layers, 'migManager.enabled')).toEqual({
      state: 'chart-default',
    });
  });

  it('reads a plain valuesTemplate, and cannot tell one with template actions', async () => {
    const withValues = (values: string) =>
      `${capzGpuOperator}  version: v25.10.1\n  valuesTemplate: |\n${values}`;
    const [plain] = await find({
      'clusters/dev/gpu-operator.yaml': withValues(
        '    migManager:\n      enabled: false\n',
      ),
    });
    expect(plain.version).toBe('v25.10.1');
    expect(valueOf(plain.layers, 'migManager.enabled')).toMatchObject({
      state: 'set',
      value: false,
    });
    const [templated] = await find({
      'clusters/dev/gpu-operator.yaml': withValues(
        '    migManager:\n      enabled: {{ hasKey .Cluster.metadata.labels "mig" }}\n',
      ),
    });
    expect(valueOf(templated.layers, 'migManager.enabled')).toMatchObject({
      state: 'unknown',
    });
  });

  it('is no release of another chart, nor another cluster’s', async () => {
    expect(
      await find({
        'clusters/dev/calico.yaml': capzGpuOperator.replace(
          'chartName: gpu-operator',
          'chartName: tigera-operator',
        ),
        'clusters/prod/gpu-operator.yaml': capzGpuOperator,
      }),
    ).toEqual([]);
  });
});

describe('findHelmReleases: the GPU Operator rendered to plain manifests', () => {
  // The shape of `helm template` output CAPA v2.11.1 applies with a
  // ClusterResourceSet (kustomize_sources/gpu/gpu-operator-components.yaml).
  const manifests = [
    'apiVersion: apps/v1',
    'kind: Deployment',
    'metadata:',
    '  name: gpu-operator',
    '  namespace: gpu-operator-resources',
    'spec:',
    '  template:',
    '    spec:',
    '      containers:',
    '      - name: gpu-operator',
    '        image: nvcr.io/nvidia/gpu-operator:v22.9.1',
    '---',
    'apiVersion: nvidia.com/v1',
    'kind: ClusterPolicy',
    'metadata:',
    '  name: cluster-policy',
    'spec:',
    '  mig:',
    '    strategy: single',
    '  migManager:',
    '    enabled: true',
    '    config:',
    '      name: ""',
    '',
  ].join('\n');

  it('is a release of the GPU Operator chart: the ClusterPolicy’s spec its values, the operator’s namespace and version', async () => {
    const [release, ...others] = await find({
      'clusters/dev/gpu-operator-components.yaml': manifests,
    });
    expect(others).toEqual([]);
    expect(release).toMatchObject({
      chart: 'gpu-operator',
      declaredBy:
        "the GPU Operator's ClusterPolicy `cluster-policy` (plain manifests)",
      namespace: 'gpu-operator-resources',
      version: 'v22.9.1',
    });
    expect(valueOf(release.layers, 'migManager.config.name')).toMatchObject({
      state: 'set',
      value: '',
    });
    expect(valueOf(release.layers, 'devicePlugin.config.name')).toEqual({
      state: 'chart-default',
    });
  });

  it('is no release of another chart', async () => {
    const tree = new MemoryRepoTree({
      'clusters/dev/gpu-operator-components.yaml': manifests,
    });
    expect(
      await findHelmReleases(
        tree,
        await clusterReleaseFiles(tree, undefined, 'dev'),
        'nvidia-device-plugin',
      ),
    ).toEqual([]);
  });
});

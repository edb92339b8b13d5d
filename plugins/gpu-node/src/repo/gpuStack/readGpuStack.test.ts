/**
 * `gpuStackFileRole` says which files `readGpuStack` can take anything from:
 * the allocation index hands the readers only those, so on every shape the
 * readers know, the stack read from them alone is the stack read from all.
 */
import {
  resolveClusterProfile,
  type ClusterProfile,
} from '@gpu-gitops/plugin-gpu-common';
import {
  ARGO_GPU_OPERATOR_WITHOUT_MIG_MANAGER,
  BOTTLEROCKET_NODE_CLASS,
  STATIC_DEVICE_PLUGIN,
  fluxDevicePluginChart,
} from '../../changes/bootstrap/__fixtures__/gpuStackShapes';
import { MemoryRepoTree } from '../tree';
import {
  gpuStackFileRole,
  readGpuStack,
  releasesTakeValuesFrom,
} from './readGpuStack';

const FLUX_VALUES_FROM = `apiVersion: helm.toolkit.fluxcd.io/v2
kind: HelmRelease
metadata: {name: operator, namespace: gpu}
spec:
  chart:
    spec: {chart: gpu-operator, sourceRef: {kind: HelmRepository, name: nvidia}}
  valuesFrom:
    - {kind: ConfigMap, name: operator-values}
`;
const VALUES_CONFIG_MAP = `apiVersion: v1
kind: ConfigMap
metadata: {name: operator-values, namespace: gpu}
data:
  values.yaml: |
    migManager:
      enabled: false
`;
const UNRELATED = `apiVersion: apps/v1
kind: Deployment
metadata: {name: web}
spec:
  template:
    spec:
      containers: [{name: web, image: nginx}]
`;

const OPERATOR_SHARING_DEFAULT = `apiVersion: helm.toolkit.fluxcd.io/v2
kind: HelmRelease
metadata: {name: operator, namespace: gpu}
spec:
  chart:
    spec: {chart: gpu-operator, sourceRef: {kind: HelmRepository, name: nvidia}}
  values:
    devicePlugin:
      config: {name: slices, default: any}
`;
const SHARING_CONFIG_MAP = `apiVersion: v1
kind: ConfigMap
metadata: {name: slices, namespace: gpu}
data:
  any: |-
    version: v1
    sharing:
      timeSlicing:
        resources:
          - name: nvidia.com/gpu
            replicas: 4
`;

async function stacks(files: Record<string, string>, cluster: ClusterProfile) {
  const tree = new MemoryRepoTree(files);
  const all = Object.entries(files).map(([path, text]) => ({ path, text }));
  const releases = all.filter(f => gpuStackFileRole(f.text) === 'release');
  const valuesFrom = releasesTakeValuesFrom(releases.map(f => f.text));
  const kept = all.filter(f => {
    const role = gpuStackFileRole(f.text);
    return role === 'release' || (valuesFrom && role === 'valuesSource');
  });
  return {
    fromAll: await readGpuStack(tree, cluster, all),
    fromKept: await readGpuStack(tree, cluster, kept),
    kept: kept.map(f => f.path),
  };
}

describe('the files readGpuStack can take anything from', () => {
  const prod = resolveClusterProfile({ name: 'prod' });

  it.each([
    [
      'a static device-plugin DaemonSet',
      { 'infra/dp.yaml': STATIC_DEVICE_PLUGIN },
    ],
    [
      'the standalone chart (Flux)',
      {
        'infra/dp.yaml': fluxDevicePluginChart('    gfd:\n      enabled: true'),
      },
    ],
    [
      "NVIDIA's DRA driver chart (Flux)",
      {
        'infra/dra.yaml': `apiVersion: helm.toolkit.fluxcd.io/v2
kind: HelmRelease
metadata: {name: dra, namespace: dra}
spec:
  chart:
    spec: {chart: dra-driver-nvidia-gpu, sourceRef: {kind: HelmRepository, name: nvidia}}
`,
      },
    ],
    [
      'a Bottlerocket node class',
      { 'infra/nodeclass.yaml': BOTTLEROCKET_NODE_CLASS },
    ],
    [
      'an Argo CD GPU Operator without MIG manager',
      { 'infra/operator.yaml': ARGO_GPU_OPERATOR_WITHOUT_MIG_MANAGER },
    ],
    [
      'a Flux GPU Operator taking values from a ConfigMap',
      {
        'infra/operator.yaml': FLUX_VALUES_FROM,
        'infra/values.yaml': VALUES_CONFIG_MAP,
      },
    ],
    [
      'a Flux GPU Operator whose default config, in a ConfigMap of its own file, time-slices every GPU',
      {
        'infra/operator.yaml': OPERATOR_SHARING_DEFAULT,
        'infra/sharing.yaml': SHARING_CONFIG_MAP,
      },
    ],
  ])('%s: the same stack from the files with a role', async (_shape, files) => {
    const { fromAll, fromKept, kept } = await stacks(
      { ...files, 'apps/web/deployment.yaml': UNRELATED },
      prod,
    );
    expect(fromAll).not.toEqual({});
    expect(fromKept).toEqual(fromAll);
    expect(kept).toEqual(Object.keys(files));
  });

  it('reads the GPU Operator’s sharing default from a hand-written ConfigMap among the files, naming where it is set', async () => {
    const { fromKept } = await stacks(
      {
        'infra/operator.yaml': OPERATOR_SHARING_DEFAULT,
        'infra/sharing.yaml': SHARING_CONFIG_MAP,
      },
      prod,
    );
    expect(fromKept.operatorSharesByDefault).toEqual({
      file: 'infra/operator.yaml',
      setting: expect.stringContaining(
        '`devicePlugin.config.default: any` (key of ConfigMap `slices`) in',
      ),
      sharing: 'time-slicing, 4 per GPU, as `nvidia.com/gpu`',
      // What unlabelled nodes run: the key and the config it holds.
      config: {
        key: 'any',
        content: {
          version: 'v1',
          sharing: {
            timeSlicing: {
              resources: [{ name: 'nvidia.com/gpu', replicas: 4 }],
            },
          },
        },
      },
    });
  });

  it.each([
    [
      'the standalone chart with no config',
      fluxDevicePluginChart('    gfd:\n      enabled: true'),
      'none',
    ],
    [
      // The chart's `hasEmbeddedConfigMap` tests `empty .Values.config.map`
      // (k8s-device-plugin v0.18.0 `templates/_helpers.tpl`): no config.
      'the standalone chart with an empty config.map',
      fluxDevicePluginChart('    config:\n      map: {}'),
      'none',
    ],
    [
      'the standalone chart’s migStrategy value',
      fluxDevicePluginChart('    migStrategy: single'),
      'single',
    ],
    [
      'the standalone chart’s own default config',
      fluxDevicePluginChart(
        '    config:\n      map:\n        default: |-\n          version: v1\n          flags:\n            migStrategy: mixed',
      ),
      'mixed',
    ],
    ['the static DaemonSet without MIG_STRATEGY', STATIC_DEVICE_PLUGIN, 'none'],
    [
      'the static DaemonSet with MIG_STRATEGY',
      STATIC_DEVICE_PLUGIN.replace(
        '          - name: FAIL_ON_INIT_ERROR',
        '          - name: MIG_STRATEGY\n            value: single\n          - name: FAIL_ON_INIT_ERROR',
      ),
      'single',
    ],
  ])(
    '%s: the MIG strategy its plugin runs on every node is read (whatever the nodes’ config label)',
    async (_what, text, migStrategy) => {
      const { fromKept } = await stacks({ 'infra/dp.yaml': text }, prod);
      expect(fromKept.devicePlugin?.migStrategy).toBe(migStrategy);
    },
  );

  it('counts no device plugin for a standalone chart release with devicePlugin.enabled false (GFD only), and reads its GFD and NFD', async () => {
    // NVIDIA's README "Deploying gpu-feature-discovery in standalone mode"
    // (k8s-device-plugin v0.18.0): the chart renders its plugin's DaemonSet
    // only `if .Values.devicePlugin.enabled` (`templates/daemonset-device-plugin.yml`).
    const { fromKept } = await stacks(
      {
        'infra/gfd.yaml': fluxDevicePluginChart(
          '    devicePlugin:\n      enabled: false\n    gfd:\n      enabled: true',
        ),
      },
      prod,
    );
    expect(fromKept.devicePlugin).toBeUndefined();
    expect(fromKept.devicePlugins ?? []).toEqual([]);
    expect(fromKept.chartFeatureDiscovery).toMatchObject({
      file: 'infra/gfd.yaml',
      gfd: true,
      nfd: true,
      nfdOnGpuNodes: false,
    });
  });

  it.each([
    ['sets neither of NFD’s taint settings (the charts’ defaults)', '', false],
    [
      'sets nfd.master.enableTaints',
      '    nfd:\n      master:\n        enableTaints: true\n',
      true,
    ],
    [
      'turns enableTaints on in nfd.master.config',
      '    nfd:\n      master:\n        config:\n          enableTaints: true\n',
      true,
    ],
    [
      'sets nfd.master.enableTaints to an empty string (false to a Helm `if`)',
      '    nfd:\n      master:\n        enableTaints: ""\n',
      false,
    ],
  ])(
    'a standalone chart that deploys GFD and NFD and %s: whether its nfd-master applies NodeFeatureRules’ taints',
    async (_what, values, applies) => {
      const { fromKept } = await stacks(
        {
          'infra/dp.yaml': fluxDevicePluginChart(
            `    gfd:\n      enabled: true\n${values}`,
          ),
        },
        prod,
      );
      expect(fromKept.chartFeatureDiscovery?.nfd).toBe(true);
      expect(fromKept.chartFeatureDiscovery?.nfdAppliesTaints).toBe(applies);
    },
  );

  it('tells how to turn the chart’s NFD taints on in the form its release takes values: a Flux values key, or the Argo CD parameter that turns them off', async () => {
    const flux = await stacks(
      {
        'infra/dp.yaml': fluxDevicePluginChart(
          '    gfd:\n      enabled: true\n',
        ),
      },
      prod,
    );
    expect(flux.fromKept.chartFeatureDiscovery?.turnOnNfdTaints).toMatch(
      /^`nfd\.master\.enableTaints: true` in `spec\.values` of HelmRelease .*`infra\/dp\.yaml`$/,
    );
    const argo = await stacks(
      {
        'argocd/dp.yaml': [
          'apiVersion: argoproj.io/v1alpha1',
          'kind: Application',
          'metadata: { name: nvidia-device-plugin, namespace: argocd }',
          'spec:',
          '  source:',
          '    repoURL: https://nvidia.github.io/k8s-device-plugin',
          '    chart: nvidia-device-plugin',
          '    targetRevision: 0.20.0',
          '    helm:',
          '      parameters:',
          '        - { name: gfd.enabled, value: "true" }',
          '        - { name: nfd.master.enableTaints, value: "false" }',
          '',
        ].join('\n'),
      },
      prod,
    );
    expect(argo.fromKept.chartFeatureDiscovery).toMatchObject({
      nfd: true,
      nfdAppliesTaints: false,
      turnOnNfdTaints:
        'the parameter `nfd.master.enableTaints` to `"true"` in `spec.source.helm.parameters` of Application `argocd/nvidia-device-plugin` in `argocd/dp.yaml`',
    });
  });

  it('cannot tell whether the chart’s nfd-master applies taints when its values come from a source it cannot read', async () => {
    const { fromKept } = await stacks(
      {
        'infra/dp.yaml': fluxDevicePluginChart(
          '    gfd:\n      enabled: true\n    nfd:\n      enabled: true\n',
        ).replace(
          '  values:\n',
          '  valuesFrom:\n    - {kind: Secret, name: nfd-values}\n  values:\n',
        ),
      },
      prod,
    );
    expect(fromKept.chartFeatureDiscovery).toBeDefined();
    expect(fromKept.chartFeatureDiscovery?.nfdAppliesTaints).toBeUndefined();
  });

  it('leaves the MIG strategy to the named configs when the standalone chart reads the profile’s ConfigMap', async () => {
    const { fromKept } = await stacks(
      {
        'infra/dp.yaml': fluxDevicePluginChart(
          `    config:\n      name: ${prod.devicePluginConfigMap.name}`,
        ),
      },
      prod,
    );
    expect(fromKept.devicePlugin?.readsNamedConfigs).toBe(true);
    expect(fromKept.devicePlugin?.migStrategy).toBeUndefined();
  });

  it('says which ConfigMap the GPU Operator’s MIG manager reads when it is not the profile’s, with the value to set and where', async () => {
    const operator = (values: string) =>
      `${OPERATOR_SHARING_DEFAULT.split('  values:')[0]}  values:\n${values}`;
    const wanted = prod.migPartedConfigMap.name;
    const reads = async (values: string) =>
      (await stacks({ 'infra/operator.yaml': operator(values) }, prod)).fromKept
        .migManagerConfigElsewhere;
    expect(
      await reads('    migManager:\n      config: {name: team-mig-layouts}\n'),
    ).toEqual({
      file: 'infra/operator.yaml',
      configMap: 'team-mig-layouts',
      setting: expect.stringContaining(
        '`migManager.config.name: team-mig-layouts` in',
      ),
      advice: expect.stringContaining(
        `\`migManager.config.name: ${wanted}\` in`,
      ),
    });
    expect(
      await reads('    devicePlugin:\n      config: {name: slices}\n'),
    ).toMatchObject({
      configMap: '',
      setting: expect.stringContaining("left to the chart's default (empty)"),
    });
    expect(
      await reads(`    migManager:\n      config: {name: ${wanted}}\n`),
    ).toBeUndefined();
    expect(
      await reads('    migManager:\n      enabled: false\n'),
    ).toBeUndefined();
  });

  it('says how Bottlerocket’s device plugin on the GPU pools’ node class shares every GPU, naming its user data', async () => {
    const onGpuClass = resolveClusterProfile({
      name: 'prod',
      nodeClass: {
        group: 'karpenter.k8s.aws',
        kind: 'EC2NodeClass',
        name: 'gpu',
      },
    });
    const { fromKept } = await stacks(
      { 'infra/nodeclass.yaml': BOTTLEROCKET_NODE_CLASS },
      onGpuClass,
    );
    expect(fromKept.devicePlugin).toMatchObject({
      kind: 'bottlerocket',
      sharesByDefault: expect.stringContaining(
        'time-slicing, 4 per GPU, as `nvidia.com/gpu.shared`: EC2NodeClass',
      ),
    });
    const whole = BOTTLEROCKET_NODE_CLASS.replace(/ {2}userData: [^]*/, '');
    const { fromKept: unshared } = await stacks(
      { 'infra/nodeclass.yaml': whole },
      onGpuClass,
    );
    expect(unshared.devicePlugin?.kind).toBe('bottlerocket');
    expect(unshared.devicePlugin?.sharesByDefault).toBeUndefined();
  });

  it('counts a node class only when it runs Bottlerocket, and never a NodePool that references one', () => {
    const nodePool = `apiVersion: karpenter.sh/v1
kind: NodePool
metadata: {name: gpu-t4}
spec:
  template:
    spec:
      nodeClassRef:
        group: karpenter.k8s.aws
        kind: EC2NodeClass
        name: gpu
`;
    const al2023 = BOTTLEROCKET_NODE_CLASS.replace(
      /amiSelectorTerms:\n.*\n/,
      'amiSelectorTerms:\n    - alias: al2023@latest\n',
    ).replace(/ {2}userData: [^]*/, '');
    expect(al2023).not.toMatch(/bottlerocket/i);
    expect(
      [nodePool, al2023, BOTTLEROCKET_NODE_CLASS].map(gpuStackFileRole),
    ).toEqual([undefined, undefined, 'release']);
  });

  it('counts a ConfigMap only when a release takes values from one', () => {
    expect(gpuStackFileRole(VALUES_CONFIG_MAP)).toBe('valuesSource');
    expect(releasesTakeValuesFrom([FLUX_VALUES_FROM])).toBe(true);
    expect(releasesTakeValuesFrom([fluxDevicePluginChart('    gfd: {}')])).toBe(
      false,
    );
    expect(gpuStackFileRole(UNRELATED)).toBeUndefined();
  });
});

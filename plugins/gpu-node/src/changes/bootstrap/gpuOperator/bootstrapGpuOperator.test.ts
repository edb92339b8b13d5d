/**
 * The bootstrap's GPU Operator step on repositories on disk that install
 * the operator themselves, in each form the bootstrap recognises: it
 * writes no release of its own, leaves theirs byte for byte, and says what
 * it already sets as the product needs and exactly what to set where.
 */
import { promises as fs } from 'node:fs';
import path from 'node:path';
import { parse } from 'yaml';
import {
  isGpuInputError,
  resolveClusterProfile,
  type ClusterProfileOverride,
} from '@gpu-gitops/plugin-gpu-common';
import { FsRepoTree } from '../../../repo/tree';
import { removeTempRepo, writeTempRepo } from '../../__fixtures__/gitopsRepo';
import { writes } from '../../__testUtils__/writes';
import { writeChangeSet } from '../../stagedTree';
import { buildBootstrapChangeSet } from '../bootstrapChangeSet';
import { otherThanWiring } from '../../__testUtils__/otherThanWiring';

const OPTIONS = { operatorChartVersion: 'v26.7.0', binPacking: false };
const OPERATOR_FOLDER = 'clusters/prod/gpu-operator';
const GPU_KUSTOMIZATION = 'clusters/prod/gpu/kustomization.yaml';
const CLUSTER_FOLDER = {
  'clusters/prod/kustomization.yaml':
    'apiVersion: kustomize.config.k8s.io/v1beta1\nkind: Kustomization\nresources: []\n',
};

const dirs: string[] = [];
afterAll(async () => {
  await Promise.all(dirs.map(removeTempRepo));
});

function profile(override: ClusterProfileOverride = {}) {
  return resolveClusterProfile({
    name: 'prod',
    provider: 'static',
    ...override,
  });
}

/**
 * Bootstraps a repository holding `handWritten`, writes the result, and
 * checks the bootstrap wrote no GPU Operator release and left every
 * hand-written file byte for byte as it was.
 */
async function bootstrapAround(
  handWritten: Record<string, string>,
  override: ClusterProfileOverride = {},
) {
  const dir = await writeTempRepo({ ...CLUSTER_FOLDER, ...handWritten });
  dirs.push(dir);
  const tree = new FsRepoTree(dir);
  const changeSet = await buildBootstrapChangeSet(
    tree,
    profile(override),
    OPTIONS,
  );
  expect(changeSet.gpuOperatorRelease).toBe('repository');
  const touched = changeSet.changes.map(c => c.path);
  expect(touched.filter(p => p in handWritten)).toEqual([]);
  expect(touched.filter(p => p.startsWith(`${OPERATOR_FOLDER}/`))).toEqual([]);
  await writeChangeSet(tree, changeSet);
  for (const [file, content] of Object.entries(handWritten)) {
    expect(await fs.readFile(path.join(dir, file))).toEqual(
      Buffer.from(content, 'utf8'),
    );
  }
  // Idempotent: the next run has nothing to change.
  expect(
    (await buildBootstrapChangeSet(tree, profile(override), OPTIONS)).changes,
  ).toEqual([]);
  const generators = (
    parse((await tree.readFile(GPU_KUSTOMIZATION))!).configMapGenerator ?? []
  ).map((g: { name: string }) => g.name);
  return { notes: otherThanWiring(changeSet.notes), generators, touched };
}

const ALL_AS_NEEDED = [
  'devicePlugin:',
  '  config:',
  '    name: nvidia-device-plugin-configs',
  '    default: default',
  'migManager:',
  '  config:',
  '    name: custom-mig-parted-config',
  'mig:',
  '  strategy: mixed',
].join('\n');

const indent = (text: string, spaces: number) =>
  text
    .split('\n')
    .map(line => ' '.repeat(spaces) + line)
    .join('\n');

describe('bootstrap of a repository that installs the GPU Operator by a kustomize helmCharts entry', () => {
  const kustomization = (entry: string) =>
    [
      '# The GPU Operator, installed by the platform team.',
      'apiVersion: kustomize.config.k8s.io/v1beta1',
      'kind: Kustomization',
      'helmCharts:',
      '  - name: gpu-operator',
      '    repo: https://helm.ngc.nvidia.com/nvidia',
      '    version: v25.10.1',
      '    releaseName: gpu-operator',
      '    namespace: gpu-operator',
      entry,
      '',
    ].join('\n');

  it('in the bootstrap’s own folder: keeps it, reads its valuesFile, and says what differs and where to set it', async () => {
    const values = `${OPERATOR_FOLDER}/values.yaml`;
    const { notes, generators } = await bootstrapAround({
      [`${OPERATOR_FOLDER}/kustomization.yaml`]: kustomization(
        '    valuesFile: values.yaml',
      ),
      [values]: ALL_AS_NEEDED.replace('strategy: mixed', 'strategy: single'),
    });
    expect(notes).toEqual([
      `The GPU Operator is installed by the kustomize helmCharts entry \`gpu-operator\` in \`${OPERATOR_FOLDER}/kustomization.yaml\`, chart version v25.10.1, in namespace \`gpu-operator\`; the bootstrap writes no GPU Operator release of its own and never edits this one. As the product needs: \`devicePlugin.config.name: nvidia-device-plugin-configs\`, \`devicePlugin.config.default: default\`, \`devicePlugin.config.create: false\`, \`migManager.config.name: custom-mig-parted-config\`, \`migManager.config.create: false\`, \`daemonsets.tolerations\` (tolerates \`nvidia.com/gpu\`, the chart's default), \`node-feature-discovery.worker.tolerations\` (tolerates \`nvidia.com/gpu\`, the chart's default).`,
      `**The cluster profile disagrees**: \`migStrategy\` of the cluster profile \`prod\` (\`gpu.clusters.profiles.prod.migStrategy\`) is \`mixed\`, the strategy MIG requests for this cluster are planned for (each MIG instance a resource of its profile, \`nvidia.com/mig-<profile>\`), while this release runs \`mig.strategy: single\` (in \`${values}\` (its \`valuesFile\`): every MIG instance a \`nvidia.com/gpu\`). Set \`mig.strategy: mixed\` in \`${values}\` (its \`valuesFile\`), or the profile's \`migStrategy\` to \`single\`.`,
    ]);
    // The operator reads the profile's ConfigMaps: the product generates them.
    expect(generators).toEqual([
      'nvidia-device-plugin-configs',
      'custom-mig-parted-config',
    ]);
  });

  it('with nothing set, names each value the product needs and where to set it, and generates no ConfigMap the operator would not read', async () => {
    const file = 'platform/gpu-operator/kustomization.yaml';
    const inline = `\`valuesInline\` of the helmCharts entry \`gpu-operator\` in \`${file}\``;
    const { notes, generators, touched } = await bootstrapAround({
      [file]: kustomization(
        '    valuesInline:\n      driver: { enabled: false }',
      ),
    });
    expect(notes).toEqual([
      expect.stringContaining(
        `The GPU Operator is installed by the kustomize helmCharts entry \`gpu-operator\` in \`${file}\``,
      ),
      `**To do**: set \`devicePlugin.config.name: nvidia-device-plugin-configs\` in ${inline}: it is \`""\` (the chart's default), so the device plugin reads no ConfigMap of named configs and ignores the \`nvidia.com/device-plugin.config\` label that time-slicing and MPS pools select their config with; \`devicePluginConfigMap\` of the cluster profile \`prod\` (\`gpu.clusters.profiles.prod.devicePluginConfigMap\`) names \`gpu-operator/nvidia-device-plugin-configs\`. Until the two agree, the bootstrap generates no ConfigMap \`gpu-operator/nvidia-device-plugin-configs\`: the device plugin would never read it. Run the bootstrap again once they do.`,
      expect.stringContaining(
        `**To do**: set \`migManager.config.name: custom-mig-parted-config\` in ${inline}: it is \`""\` (the chart's default), so the MIG manager reads the operator’s own config`,
      ),
      expect.stringContaining(
        '**The cluster profile disagrees**: `migStrategy` of the cluster profile `prod`',
      ),
      expect.stringContaining(
        `Requests for mig are refused: cluster prod cannot run MIG pools as planned: its GPU Operator's MIG manager reads its own config, generated from the GPUs it finds`,
      ),
    ]);
    expect(generators).toEqual([]);
    expect(touched).not.toContain(
      'clusters/prod/gpu/device-plugin/default.yaml',
    );
    expect(touched).not.toContain('clusters/prod/gpu/mig/config.yaml');
  });
});

describe('bootstrap of a repository that installs the GPU Operator by a Flux HelmRelease (v2)', () => {
  const helmRelease = (chart: string, spec: string) =>
    [
      'apiVersion: helm.toolkit.fluxcd.io/v2',
      'kind: HelmRelease',
      'metadata:',
      '  name: gpu-operator',
      '  namespace: gpu-operator',
      'spec:',
      '  interval: 1h',
      chart,
      spec,
      '',
    ].join('\n');
  const fromHelmRepository = [
    '  chart:',
    '    spec:',
    '      chart: gpu-operator',
    '      version: v25.10.1',
    '      sourceRef: { kind: HelmRepository, name: nvidia, namespace: flux-system }',
  ].join('\n');
  const HELM_REPOSITORY =
    'apiVersion: source.toolkit.fluxcd.io/v1\nkind: HelmRepository\nmetadata: { name: nvidia, namespace: flux-system }\nspec: { url: https://helm.ngc.nvidia.com/nvidia }\n';

  it('with a HelmRepository: reads spec.values over a valuesFrom ConfigMap of the repository, and says where to set what differs', async () => {
    const release = 'infrastructure/gpu-operator/release.yaml';
    const { notes } = await bootstrapAround(
      {
        'infrastructure/gpu-operator/repository.yaml': HELM_REPOSITORY,
        [release]: helmRelease(
          fromHelmRepository,
          [
            '  valuesFrom:',
            '    - kind: ConfigMap',
            '      name: gpu-operator-values',
            '  values:',
            indent(ALL_AS_NEEDED, 4),
          ].join('\n'),
        ),
        'infrastructure/gpu-operator/kustomization.yaml': [
          'namespace: gpu-operator',
          'resources: [repository.yaml, release.yaml]',
          'configMapGenerator:',
          '  - name: gpu-operator-values',
          '    files: [values.yaml=operator-values.yaml]',
          '',
        ].join('\n'),
        'infrastructure/gpu-operator/operator-values.yaml': [
          'daemonsets:',
          '  tolerations:',
          '    - { key: nvidia.com/gpu, operator: Exists, effect: NoSchedule }',
          'devicePlugin:',
          '  config:',
          '    create: true',
          '    data: { any: "version: v1" }',
          '',
        ].join('\n'),
      },
      { gpuTaintKey: 'example.com/gpu' },
    );
    expect(notes[0]).toContain(
      `The GPU Operator is installed by Flux HelmRelease \`gpu-operator/gpu-operator\` in \`${release}\`, chart version v25.10.1, in namespace \`gpu-operator\`;`,
    );
    const fromConfigMap =
      '`spec.valuesFrom` ConfigMap `gpu-operator-values` (key `values.yaml`, in `infrastructure/gpu-operator/operator-values.yaml`)';
    expect(notes.slice(1)).toEqual([
      `**To do**: set \`devicePlugin.config.create: false\` in ${fromConfigMap}: with \`true\` (in ${fromConfigMap}) the chart makes ConfigMap \`nvidia-device-plugin-configs\` itself from \`devicePlugin.config.data\`, a second object of that name beside the one the product generates in the GPU folder.`,
      `**To do**: set \`daemonsets.tolerations: [{"key":"nvidia.com/gpu","operator":"Exists","effect":"NoSchedule"},{"key":"example.com/gpu","operator":"Exists","effect":"NoSchedule"}]\` in ${fromConfigMap}: the operands (device plugin, GPU feature discovery, DCGM exporter, MIG manager) do not tolerate the taint \`example.com/gpu\` (NoSchedule, any value) every GPU pool carries (\`gpuTaintKey\` of the cluster profile \`prod\` (\`gpu.clusters.profiles.prod.gpuTaintKey\`)), so they never run on GPU nodes. A list replaces the chart's whole list.`,
      expect.stringContaining(
        '**To do**: set `node-feature-discovery.worker.tolerations: [{"key":"node-role.kubernetes.io/control-plane","operator":"Equal","value":"","effect":"NoSchedule"},{"key":"nvidia.com/gpu","operator":"Exists","effect":"NoSchedule"},{"key":"example.com/gpu","operator":"Exists","effect":"NoSchedule"}]` in `spec.values` of HelmRelease `gpu-operator/gpu-operator`',
      ),
    ]);
  });

  it('with an OCIRepository (chartRef): cannot tell what a Secret of valuesFrom may set, and says so', async () => {
    const release = 'infrastructure/gpu-operator.yaml';
    const { notes } = await bootstrapAround({
      [release]: [
        helmRelease(
          '  chartRef: { kind: OCIRepository, name: gpu-operator }',
          [
            '  valuesFrom:',
            '    - kind: Secret',
            '      name: gpu-operator-overrides',
            '  values:',
            indent(ALL_AS_NEEDED.replace('    default: default\n', ''), 4),
          ].join('\n'),
        ),
        '---',
        'apiVersion: source.toolkit.fluxcd.io/v1beta2',
        'kind: OCIRepository',
        'metadata: { name: gpu-operator, namespace: gpu-operator }',
        'spec:',
        '  url: oci://registry.example.com/charts/gpu-operator',
        '  ref: { tag: v25.10.1 }',
        '',
      ].join('\n'),
    });
    expect(notes[0]).toContain(
      'The GPU Operator is installed by Flux HelmRelease `gpu-operator/gpu-operator` in `infrastructure/gpu-operator.yaml`, chart version v25.10.1',
    );
    // spec.values decides what it sets; what it leaves to the chart, the
    // Secret (merged under spec.values) may set.
    expect(notes[0]).toContain(
      '`devicePlugin.config.name: nvidia-device-plugin-configs`',
    );
    expect(notes).toContain(
      'Whether `devicePlugin.config.default` is `default` cannot be told: nothing the bootstrap can read sets it, and `spec.valuesFrom` Secret `gpu-operator-overrides` may; the bootstrap cannot read it. Make sure it is.',
    );
  });
  it('on a static inventory, says why it cannot tell whether NFD applies taints a Secret of valuesFrom may turn on', async () => {
    const { notes } = await bootstrapAround(
      {
        'infrastructure/gpu-operator.yaml': [
          helmRelease(
            fromHelmRepository,
            [
              '  valuesFrom:',
              '    - kind: Secret',
              '      name: nfd-overrides',
              '  values:',
              indent(ALL_AS_NEEDED, 4),
              '    nfd: { enabled: true }',
            ].join('\n'),
          ),
          '---',
          HELM_REPOSITORY,
        ].join('\n'),
      },
      {
        staticNodes: {
          select: 'name',
          inventory: [{ name: 'gpu-01', machine: 'rack-t4x2' }],
        },
      },
    );
    // Both keys that turn them on, each with its reason.
    const why =
      'nothing the bootstrap can read sets it, and `spec.valuesFrom` Secret `nfd-overrides` may; the bootstrap cannot read it';
    expect(notes).toContain(
      `Whether \`node-feature-discovery.master.enableTaints\` is \`true\` cannot be told: ${why}; ${why}. Make sure it is.`,
    );
  });
});

describe('bootstrap of a repository that installs the GPU Operator by an Argo CD Application', () => {
  const application = (source: string, namespace = 'gpu-operator') =>
    [
      'apiVersion: argoproj.io/v1alpha1',
      'kind: Application',
      'metadata:',
      '  name: gpu-operator',
      '  namespace: argocd',
      'spec:',
      '  project: platform',
      source,
      '  destination:',
      '    server: https://kubernetes.default.svc',
      `    namespace: ${namespace}`,
      '',
    ].join('\n');
  const DEVICE_PLUGIN_CONFIGS = [
    'apiVersion: v1',
    'kind: ConfigMap',
    'metadata: { name: time-slicing-config, namespace: gpu-operator }',
    'data:',
    '  any: "version: v1\\nflags:\\n  migStrategy: none\\n"',
    '',
  ].join('\n');

  it('single source: says the profile names another ConfigMap than the one its device plugin reads, the team’s own', async () => {
    const file = 'argocd/gpu-operator.yaml';
    const valuesObject = `\`spec.source.helm.valuesObject\` of Application \`argocd/gpu-operator\` in \`${file}\``;
    const { notes, generators } = await bootstrapAround({
      [file]: application(
        [
          '  source:',
          '    repoURL: https://helm.ngc.nvidia.com/nvidia',
          '    chart: gpu-operator',
          '    targetRevision: v25.10.1',
          '    helm:',
          '      valuesObject:',
          indent(
            ALL_AS_NEEDED.replace(
              'name: nvidia-device-plugin-configs',
              'name: time-slicing-config',
            ),
            8,
          ),
        ].join('\n'),
      ),
      'clusters/prod/nvidia/time-slicing.yaml': DEVICE_PLUGIN_CONFIGS,
    });
    expect(notes).toContain(
      `**The cluster profile disagrees**: the device plugin reads ConfigMap \`time-slicing-config\` (\`devicePlugin.config.name\` in ${valuesObject}), while \`devicePluginConfigMap\` of the cluster profile \`prod\` (\`gpu.clusters.profiles.prod.devicePluginConfigMap\`) names \`gpu-operator/nvidia-device-plugin-configs\`. Set \`devicePlugin.config.name: nvidia-device-plugin-configs\` in ${valuesObject}, or the profile's \`devicePluginConfigMap.name\` to \`time-slicing-config\` (written by hand in \`clusters/prod/nvidia/time-slicing.yaml\`). Until the two agree, the bootstrap generates no ConfigMap \`gpu-operator/nvidia-device-plugin-configs\`: the device plugin would never read it. Run the bootstrap again once they do.`,
    );
    expect(generators).toEqual(['custom-mig-parted-config']);
  });

  it('one of several sources: reads its parameters over its valuesObject, and says the operator runs in another namespace than the profile’s ConfigMaps', async () => {
    const file = 'argocd/gpu-operator.yaml';
    const { notes, generators } = await bootstrapAround({
      [file]: application(
        [
          '  sources:',
          '    - repoURL: https://git.example.com/platform/values.git',
          '      ref: values',
          '    - repoURL: https://helm.ngc.nvidia.com/nvidia',
          '      chart: gpu-operator',
          '      targetRevision: v25.10.1',
          '      helm:',
          '        parameters:',
          '          - { name: mig.strategy, value: mixed }',
          '        valuesObject:',
          indent(
            ALL_AS_NEEDED.replace('strategy: mixed', 'strategy: single'),
            10,
          ),
        ].join('\n'),
        'nvidia-gpu-operator',
      ),
    });
    expect(notes[0]).toContain(
      'The GPU Operator is installed by Argo CD Application `argocd/gpu-operator` (`spec.sources[1]`) in `argocd/gpu-operator.yaml`, chart version v25.10.1, in namespace `nvidia-gpu-operator`',
    );
    expect(notes[0]).toContain('`mig.strategy: mixed`');
    expect(notes.slice(1)).toEqual([
      "**The cluster profile disagrees**: this release runs the operator, and with it the operands that mount its ConfigMaps, in namespace `nvidia-gpu-operator`, and a pod mounts ConfigMaps of its own namespace only, while `devicePluginConfigMap` of the cluster profile `prod` (`gpu.clusters.profiles.prod.devicePluginConfigMap`) is in `gpu-operator`. Set the profile's `devicePluginConfigMap.namespace` to `nvidia-gpu-operator`.",
      "**The cluster profile disagrees**: this release runs the operator, and with it the operands that mount its ConfigMaps, in namespace `nvidia-gpu-operator`, and a pod mounts ConfigMaps of its own namespace only, while `migPartedConfigMap` of the cluster profile `prod` (`gpu.clusters.profiles.prod.migPartedConfigMap`) is in `gpu-operator`. Set the profile's `migPartedConfigMap.namespace` to `nvidia-gpu-operator`.",
    ]);
    // The operator would never read the profile's ConfigMaps there.
    expect(generators).toEqual([]);
  });
});

describe('bootstrap GPU Operator: which releases count', () => {
  const helmCharts =
    'helmCharts:\n  - name: gpu-operator\n    version: v25.10.1\n    valuesInline: { mig: { strategy: mixed } }\n';

  it('takes a release in another cluster’s folder as that cluster’s, and writes its own', async () => {
    const dir = await writeTempRepo({
      ...CLUSTER_FOLDER,
      'clusters/dev/gpu-operator/kustomization.yaml': helmCharts,
    });
    dirs.push(dir);
    const changeSet = await buildBootstrapChangeSet(
      new FsRepoTree(dir),
      profile(),
      OPTIONS,
    );
    expect(changeSet.gpuOperatorRelease).toBe('bootstrap');
    expect(otherThanWiring(changeSet.notes)).toEqual([]);
    const kustomization = parse(
      writes(changeSet).find(
        c => c.path === `${OPERATOR_FOLDER}/kustomization.yaml`,
      )!.content,
    );
    expect(kustomization.helmCharts[0]).toMatchObject({
      name: 'gpu-operator',
      version: 'v26.7.0',
    });
  });

  it('leaves its own release alone once one it did not write is there, and says to remove one; says to keep one of several', async () => {
    const dir = await writeTempRepo(CLUSTER_FOLDER);
    dirs.push(dir);
    const tree = new FsRepoTree(dir);
    await writeChangeSet(
      tree,
      await buildBootstrapChangeSet(tree, profile(), OPTIONS),
    );
    await tree.writeFile('infra/a/kustomization.yaml', helmCharts);
    await tree.writeFile('infra/b/kustomization.yaml', helmCharts);
    const changeSet = await buildBootstrapChangeSet(tree, profile(), {
      ...OPTIONS,
      operatorChartVersion: 'v26.8.0',
    });
    expect(changeSet.changes).toEqual([]);
    expect(otherThanWiring(changeSet.notes)[0]).toBe(
      '2 GPU Operator releases were found for this cluster, where one operator runs: keep one.',
    );
    expect(otherThanWiring(changeSet.notes)).toContain(
      `The bootstrap's own GPU Operator release in \`${OPERATOR_FOLDER}/\` installs the operator a second time: remove that folder.`,
    );
  });

  it('refuses a hand-written kustomization in its folder that installs no GPU Operator, saying how to declare one', async () => {
    const dir = await writeTempRepo({
      ...CLUSTER_FOLDER,
      [`${OPERATOR_FOLDER}/kustomization.yaml`]:
        'resources: [configmaps.yaml]\n',
    });
    dirs.push(dir);
    const error = await buildBootstrapChangeSet(
      new FsRepoTree(dir),
      profile(),
      OPTIONS,
    ).catch(e => e);
    expect(isGpuInputError(error)).toBe(true);
    expect(error.issues).toEqual([
      expect.objectContaining({
        path: `${OPERATOR_FOLDER}/kustomization.yaml`,
        message: expect.stringContaining(
          'declare it so the bootstrap finds it (a kustomize helmCharts entry, a Flux HelmRelease or an Argo CD Application of the chart "gpu-operator")',
        ),
      }),
    ]);
  });
});

describe('bootstrap GPU Operator: NFD on a static cluster with a node inventory', () => {
  const STATIC = {
    staticNodes: {
      select: 'name' as const,
      inventory: [{ name: 'gpu-01', machine: 'rack-t4x2' }],
    },
  };
  const release = (values: string) => ({
    'infra/gpu-operator/kustomization.yaml': [
      'helmCharts:',
      '  - name: gpu-operator',
      '    version: v26.7.0',
      '    valuesInline:',
      indent(ALL_AS_NEEDED, 6),
      indent(values, 6),
      '',
    ].join('\n'),
  });

  it('says to turn NFD’s taints on when nothing does', async () => {
    const { notes } = await bootstrapAround(release(''), STATIC);
    expect(notes).toEqual([
      expect.any(String),
      expect.stringMatching(
        /^\*\*To do\*\*: set `node-feature-discovery\.master\.enableTaints: true` in `valuesInline` of the helmCharts entry `gpu-operator` in `infra\/gpu-operator\/kustomization\.yaml`: `staticNodes` of the cluster profile `prod` .* makes the cluster's pools NodeFeatureRules, whose taints nfd-master applies only with `-enable-taints`/,
      ),
    ]);
  });

  it.each([
    [
      'master.enableTaints',
      'node-feature-discovery:\n  master:\n    enableTaints: true',
    ],
    [
      'master.config.enableTaints',
      'node-feature-discovery:\n  master:\n    config:\n      enableTaints: true',
    ],
  ])('takes %s as on', async (_key, values) => {
    const { notes } = await bootstrapAround(release(values), STATIC);
    expect(notes).toHaveLength(1);
    expect(notes[0]).toContain('enableTaints: true`');
  });

  it('says what the NFD that runs elsewhere must do when this release deploys none', async () => {
    const { notes } = await bootstrapAround(
      release('nfd:\n  enabled: false'),
      STATIC,
    );
    expect(notes.slice(1)).toEqual([
      'This release deploys no NFD (`nfd.enabled: false` in `valuesInline` of the helmCharts entry `gpu-operator` in `infra/gpu-operator/kustomization.yaml`). Make sure the NFD that labels GPU nodes for the operator tolerates `nvidia.com/gpu` and applies the NodeFeatureRules’ pool taints (nfd-master `-enable-taints`).',
    ]);
  });
});

/**
 * The bootstrap on repositories whose GPU nodes already run a device plugin
 * other than the GPU Operator's, or whose GPU Operator runs no MIG manager:
 * it installs no second device plugin, and says which requests the cluster
 * cannot run and why.
 */
import { parse } from 'yaml';
import {
  resolveClusterProfile,
  type ClusterProfileOverride,
} from '@gpu-gitops/plugin-gpu-common';
import { MemoryRepoTree } from '../../repo/tree';
import { writes } from '../__testUtils__/writes';
import {
  ARGO_GPU_OPERATOR_WITHOUT_MIG_MANAGER,
  BOTTLEROCKET_NODE_CLASS,
  STATIC_DEVICE_PLUGIN,
  fluxDevicePluginChart,
  gfdChartValues,
} from './__fixtures__/gpuStackShapes';
import { buildBootstrapChangeSet } from './bootstrapChangeSet';

const OPTIONS = { operatorChartVersion: 'v26.7.0', binPacking: false };
const VALUES = 'clusters/prod/gpu-operator/values.yaml';
const DEFAULT_CONFIG = 'clusters/prod/gpu/device-plugin/default.yaml';

async function bootstrap(
  files: Record<string, string>,
  override: ClusterProfileOverride = {},
) {
  const cluster = resolveClusterProfile({ name: 'prod', ...override });
  const changeSet = await buildBootstrapChangeSet(
    new MemoryRepoTree(files),
    cluster,
    OPTIONS,
  );
  const written = new Map(writes(changeSet).map(c => [c.path, c.content]));
  const values = written.has(VALUES) ? parse(written.get(VALUES)!) : undefined;
  return { changeSet, written, values, notes: changeSet.notes };
}

describe('bootstrap beside a device plugin the cluster already runs', () => {
  it("the standalone chart (Flux HelmRelease): the bootstrap's GPU Operator runs no device plugin, generates no config it would never read, and says time-slicing and MIG are refused (MPS is, by the mixed MIG strategy, already)", async () => {
    const file = 'clusters/prod/infrastructure/nvidia-device-plugin.yaml';
    const { values, written, notes } = await bootstrap({
      [file]: fluxDevicePluginChart('    gfd:\n      enabled: true'),
    });
    expect(values.devicePlugin.enabled).toBe(false);
    expect(values.migManager.enabled).toBe(true);
    expect(written.has(DEFAULT_CONFIG)).toBe(false);
    expect(notes).toContainEqual(
      `The GPU nodes run their own device plugin: the \`nvidia-device-plugin\` Helm chart installed by Flux HelmRelease \`gpu-operator/nvidia-device-plugin\` in \`${file}\`. Requests are planned against what it can do. The bootstrap's GPU Operator release runs no device plugin beside it (\`devicePlugin.enabled: false\` in \`${VALUES}\`) and no second GPU feature discovery (\`gfd.enabled: false\`): the \`nvidia-device-plugin\` Helm chart installed by Flux HelmRelease \`gpu-operator/nvidia-device-plugin\` in \`${file}\` deploys its own; it keeps its NFD, the DCGM exporter and the MIG manager.`,
    );
    const refused = notes.filter(n => n.startsWith('Requests for'));
    expect(refused.map(n => n.split(' are refused')[0])).toEqual([
      'Requests for time-slicing',
      'Requests for mig',
    ]);
    expect(refused[0]).toContain(
      'set its Helm value config.name to nvidia-device-plugin-configs',
    );
    // Its values set no MIG strategy: the plugin runs `none`, and would
    // advertise a MIG pool's partitioned GPUs whole.
    expect(refused[1]).toContain(
      'whose MIG strategy is "none", not the cluster profile\'s "mixed"',
    );
  });

  it("the standalone chart with GFD and an NFD whose workers run on the GPU nodes: the bootstrap's GPU Operator deploys neither a second GFD nor a second NFD", async () => {
    const file = 'clusters/prod/infrastructure/nvidia-device-plugin.yaml';
    const { values, notes } = await bootstrap({
      [file]: fluxDevicePluginChart(gfdChartValues(true)),
    });
    expect(values.devicePlugin.enabled).toBe(false);
    expect(values.gfd).toEqual({ enabled: false });
    expect(values.nfd).toEqual({ enabled: false });
    expect(values['node-feature-discovery']).toBeUndefined();
    expect(notes).toContainEqual(
      expect.stringContaining(
        `The bootstrap's GPU Operator release runs no device plugin beside it (\`devicePlugin.enabled: false\` in \`${VALUES}\`), no second GPU feature discovery (\`gfd.enabled: false\`) and no second NFD (\`nfd.enabled: false\`): the \`nvidia-device-plugin\` Helm chart installed by Flux HelmRelease \`gpu-operator/nvidia-device-plugin\` in \`${file}\` deploys its own; it keeps the DCGM exporter and the MIG manager.`,
      ),
    );
  });

  it("a static cluster's NodeFeatureRule pools beside the standalone chart's NFD, which labels the GPU nodes: a to-do to turn its taints on, none once they are", async () => {
    const file = 'clusters/prod/infrastructure/nvidia-device-plugin.yaml';
    const staticProfile: ClusterProfileOverride = {
      provider: 'static',
      staticNodes: {
        select: 'gpu',
        inventory: [{ name: 'gpu-t4-01', machine: 'rack-t4x2' }],
      },
    };
    const toDo = (notes: string[]) =>
      notes.filter(n => n.includes('-enable-taints'));
    const without = await bootstrap(
      { [file]: fluxDevicePluginChart(gfdChartValues(true)) },
      staticProfile,
    );
    expect(without.values.nfd).toEqual({ enabled: false });
    expect(toDo(without.notes)).toEqual([
      expect.stringMatching(
        /^\*\*To do\*\*: cluster prod's pools are NodeFeatureRules/,
      ),
    ]);
    expect(toDo(without.notes)[0]).toContain(
      `set \`nfd.master.enableTaints: true\` in \`spec.values\` of HelmRelease \`gpu-operator/nvidia-device-plugin\` in \`${file}\``,
    );

    const withTaints = await bootstrap(
      {
        [file]: fluxDevicePluginChart(
          `${gfdChartValues(true)}\n      master:\n        enableTaints: true`,
        ),
      },
      staticProfile,
    );
    expect(withTaints.values.nfd).toEqual({ enabled: false });
    expect(toDo(withTaints.notes)).toEqual([]);
  });

  it("the standalone chart with GFD and the chart's own NFD, whose workers do not tolerate the GPU taint: no second GFD, the operator's NFD kept (the GPU nodes' labels come from it), and what to set for one NFD", async () => {
    const file = 'clusters/prod/infrastructure/nvidia-device-plugin.yaml';
    const { values, notes } = await bootstrap({
      [file]: fluxDevicePluginChart(gfdChartValues()),
    });
    expect(values.gfd).toEqual({ enabled: false });
    expect(values.nfd).toEqual({ enabled: true });
    expect(notes).toContainEqual(
      expect.stringContaining(
        `Two NFDs run: the \`nvidia-device-plugin\` Helm chart installed by Flux HelmRelease \`gpu-operator/nvidia-device-plugin\` in \`${file}\` deploys its own (its NFD subchart), whose workers do not tolerate the taint \`nvidia.com/gpu\` of the GPU pools (its \`nfd.worker.tolerations\`), so the bootstrap's GPU Operator keeps its NFD to label the GPU nodes; to run one, add \`{key: nvidia.com/gpu, operator: Exists, effect: NoSchedule}\` to its \`nfd.worker.tolerations\` (or set its \`nfd.enabled: false\`) and run the bootstrap again.`,
      ),
    );
  });

  it("the standalone chart deploying GPU feature discovery alone (devicePlugin.enabled false): the operator's device plugin stays the one, its GFD goes, and the note says so", async () => {
    const file = 'clusters/prod/infrastructure/gpu-feature-discovery.yaml';
    const { values, notes } = await bootstrap({
      [file]: fluxDevicePluginChart(
        `    devicePlugin:\n      enabled: false\n${gfdChartValues(true)}`,
      ),
    });
    expect(values.devicePlugin.enabled).toBe(true);
    expect(values.gfd).toEqual({ enabled: false });
    expect(values.nfd).toEqual({ enabled: false });
    expect(notes).toContainEqual(
      `The bootstrap's GPU Operator release runs no second GPU feature discovery (\`gfd.enabled: false\` in \`${VALUES}\`) and no second NFD (\`nfd.enabled: false\`): the \`nvidia-device-plugin\` Helm chart installed by Flux HelmRelease \`gpu-operator/nvidia-device-plugin\` in \`${file}\` deploys its own; it keeps its device plugin, the DCGM exporter and the MIG manager.`,
    );
  });

  it("the standalone chart reading the profile's ConfigMap: named configs stay, so only the second device plugin goes", async () => {
    const { values, written, notes } = await bootstrap({
      'clusters/prod/infrastructure/nvidia-device-plugin.yaml':
        fluxDevicePluginChart(
          '    config:\n      name: nvidia-device-plugin-configs\n      default: default',
        ),
    });
    expect(values.devicePlugin.enabled).toBe(false);
    expect(written.has(DEFAULT_CONFIG)).toBe(true);
    expect(notes.filter(n => n.startsWith('Requests for'))).toEqual([]);
  });

  it('the static nvidia-device-plugin.yml DaemonSet: the same, naming the DaemonSet and its file', async () => {
    const file = 'clusters/prod/kube-system/nvidia-device-plugin.yml';
    const { values, written, notes } = await bootstrap({
      [file]: STATIC_DEVICE_PLUGIN,
    });
    expect(values.devicePlugin.enabled).toBe(false);
    expect(written.has(DEFAULT_CONFIG)).toBe(false);
    expect(notes.join('\n')).toContain(
      `DaemonSet \`nvidia-device-plugin-daemonset\` running the \`k8s-device-plugin\` image, in \`${file}\``,
    );
  });

  it("Bottlerocket's built-in device plugin (the GPU pools' EC2NodeClass): no second one, its node class kept, per-pool configs refused but time-slicing, which runs on the class's own slices", async () => {
    const file = 'clusters/prod/karpenter/nodeclass-gpu.yaml';
    const { values, written, notes } = await bootstrap({
      [file]: BOTTLEROCKET_NODE_CLASS,
    });
    expect(values.devicePlugin.enabled).toBe(false);
    expect(written.has(DEFAULT_CONFIG)).toBe(false);
    // The team's node class stays the GPU pools' one.
    expect([...written.keys()].filter(p => p.includes('nodeclasses'))).toEqual(
      [],
    );
    const refused = notes.filter(n => n.startsWith('Requests for'));
    // Its user data time-slices every GPU of the class: no whole GPUs
    // either, and time-slicing plans on its slices (nodeClassConfig.ts).
    expect(refused.map(n => n.split(' are refused')[0])).toEqual([
      'Requests for exclusive',
      'Requests for mig',
    ]);
    expect(refused[0]).toContain(
      'which shares every GPU (time-slicing, 4 per GPU',
    );
    expect(refused[1]).toContain(
      `Bottlerocket's built-in NVIDIA device plugin (EC2NodeClass \`gpu\` of the GPU pools with \`amiSelectorTerms\` alias \`bottlerocket@latest\`, in \`${file}\`)`,
    );
  });

  it('a Bottlerocket node class the GPU pools do not use changes nothing', async () => {
    const { values, notes } = await bootstrap({
      'clusters/prod/karpenter/nodeclass-system.yaml':
        BOTTLEROCKET_NODE_CLASS.replace('name: gpu', 'name: system'),
    });
    expect(values.devicePlugin.enabled).toBe(true);
    expect(notes.filter(n => n.startsWith('Requests for'))).toEqual([]);
  });

  it('an adopted GPU Operator release that runs its device plugin beside the standalone one: says to turn it off, and where', async () => {
    const { notes } = await bootstrap({
      'argocd/apps/gpu-operator.yaml': ARGO_GPU_OPERATOR_WITHOUT_MIG_MANAGER,
      'clusters/prod/kube-system/nvidia-device-plugin.yml':
        STATIC_DEVICE_PLUGIN,
    });
    expect(notes).toContainEqual(
      expect.stringContaining(
        "**To do**: set `devicePlugin.enabled: false` in `spec.source.helm.valuesObject` of Application `argocd/gpu-operator` in `argocd/apps/gpu-operator.yaml`: it is `true` (the chart's default), so the operator runs a second device plugin beside DaemonSet `nvidia-device-plugin-daemonset`",
      ),
    );
  });
  it('an adopted GPU Operator release beside the standalone chart with GFD and an NFD on the GPU nodes: says to turn its own GFD and NFD off, and where', async () => {
    const { notes } = await bootstrap({
      'argocd/apps/gpu-operator.yaml': ARGO_GPU_OPERATOR_WITHOUT_MIG_MANAGER,
      'clusters/prod/infrastructure/nvidia-device-plugin.yaml':
        fluxDevicePluginChart(gfdChartValues(true)),
    });
    for (const [key, what] of [
      ['gfd.enabled', 'GPU feature discovery'],
      ['nfd.enabled', 'NFD'],
    ]) {
      expect(notes).toContainEqual(
        expect.stringContaining(
          `**To do**: set \`${key}: false\` in \`spec.source.helm.valuesObject\` of Application \`argocd/gpu-operator\` in \`argocd/apps/gpu-operator.yaml\`: it is \`true\` (the chart's default), so the operator deploys a second ${what} beside the one the \`nvidia-device-plugin\` Helm chart installed by Flux HelmRelease`,
        ),
      );
    }
  });
});

describe('bootstrap beside a GPU Operator without its MIG manager', () => {
  it('says MIG requests are refused, naming the value and the file', async () => {
    const { notes } = await bootstrap({
      'argocd/apps/gpu-operator.yaml': ARGO_GPU_OPERATOR_WITHOUT_MIG_MANAGER,
    });
    const mig = notes.filter(n => n.startsWith('Requests for mig'));
    expect(mig).toHaveLength(1);
    expect(mig[0]).toContain(
      'its GPU Operator runs no MIG manager (`migManager.enabled: false` in `spec.source.helm.valuesObject` of Application `argocd/gpu-operator` in `argocd/apps/gpu-operator.yaml`)',
    );
  });
});

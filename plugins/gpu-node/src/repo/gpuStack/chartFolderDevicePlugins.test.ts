/**
 * A device plugin rendered by a chart folder of the repository is one the
 * GPU nodes run: a team's own chart (chanzuckerberg's
 * `karpenter-gpu-nodepool`, in `test/fixtures/argocd-nodepool-chart-repo`,
 * origins in its README) whose DaemonSet template takes the
 * `nvcr.io/nvidia/k8s-device-plugin` image from its values, and NVIDIA's
 * own chart vendored as a folder (`__fixtures__/charts/`, origins in its
 * README), rendered by each tool's form.
 */
import { promises as fs } from 'node:fs';
import path from 'node:path';
import {
  resolveClusterProfile,
  type ClusterGpuStack,
} from '@gpu-gitops/plugin-gpu-common';
import { MemoryRepoTree } from '../tree';
import { gpuStackFileRole, readGpuStack } from './readGpuStack';

const prod = resolveClusterProfile({ name: 'prod' });

/** Every file under `dir`, keyed by `prefix` + its path inside. */
async function folderFiles(
  dir: string,
  prefix: string,
): Promise<Record<string, string>> {
  const out: Record<string, string> = {};
  for (const entry of await fs.readdir(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) {
      Object.assign(out, await folderFiles(full, `${prefix}${entry.name}/`));
    } else if (entry.name !== 'README.md') {
      out[`${prefix}${entry.name}`] = await fs.readFile(full, 'utf8');
    }
  }
  return out;
}

const TEAM_CHART_REPO = path.join(
  __dirname,
  '../../../../../test/fixtures/argocd-nodepool-chart-repo',
);
const VENDORED_CHART = path.join(
  __dirname,
  '../../changes/bootstrap/__fixtures__/charts/nvidia-device-plugin',
);

/**
 * The stack as `readGpuStack` reads it from every YAML file, and from only
 * the files `gpuStackFileRole` keeps (the allocation index's selection),
 * which must agree.
 */
async function stackOf(
  files: Record<string, string>,
): Promise<ClusterGpuStack> {
  const tree = new MemoryRepoTree(files);
  const all = Object.entries(files)
    .filter(([p]) => /\.ya?ml$/.test(p))
    .map(([p, text]) => ({ path: p, text }));
  const fromAll = await readGpuStack(tree, prod, all);
  const kept = all.filter(f => gpuStackFileRole(f.text) === 'release');
  expect(await readGpuStack(tree, prod, kept)).toEqual(fromAll);
  return fromAll;
}

describe('a device plugin rendered by a chart folder of the repository', () => {
  let teamRepo: Record<string, string>;
  let vendored: Record<string, string>;
  beforeAll(async () => {
    teamRepo = await folderFiles(TEAM_CHART_REPO, '');
    vendored = await folderFiles(
      VENDORED_CHART,
      'charts/nvidia-device-plugin/',
    );
  });

  it('a team’s chart whose DaemonSet takes the k8s-device-plugin image from its values (Argo CD source.path): a standalone plugin, placed by that values block', async () => {
    const stack = await stackOf(teamRepo);
    expect(stack.devicePlugins).toEqual([
      expect.objectContaining({
        kind: 'standalone',
        readsNamedConfigs: false,
        file: 'clusters/prod/gpu-nodepool.yaml',
        setting: expect.stringContaining(
          "NVIDIA's device plugin as the chart `karpenter-gpu-nodepool` renders it (the `k8s-device-plugin` image in `nvidiaDriver` of `charts/karpenter-gpu-nodepool/values.yaml`",
        ),
        // Its values tolerate every taint: it runs on every node.
        placement: expect.objectContaining({
          tolerations: expect.arrayContaining([{ operator: 'Exists' }]),
        }),
      }),
    ]);
    expect(stack.devicePlugin).toMatchObject({
      kind: 'standalone',
      readsNamedConfigs: false,
    });
  });

  it('the team’s chart with its device plugin turned off by the Application’s values: none', async () => {
    const off = teamRepo['clusters/prod/gpu-nodepool.yaml'].replace(
      '      valuesObject:\n',
      '      valuesObject:\n        nvidiaDriver:\n          enabled: false\n',
    );
    expect(off).toContain('enabled: false');
    const stack = await stackOf({
      ...teamRepo,
      'clusters/prod/gpu-nodepool.yaml': off,
    });
    expect(stack.devicePlugins).toBeUndefined();
    expect(stack.devicePlugin).toBeUndefined();
  });

  it('NVIDIA’s chart vendored as a folder, rendered by a Flux HelmRelease from the GitRepository: its config.map default read with the release’s values over the folder’s', async () => {
    const release = `apiVersion: helm.toolkit.fluxcd.io/v2
kind: HelmRelease
metadata: {name: device-plugin, namespace: flux-system}
spec:
  interval: 10m
  targetNamespace: nvidia-device-plugin
  chart:
    spec:
      chart: ./charts/nvidia-device-plugin
      sourceRef: {kind: GitRepository, name: flux-system}
  values:
    config:
      map:
        default: |-
          version: v1
          sharing:
            timeSlicing:
              resources:
                - name: nvidia.com/gpu
                  replicas: 10
`;
    const stack = await stackOf({
      ...vendored,
      'clusters/prod/device-plugin.yaml': release,
    });
    expect(stack.devicePlugin).toEqual({
      kind: 'standalone',
      readsNamedConfigs: false,
      file: 'clusters/prod/device-plugin.yaml',
      setting:
        'the `nvidia-device-plugin` Helm chart installed by Flux HelmRelease `flux-system/device-plugin`, rendering the chart folder `charts/nvidia-device-plugin` in `clusters/prod/device-plugin.yaml`',
      sharesByDefault: expect.stringContaining(
        'time-slicing, 10 per GPU, as `nvidia.com/gpu`',
      ),
      // Its default config sets no flags.migStrategy: the plugin's `none`.
      migStrategy: 'none',
    });
  });

  it('an umbrella chart depending on NVIDIA’s chart, inflated by a kustomize helmCharts entry: seen unless its condition turns it off', async () => {
    const umbrella = (enabled: boolean) => ({
      'clusters/prod/kustomization.yaml': `helmCharts:
  - name: gpu-stack
    releaseName: gpu-stack
    namespace: gpu
    valuesInline:
      devicePlugin:
        enabled: ${enabled}
`,
      'clusters/prod/charts/gpu-stack/Chart.yaml': `apiVersion: v2
name: gpu-stack
version: 1.0.0
dependencies:
  - name: nvidia-device-plugin
    alias: devicePlugin
    version: 0.20.0
    repository: https://nvidia.github.io/k8s-device-plugin
    condition: devicePlugin.enabled
`,
      'clusters/prod/charts/gpu-stack/values.yaml': `devicePlugin:
  config:
    name: nvidia-device-plugin-configs
`,
    });
    const on = await stackOf(umbrella(true));
    expect(on.devicePlugin).toMatchObject({
      kind: 'standalone',
      file: 'clusters/prod/kustomization.yaml',
      setting: expect.stringContaining(
        'rendering the chart folder `clusters/prod/charts/gpu-stack` (its dependency `devicePlugin`)',
      ),
    });
    expect((await stackOf(umbrella(false))).devicePlugin).toBeUndefined();
  });

  it('the GPU Operator’s chart vendored as a folder (Argo CD source.path): its values.yaml turning the MIG manager off is read', async () => {
    const stack = await stackOf({
      'charts/gpu-operator/Chart.yaml':
        'apiVersion: v2\nname: gpu-operator\nversion: v26.7.0\n',
      'charts/gpu-operator/values.yaml':
        'migManager:\n  enabled: false\ndevicePlugin:\n  enabled: true\n',
      'clusters/prod/gpu-operator.yaml': `apiVersion: argoproj.io/v1alpha1
kind: Application
metadata: {name: gpu-operator, namespace: argocd}
spec:
  destination: {server: https://kubernetes.default.svc, namespace: gpu-operator}
  source:
    repoURL: https://github.com/acme/gitops.git
    targetRevision: main
    path: charts/gpu-operator
`,
    });
    expect(stack.migManagerOff).toEqual({
      file: 'clusters/prod/gpu-operator.yaml',
      setting:
        "`migManager.enabled: false` in `charts/gpu-operator/values.yaml` (the chart folder's values)",
    });
    expect(stack.devicePlugins).toEqual([
      expect.objectContaining({ kind: 'gpu-operator' }),
    ]);
  });
});

import { promises as fs } from 'node:fs';
import path from 'node:path';
import { parse } from 'yaml';
import {
  resolveClusterProfile,
  type ClusterProfile,
} from '@gpu-gitops/plugin-gpu-common';
import { MemoryRepoTree } from '../../../repo/tree';
import { writeChangeSet } from '../../stagedTree';
import { DRA_DRIVER_KUBELET_PLUGIN } from '../../__testUtils__/draDriverKubeletPlugin';
import { buildBootstrapChangeSet } from '../bootstrapChangeSet';

const DRIVER_VALUES = 'clusters/lab/dra-driver/values.yaml';
const DRIVER_KUSTOMIZATION = 'clusters/lab/dra-driver/kustomization.yaml';

const profile = (overrides: Record<string, unknown> = {}) =>
  resolveClusterProfile({
    name: 'lab',
    migStrategy: 'single',
    karpenterVersion: '1.15.1',
    kubernetesVersion: '1.36.0',
    dra: { karpenterNvidiaGate: true },
    ...overrides,
  });

async function bootstrap(
  cluster: ClusterProfile,
  files: Record<string, string> = {},
) {
  const tree = new MemoryRepoTree(files);
  const change = await buildBootstrapChangeSet(tree, cluster, {
    operatorChartVersion: 'v26.7.0',
    binPacking: false,
  });
  await writeChangeSet(tree, change);
  return { tree, change };
}

async function driverValues(cluster: ClusterProfile) {
  const { tree } = await bootstrap(cluster);
  const text = await tree.readFile(DRIVER_VALUES);
  return text === undefined ? undefined : parse(text);
}

/** The chart's own values (no values.schema.json ships with it): the keys a release may set. */
async function chartValues() {
  return parse(
    await fs.readFile(
      path.join(__dirname, '__fixtures__/chart-values.0.5.0-dev.yaml'),
      'utf8',
    ),
  );
}

/** Every path of `values` down to a leaf, or to a map the chart leaves open (`{}`). */
function unknownPaths(
  values: unknown,
  chart: unknown,
  at: string[] = [],
): string[] {
  if (typeof values !== 'object' || values === null || Array.isArray(values)) {
    return [];
  }
  if (typeof chart !== 'object' || chart === null) return [at.join('.')];
  if (Object.keys(chart).length === 0) return [];
  return Object.entries(values).flatMap(([key, value]) =>
    key in chart
      ? unknownPaths(value, (chart as Record<string, unknown>)[key], [
          ...at,
          key,
        ])
      : [[...at, key].join('.')],
  );
}

describe('the bootstrap’s DRA driver release', () => {
  it('sets only values the chart defines, publishes GPUs, and no gate unless the profile shares GPUs', async () => {
    const values = await driverValues(profile());
    expect(unknownPaths(values, await chartValues())).toEqual([]);
    expect(values.gpuResourcesEnabledOverride).toBe(true);
    expect(values.resources.gpus.enabled).toBe(true);
    expect(values.featureGates).toBeUndefined();
    expect(values.consumableShares).toBeUndefined();
  });

  it('turns ConsumableShares on with the profile’s integer shares, and never DynamicMIG', async () => {
    const values = await driverValues(
      profile({ dra: { karpenterNvidiaGate: true, consumableShares: 4 } }),
    );
    expect(unknownPaths(values, await chartValues())).toEqual([]);
    expect(values.featureGates).toEqual({ ConsumableShares: true });
    expect(values.consumableShares).toBe('4');
  });

  it('places its kubelet plugin on the DRA pools’ nodes only, tolerating the pools’ taint', async () => {
    const values = await driverValues(
      profile({ gpuTaintKey: 'example.com/gpu' }),
    );
    expect(values.kubeletPlugin.affinity).toEqual({
      nodeAffinity: {
        requiredDuringSchedulingIgnoredDuringExecution: {
          nodeSelectorTerms: [
            {
              matchExpressions: [
                {
                  key: 'nvidia.com/gpu.deploy.device-plugin',
                  operator: 'In',
                  values: ['false'],
                },
              ],
            },
          ],
        },
      },
    });
    expect(values.kubeletPlugin.tolerations).toEqual([
      { key: 'example.com/gpu', operator: 'Exists', effect: 'NoSchedule' },
      { key: 'nvidia.com/gpu', operator: 'Exists', effect: 'NoSchedule' },
    ]);
  });

  it.each([
    ['no dra settings', { dra: undefined }],
    ['Kubernetes below 1.34', { kubernetesVersion: '1.33.4' }],
    ['no Kubernetes version', { kubernetesVersion: undefined }],
  ])('writes no driver with %s', async (_label, overrides) => {
    const { tree, change } = await bootstrap(profile(overrides));
    expect(await tree.readFile(DRIVER_KUSTOMIZATION)).toBeUndefined();
    expect(change.notes.join('\n')).not.toMatch(/DRA driver/);
  });

  it('a driver the team deploys is kept as it is: no second one, and the notes name it', async () => {
    const theirs = 'clusters/lab/infrastructure/dra-driver.yaml';
    const { tree, change } = await bootstrap(profile(), {
      [theirs]: DRA_DRIVER_KUBELET_PLUGIN,
    });
    expect(await tree.readFile(DRIVER_KUSTOMIZATION)).toBeUndefined();
    expect(await tree.readFile(theirs)).toBe(DRA_DRIVER_KUBELET_PLUGIN);
    expect(change.notes.join('\n')).toMatch(
      /NVIDIA's DRA driver is deployed by DaemonSet `dra-driver-nvidia-gpu-kubelet-plugin`.*; the bootstrap never edits it\./,
    );
  });

  const teamRelease = (dynamicMig: boolean) =>
    [
      'apiVersion: kustomize.config.k8s.io/v1beta1',
      'kind: Kustomization',
      'helmCharts:',
      '  - name: dra-driver-nvidia-gpu',
      '    repo: oci://registry.k8s.io/dra-driver-nvidia/charts',
      '    version: 0.5.0',
      '    releaseName: dra-driver-nvidia-gpu',
      '    namespace: dra-driver-nvidia-gpu',
      '    valuesInline:',
      '      gpuResourcesEnabledOverride: true',
      `      featureGates: { DynamicMIG: ${dynamicMig} }`,
      '',
    ].join('\n');

  it.each([
    [true, 1],
    [false, 0],
  ])(
    'a team release with DynamicMIG %s beside the MIG manager: %i note(s) saying what to turn off',
    async (dynamicMig, said) => {
      const theirs = 'clusters/lab/platform/dra/kustomization.yaml';
      const { tree, change } = await bootstrap(profile(), {
        [theirs]: teamRelease(dynamicMig),
      });
      expect(await tree.readFile(theirs)).toBe(teamRelease(dynamicMig));
      expect(await tree.readFile(DRIVER_KUSTOMIZATION)).toBeUndefined();
      const notes = change.notes.filter(n => /DynamicMIG/.test(n));
      expect(notes).toHaveLength(said);
      notes.forEach(note =>
        expect(note).toMatch(
          /\*\*To do\*\*: NVIDIA's DRA driver installed by .* turns `featureGates\.DynamicMIG` on .* while the GPU Operator's MIG manager \(mig-parted\) runs on this cluster.*Set `featureGates\.DynamicMIG: false` there, or `migManager\.enabled: false`/,
        ),
      );
    },
  );

  it('refuses, writing nothing, where a file it did not write is in the release’s place', async () => {
    await expect(
      bootstrap(profile(), { [DRIVER_VALUES]: 'logVerbosity: "6"\n' }),
    ).rejects.toThrow(
      /clusters\/lab\/dra-driver\/values.yaml exists and the bootstrap did not write it/,
    );
  });

  // Its release retired once the profile turns DRA off, or the team deploys a driver: retireBootstrapFolders.test.ts.

  describe('in the form and namespace the repository’s GitOps tool uses', () => {
    const RELEASE = 'clusters/lab/dra-driver/release.yaml';
    /** An Argo CD Application installing a chart, in `namespace` (none: unset). */
    const argoApplication = (namespace?: string) =>
      [
        'apiVersion: argoproj.io/v1alpha1',
        'kind: Application',
        'metadata:',
        '  name: cert-manager',
        ...(namespace ? [`  namespace: ${namespace}`] : []),
        'spec:',
        '  project: default',
        '  destination: {server: https://kubernetes.default.svc, namespace: cert-manager}',
        '  source: {repoURL: https://charts.jetstack.io, chart: cert-manager, targetRevision: v1.16.2}',
        '',
      ].join('\n');
    const fluxRelease = [
      'apiVersion: source.toolkit.fluxcd.io/v1',
      'kind: HelmRepository',
      'metadata: {name: jetstack, namespace: gitops-system}',
      'spec: {interval: 1h, url: https://charts.jetstack.io}',
      '---',
      'apiVersion: helm.toolkit.fluxcd.io/v2',
      'kind: HelmRelease',
      'metadata: {name: cert-manager, namespace: cert-manager}',
      'spec:',
      '  interval: 1h',
      '  chart: {spec: {chart: cert-manager, sourceRef: {kind: HelmRepository, name: jetstack, namespace: gitops-system}}}',
      '',
    ].join('\n');

    async function release(platformFile: string) {
      const { tree, change } = await bootstrap(profile(), {
        'clusters/lab/kustomization.yaml': 'resources:\n  - platform.yaml\n',
        'clusters/lab/platform.yaml': platformFile,
      });
      const objects = (await tree.readFile(RELEASE))!
        .split(/^---$/m)
        .map(text => parse(text));
      return { objects, notes: change.notes.join('\n') };
    }

    it('an Argo CD that runs in another namespace than `argocd`: its Application beside the repository’s own, said so', async () => {
      const { objects, notes } = await release(argoApplication('gitops'));
      expect(objects.map(o => [o.kind, o.metadata.namespace])).toEqual([
        ['Application', 'gitops'],
      ]);
      expect(notes).toContain(
        'Argo CD Application of the chart in `gitops`, beside Argo CD Application `cert-manager` in `clusters/lab/platform.yaml`',
      );
    });

    it('Flux objects in another namespace than `flux-system`: its HelmRepository and HelmRelease beside the repository’s source', async () => {
      const { objects, notes } = await release(fluxRelease);
      expect(objects.map(o => [o.kind, o.metadata.namespace])).toEqual([
        ['HelmRepository', 'gitops-system'],
        ['HelmRelease', 'gitops-system'],
      ]);
      expect(notes).toContain(
        'HelmRelease in `gitops-system`, beside Flux HelmRepository `jetstack` in `clusters/lab/platform.yaml`',
      );
    });

    it('Applications that name no namespace: Argo CD’s install default, and the note says to move it', async () => {
      const { objects, notes } = await release(argoApplication());
      expect(objects.map(o => o.metadata.namespace)).toEqual(['argocd']);
      expect(notes).toContain(
        'in `argocd` (no Argo CD Application of this repository names its namespace, so the install default: move it where yours runs)',
      );
    });
  });
});

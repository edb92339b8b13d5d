/**
 * The bootstrap retires its own release folders the cluster no longer wants,
 * in the pull request that makes them stale: their files (only those
 * carrying its header) and their entry in the cluster's kustomization go,
 * the cluster's root still builds with the real kustomize, and a second
 * bootstrap changes nothing.
 */
import { promises as fs } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import {
  resolveClusterProfile,
  type ClusterProfile,
} from '@gpu-gitops/plugin-gpu-common';
import { crdSchemaErrors } from '@gpu-gitops/plugin-gpu-common/src/manifests/__testUtils__/crdSchemas';
import { kustomizeBuild } from '../../kustomize/build';
import { FsRepoTree } from '../../repo/tree';
import { writeChangeSet } from '../stagedTree';
import { buildBootstrapChangeSet } from './bootstrapChangeSet';
import { DRA_DRIVER_KUBELET_PLUGIN } from '../__testUtils__/draDriverKubeletPlugin';

jest.setTimeout(180_000);

const OPTIONS = { operatorChartVersion: 'v26.7.0', binPacking: false };

/** The team's cluster kustomization, and an Argo CD Application of a chart: the bootstrap's releases are Applications, wired in. */
const CLUSTER_KUSTOMIZATION = [
  '# The lab cluster, as the platform team applies it.',
  'resources:',
  '  - platform.yaml',
  '',
].join('\n');
const PLATFORM = [
  'apiVersion: argoproj.io/v1alpha1',
  'kind: Application',
  'metadata: {name: cert-manager, namespace: argocd}',
  'spec:',
  '  project: default',
  '  destination: {server: https://kubernetes.default.svc, namespace: cert-manager}',
  '  source: {repoURL: https://charts.jetstack.io, chart: cert-manager, targetRevision: v1.16.2}',
  '',
].join('\n');

const karpenterLab = (overrides: Record<string, unknown>) =>
  resolveClusterProfile({
    name: 'lab',
    migStrategy: 'single',
    karpenterVersion: '1.15.1',
    kubernetesVersion: '1.36.0',
    ...overrides,
  });

describe('the bootstrap retires its own folders', () => {
  let dir: string;
  let tree: FsRepoTree;
  beforeEach(async () => {
    dir = await fs.mkdtemp(path.join(os.tmpdir(), 'gpu-retire-'));
    tree = new FsRepoTree(dir);
  });
  afterEach(() => fs.rm(dir, { recursive: true, force: true }));

  const bootstrap = async (cluster: ClusterProfile) => {
    const change = await buildBootstrapChangeSet(tree, cluster, OPTIONS);
    await writeChangeSet(tree, change);
    return change;
  };

  it.each([
    [
      "NVIDIA's DRA driver release",
      'clusters/lab/dra-driver',
      { dra: { karpenterNvidiaGate: true } },
      { dra: undefined },
      'the cluster profile no longer enables DRA',
    ],
    [
      "Kueue's release",
      'clusters/lab/kueue-controller',
      { kueue: true },
      { kueue: false },
      'the cluster profile no longer enables Kueue',
    ],
  ])(
    '%s once the profile turns it off: its files and its kustomization entry go, the team’s file there stays',
    async (what, folder, on, off, why) => {
      await tree.writeFile(
        'clusters/lab/kustomization.yaml',
        CLUSTER_KUSTOMIZATION,
      );
      await tree.writeFile('clusters/lab/platform.yaml', PLATFORM);
      await bootstrap(karpenterLab(on));
      const wired = await tree.readFile('clusters/lab/kustomization.yaml');
      expect(wired).toContain(`- ${path.basename(folder)}`);
      const written = await tree.listFiles(folder);
      expect(written.length).toBeGreaterThan(0);
      await tree.writeFile(`${folder}/OWNERS`, 'platform-team\n');

      const change = await bootstrap(karpenterLab(off));

      expect(
        change.changes.filter(c => c.action === 'delete').map(c => c.path),
      ).toEqual(written);
      expect(await tree.listFiles(folder)).toEqual([`${folder}/OWNERS`]);
      // The entry the bootstrap added, and only it, is gone.
      expect(await tree.readFile('clusters/lab/kustomization.yaml')).toBe(
        wired!.replace(`  - ${path.basename(folder)}\n`, ''),
      );
      expect(wired).toBe(
        `${CLUSTER_KUSTOMIZATION}  - gpu\n  - ${path.basename(folder)}\n`,
      );
      expect(change.notes).toContainEqual(
        expect.stringContaining(
          `Removes ${what} in \`${folder}/\` (${written.map(f => `\`${f}\``).join(', ')}), as ${why}, and its entry in \`clusters/lab/kustomization.yaml\``,
        ),
      );
      expect(change.notes).toContainEqual(
        expect.stringContaining(
          `The bootstrap did not write \`${folder}/OWNERS\`: left as they are.`,
        ),
      );
      expect(change.notes.join('\n')).not.toMatch(/still in `clusters/);
      const built = await kustomizeBuild(path.join(dir, 'clusters/lab'));
      expect(built.map(o => `${o.kind}/${(o.metadata as any).name}`)).toEqual(
        expect.arrayContaining(['Application/cert-manager']),
      );
      expect((await bootstrap(karpenterLab(off))).empty).toBe(true);
    },
  );

  it.each([
    [
      'DRA',
      { dra: { karpenterNvidiaGate: true } },
      { dra: undefined },
      'clusters/lab/dra-driver',
      'clusters/lab/gpu/pools/a100-dra.yaml',
      [
        'apiVersion: karpenter.sh/v1',
        'kind: NodePool',
        'metadata:',
        '  name: a100-dra',
        '  annotations:',
        '    gpu.backstage.io/sharing-mode: dra',
        '',
      ].join('\n'),
      'the DRA pools (`clusters/lab/gpu/pools/a100-dra.yaml`)',
    ],
    [
      'Kueue',
      { kueue: true },
      { kueue: false },
      'clusters/lab/kueue-controller',
      'clusters/lab/gpu/kueue/cluster-queues/ml.yaml',
      'apiVersion: kueue.x-k8s.io/v1beta2\nkind: ClusterQueue\nmetadata: {name: ml}\n',
      "the GPU folder's Kueue queues (`clusters/lab/gpu/kueue/cluster-queues/ml.yaml`)",
    ],
  ])(
    'keeps its %s release while the cluster still uses it, and says so',
    async (_label, on, off, folder, user, userText, usedBy) => {
      await bootstrap(karpenterLab(on));
      const written = await tree.listFiles(folder);
      await tree.writeFile(user, userText);

      const change = await bootstrap(karpenterLab(off));

      expect(change.empty).toBe(true);
      expect(await tree.listFiles(folder)).toEqual(written);
      expect(change.notes).toContainEqual(
        expect.stringContaining(
          `but ${usedBy} still need the bootstrap's release in \`${folder}/\``,
        ),
      );
    },
  );

  it('its DRA driver release once the team deploys a driver of its own: one driver, not two', async () => {
    const cluster = karpenterLab({ dra: { karpenterNvidiaGate: true } });
    await bootstrap(cluster);
    expect(await tree.listFiles('clusters/lab/dra-driver')).not.toEqual([]);
    await tree.writeFile(
      'clusters/lab/infrastructure/dra-driver.yaml',
      DRA_DRIVER_KUBELET_PLUGIN,
    );

    const change = await bootstrap(cluster);

    expect(await tree.listFiles('clusters/lab/dra-driver')).toEqual([]);
    expect(
      await tree.readFile('clusters/lab/infrastructure/dra-driver.yaml'),
    ).toBe(DRA_DRIVER_KUBELET_PLUGIN);
    expect(change.notes).toContainEqual(
      expect.stringContaining(
        "Removes NVIDIA's DRA driver release in `clusters/lab/dra-driver/`",
      ),
    );
    expect(change.notes).toContainEqual(
      expect.stringContaining(
        "as the repository installs NVIDIA's DRA driver itself",
      ),
    );
  });

  it('the GPU Operator’s release folder once the workload Cluster has labels: the HelmChartProxy replaces it in the same change, one operator in the build', async () => {
    const cluster = resolveClusterProfile({
      name: 'lab',
      provider: 'cluster-api',
      devicePluginConfigMap: { namespace: 'gpu-operator' },
      clusterApi: {
        clusterName: 'lab-1',
        namespace: 'capi',
        infrastructure: 'aws',
        kubernetesVersion: 'v1.33.1',
        autoscaler: false,
        aws: { iamInstanceProfile: 'nodes' },
      },
    });
    const clusterYaml = (labels: string) =>
      `apiVersion: cluster.x-k8s.io/v1beta1\nkind: Cluster\nmetadata:\n  name: lab-1\n  namespace: capi\n${labels}spec: {}\n`;
    await tree.writeFile(
      'clusters/lab/kustomization.yaml',
      'resources:\n  - cluster.yaml\n',
    );
    await tree.writeFile('clusters/lab/cluster.yaml', clusterYaml(''));
    await bootstrap(cluster);
    const released = await tree.listFiles('clusters/lab/gpu-operator');
    expect(released).toEqual([
      'clusters/lab/gpu-operator/kustomization.yaml',
      'clusters/lab/gpu-operator/values.yaml',
    ]);
    await tree.writeFile(
      'clusters/lab/cluster.yaml',
      clusterYaml('  labels:\n    gpu: nvidia\n'),
    );

    const change = await bootstrap(cluster);

    const changed = change.changes.map(c => [c.action, c.path]);
    expect(changed.filter(([action]) => action === 'delete')).toEqual([
      ['delete', 'clusters/lab/gpu-operator/kustomization.yaml'],
      ['delete', 'clusters/lab/gpu-operator/values.yaml'],
    ]);
    expect(changed).toContainEqual([
      'create',
      'clusters/lab/gpu/gpu-operator-helmchartproxy.yaml',
    ]);
    const built = await kustomizeBuild(path.join(dir, 'clusters/lab'));
    const proxies = built.filter(o => o.kind === 'HelmChartProxy');
    expect(proxies).toHaveLength(1);
    expect(
      crdSchemaErrors(
        proxies[0],
        'caaph-v0.6.4_addons.cluster.x-k8s.io_helmchartproxies.yaml',
      ),
    ).toEqual([]);
    const notes = change.notes.join('\n');
    expect(notes).toContain(
      "Removes the GPU Operator's release in `clusters/lab/gpu-operator/`",
    );
    expect(notes).toContain('so no two device plugins run on the same nodes');
    expect(notes).not.toContain(
      'bootstrap again to move to the HelmChartProxy',
    );
    expect((await bootstrap(cluster)).empty).toBe(true);
  });
});

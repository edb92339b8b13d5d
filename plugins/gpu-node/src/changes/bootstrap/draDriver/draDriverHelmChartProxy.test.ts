/**
 * NVIDIA's DRA driver on a Cluster API management repository: the driver
 * runs on the GPU nodes, which only the workload cluster has, so the
 * bootstrap writes a CAAPH HelmChartProxy selecting the workload Cluster
 * (as it does for the GPU Operator) instead of a release folder the
 * management cluster must not apply; valid against CAAPH v0.6.4's CRD,
 * built with the real kustomize.
 */
import { promises as fs } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parse } from 'yaml';
import { resolveClusterProfile } from '@gpu-gitops/plugin-gpu-common';
import { crdSchemaErrors } from '@gpu-gitops/plugin-gpu-common/src/manifests/__testUtils__/crdSchemas';
import { kustomizeBuild } from '../../../kustomize/build';
import { FsRepoTree } from '../../../repo/tree';
import { writeChangeSet } from '../../stagedTree';
import { buildBootstrapChangeSet } from '../bootstrapChangeSet';
import { buildDraDriverValues } from './draDriverValues';

jest.setTimeout(180_000);

const cluster = resolveClusterProfile({
  name: 'lab',
  provider: 'cluster-api',
  kubernetesVersion: '1.36.0',
  dra: { consumableShares: 4 },
  devicePluginConfigMap: { namespace: 'gpu-operator' },
  clusterApi: {
    clusterName: 'lab-1',
    namespace: 'capi',
    infrastructure: 'aws',
    kubernetesVersion: 'v1.36.0',
    autoscaler: false,
    aws: { iamInstanceProfile: 'nodes' },
  },
});
const OPTIONS = { operatorChartVersion: 'v26.7.0', binPacking: false };
const clusterYaml = (labels: string) =>
  `apiVersion: cluster.x-k8s.io/v1beta1\nkind: Cluster\nmetadata:\n  name: lab-1\n  namespace: capi\n${labels}spec: {}\n`;
const LABELLED = '  labels:\n    gpu: nvidia\n';
const PROXY = 'clusters/lab/gpu/dra-driver-nvidia-gpu-helmchartproxy.yaml';

describe('the DRA driver on a Cluster API management repository', () => {
  let dir: string;
  let tree: FsRepoTree;
  beforeEach(async () => {
    dir = await fs.mkdtemp(path.join(os.tmpdir(), 'gpu-dra-proxy-'));
    tree = new FsRepoTree(dir);
    await tree.writeFile(
      'clusters/lab/kustomization.yaml',
      'resources:\n  - cluster.yaml\n',
    );
  });
  afterEach(() => fs.rm(dir, { recursive: true, force: true }));

  const bootstrap = async () => {
    const change = await buildBootstrapChangeSet(tree, cluster, OPTIONS);
    await writeChangeSet(tree, change);
    return change;
  };

  it('comes as a HelmChartProxy selecting the labelled Cluster, applied by the management cluster; no release folder, no note to do it by hand', async () => {
    await tree.writeFile('clusters/lab/cluster.yaml', clusterYaml(LABELLED));

    const change = await bootstrap();

    expect(await tree.listFiles('clusters/lab/dra-driver')).toEqual([]);
    const built = await kustomizeBuild(path.join(dir, 'clusters/lab'));
    const proxy = built.find(
      o =>
        o.kind === 'HelmChartProxy' &&
        (o.metadata as any).name === 'dra-driver-nvidia-gpu',
    ) as any;
    expect(proxy).toBeDefined();
    expect(proxy.metadata.namespace).toBe('capi');
    expect(proxy.spec).toMatchObject({
      clusterSelector: { matchLabels: { gpu: 'nvidia' } },
      repoURL: 'oci://registry.k8s.io/dra-driver-nvidia/charts',
      chartName: 'dra-driver-nvidia-gpu',
      version: '0.5.0',
      namespace: 'dra-driver-nvidia-gpu',
    });
    expect(parse(proxy.spec.valuesTemplate)).toEqual(
      buildDraDriverValues(cluster),
    );
    expect(
      crdSchemaErrors(
        proxy,
        'caaph-v0.6.4_addons.cluster.x-k8s.io_helmchartproxies.yaml',
      ),
    ).toEqual([]);
    const notes = change.notes.join('\n');
    expect(notes).toContain(
      "NVIDIA's DRA driver runs in the workload cluster `lab-1`",
    );
    expect(notes).toContain('from HelmChartProxy `capi/dra-driver-nvidia-gpu`');
    expect(notes).not.toMatch(
      /DRA driver release `clusters\/lab\/dra-driver\/`/,
    );
    expect((await bootstrap()).empty).toBe(true);
  });

  it('retires the release folder an earlier run wrote once the Cluster has labels, in the change that adds the proxy', async () => {
    await tree.writeFile('clusters/lab/cluster.yaml', clusterYaml(''));
    const first = await bootstrap();
    const folder = await tree.listFiles('clusters/lab/dra-driver');
    expect(folder).not.toEqual([]);
    expect(first.notes.join('\n')).toContain(
      "NVIDIA's DRA driver release `clusters/lab/dra-driver/` is for the workload cluster `lab-1`",
    );
    await tree.writeFile('clusters/lab/cluster.yaml', clusterYaml(LABELLED));

    const change = await bootstrap();

    expect(
      change.changes.filter(c => c.action === 'delete').map(c => c.path),
    ).toEqual(expect.arrayContaining(folder));
    expect(change.changes.map(c => c.path)).toContain(PROXY);
    expect(await tree.listFiles('clusters/lab/dra-driver')).toEqual([]);
    expect(change.notes.join('\n')).toContain(
      "Removes NVIDIA's DRA driver release in `clusters/lab/dra-driver/`",
    );
  });
});

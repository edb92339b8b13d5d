/**
 * On a Cluster API management repository (CAPA's GPU flavor,
 * `test/fixtures/capa-gpu-repo`) the GPU ConfigMaps are kustomize
 * local-config: only the copies the ClusterResourceSet carries reach the
 * workload cluster. A request and a release that change a device-plugin
 * config key must change the carried copy too, and the verification
 * refuses a change whose carried copy disagrees with the GPU folder.
 */
import { promises as fs } from 'node:fs';
import { parseAllDocuments, parseDocument } from 'yaml';
import {
  builtinCatalog,
  resolveClusterProfile,
} from '@gpu-gitops/plugin-gpu-common';
import type { FsRepoTree } from '../../repo/tree';
import { buildBootstrapChangeSet } from '../bootstrap/bootstrapChangeSet';
import { buildRequestChange } from '../buildRequestChange';
import { buildReleaseChange } from '../release/buildReleaseChange';
import { verifyRelease } from '../release/verifyRelease';
import {
  checkoutShape,
  shapeRequest,
} from '../shapes/__testUtils__/shapeRound';
import { writeChangeSet } from '../stagedTree';
import type { ChangeSet } from '../types';
import { verifyChange } from '../verifyChange';
import { DELIVERY_KEY } from './gpuConfigsDelivery';

jest.setTimeout(240_000);

const cluster = resolveClusterProfile({
  name: 'ml-aws',
  provider: 'cluster-api',
  gpuTaintKey: 'nvidia.com/gpu',
  devicePluginConfigMap: { namespace: 'gpu-operator-resources' },
  migPartedConfigMap: { namespace: 'gpu-operator-resources' },
  clusterApi: {
    clusterName: 'ml-aws',
    namespace: 'default',
    kubernetesVersion: 'v1.33.1',
    autoscaler: false,
    kubeletExtraArgs: { 'cloud-provider': 'external' },
    infrastructure: 'aws',
    aws: { iamInstanceProfile: 'nodes.cluster-api-provider-aws.sigs.k8s.io' },
  },
});
const DELIVERY = 'clusters/ml-aws/gpu/workload-cluster.yaml';
const request = shapeRequest('t4-ts', {
  gpu: {
    model: 't4',
    sharing: 'time-slicing',
    replicas: 6,
    vramGiB: 3,
    slicesPerGpu: 4,
  },
  workload: { image: 'ghcr.io/acme/t4-ts:1.0' },
});

/** The change set with the delivery file's carried device-plugin copy edited by `edit` (or its change dropped). */
function withDelivery(
  changeSet: ChangeSet,
  edit?: (data: Record<string, string>) => void,
): ChangeSet {
  const changes = changeSet.changes.flatMap(c => {
    if (c.path !== DELIVERY || c.action === 'delete') return [c];
    if (!edit) return [];
    const documents = parseAllDocuments(c.content);
    const holder = documents[1];
    const carried = parseAllDocuments(
      String(holder.getIn(['data', DELIVERY_KEY])),
    ).map(d => d.toJS());
    const plugin = carried.find(
      m => m.metadata.name === cluster.devicePluginConfigMap.name,
    );
    edit(plugin.data);
    holder.setIn(
      ['data', DELIVERY_KEY],
      carried
        .map(m => parseDocument(JSON.stringify(m)).toString())
        .join('---\n'),
    );
    return [{ ...c, content: documents.map(d => d.toString()).join('') }];
  });
  return { changes, empty: changes.length === 0 };
}

describe('the carried copies of the GPU ConfigMaps on a management repository', () => {
  let tree: FsRepoTree;

  beforeAll(async () => {
    tree = await checkoutShape('capa-gpu-repo', 'gpu-carried-');
    // What the bootstrap tells the team to set in the operator's ClusterPolicy.
    const operator = 'clusters/ml-aws/gpu-operator-components.yaml';
    const documents = parseAllDocuments((await tree.readFile(operator))!);
    const policy = documents.find(d => d.get('kind') === 'ClusterPolicy')!;
    policy.setIn(['spec', 'devicePlugin', 'config'], {
      name: cluster.devicePluginConfigMap.name,
      default: 'default',
    });
    policy.setIn(
      ['spec', 'migManager', 'config', 'name'],
      cluster.migPartedConfigMap.name,
    );
    await tree.writeFile(operator, documents.map(d => d.toString()).join(''));
    await writeChangeSet(
      tree,
      await buildBootstrapChangeSet(tree, cluster, {
        operatorChartVersion: 'v26.7.0',
        binPacking: false,
      }),
    );
    expect(await tree.readFile(DELIVERY)).toBeDefined();
  });
  afterAll(() => fs.rm(tree.root, { recursive: true, force: true }));

  it('a request: its carried copy changes with its config key; a copy left behind or corrupted is refused', async () => {
    const change = await buildRequestChange({
      tree,
      dir: tree.root,
      request,
      cluster,
      catalog: builtinCatalog,
    });
    const key = change.plan.sharing.deviceConfigName;
    expect(key).toBeDefined();
    expect(change.changeSet.changes.map(c => c.path)).toContain(DELIVERY);
    const verify = (changeSet: ChangeSet) =>
      verifyChange({
        dir: tree.root,
        changeSet,
        plan: change.plan,
        cluster,
        catalog: builtinCatalog,
      });
    await expect(verify(change.changeSet)).resolves.toBeDefined();
    await expect(verify(withDelivery(change.changeSet))).rejects.toThrow(
      `key "${key}"`,
    );
    await expect(
      verify(
        withDelivery(change.changeSet, data => {
          data[key!] = data[key!].replace('replicas: 4', 'replicas: 8');
        }),
      ),
    ).rejects.toThrow(/carries to the workload cluster differs from the one/);
    await writeChangeSet(tree, change.changeSet);
  });

  it('its release: the carried copy loses the key with the GPU folder; a copy left behind is refused', async () => {
    const release = await buildReleaseChange({
      tree,
      dir: tree.root,
      request: request.metadata,
      clusterProfile: () => cluster,
      catalog: builtinCatalog,
    });
    expect(release.changeSet.changes.map(c => c.path)).toContain(DELIVERY);
    const verify = (changeSet: ChangeSet) =>
      verifyRelease({ dir: tree.root, changeSet, plan: release.plan, cluster });
    await expect(verify(withDelivery(release.changeSet))).rejects.toThrow(
      /carries to the workload cluster differs from the one/,
    );
  });
});

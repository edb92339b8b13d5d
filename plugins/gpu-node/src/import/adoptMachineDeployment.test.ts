/**
 * `import` adopts a Cluster API cluster's own GPU MachineDeployment (the
 * CAPZ and CAPA GPU flavors' `md-0`, `test/fixtures/capz-gpu-repo`,
 * `capa-gpu-repo`): the pool it is (model and GPUs from its machine type,
 * its replicas as its floor, its sharing from what its nodes' device plugin
 * reads), the product's pool label on its nodes through a copy of its
 * bootstrap template (its own stays, byte for byte), and a record of each
 * field the adoption changed. A later request of the same model and
 * sharing reuses it, and its pods land there and nowhere else.
 */
import { promises as fs } from 'node:fs';
import path from 'node:path';
import { parseAllDocuments, parseDocument } from 'yaml';
import {
  builtinCatalog,
  resolveClusterProfile,
} from '@gpu-gitops/plugin-gpu-common';
import { buildBootstrapChangeSet } from '../changes/bootstrap/bootstrapChangeSet';
import { buildRequestChange } from '../changes/buildRequestChange';
import { buildReleaseChange } from '../changes/release/buildReleaseChange';
import {
  checkoutShape,
  shapeRequest,
} from '../changes/shapes/__testUtils__/shapeRound';
import { writeChangeSet } from '../changes/stagedTree';
import type { FsRepoTree } from '../repo/tree';
import { renderImportReport } from '../pr/renderImportReport';
import { buildImportChange } from './buildImportChange';

jest.setTimeout(300_000);

const FLAVORS = [
  {
    fixture: 'capz-gpu-repo',
    name: 'ml-azure',
    infrastructure: { infrastructure: 'azure', azure: {} },
    operatorFile: 'clusters/ml-azure/gpu-operator.yaml',
    configMapNamespace: 'default',
    setOperatorConfigs: (text: string) => {
      const proxy = parseDocument(text);
      proxy.setIn(
        ['spec', 'valuesTemplate'],
        'devicePlugin:\n  config:\n    name: nvidia-device-plugin-configs\n    default: default\n',
      );
      return proxy.toString();
    },
  },
  {
    fixture: 'capa-gpu-repo',
    name: 'ml-aws',
    infrastructure: {
      infrastructure: 'aws',
      aws: { iamInstanceProfile: 'nodes.cluster-api-provider-aws.sigs.k8s.io' },
    },
    operatorFile: 'clusters/ml-aws/gpu-operator-components.yaml',
    configMapNamespace: 'gpu-operator-resources',
    setOperatorConfigs: (text: string) => {
      const documents = parseAllDocuments(text);
      const policy = documents.find(d => d.get('kind') === 'ClusterPolicy')!;
      policy.setIn(['spec', 'devicePlugin', 'config'], {
        name: 'nvidia-device-plugin-configs',
        default: 'default',
      });
      return documents.map(d => d.toString()).join('');
    },
  },
] as const;

type Flavor = (typeof FLAVORS)[number];

const profile = (flavor: Flavor, configMapNamespace?: string) =>
  resolveClusterProfile({
    name: flavor.name,
    provider: 'cluster-api',
    migStrategy: 'single',
    gpuTaintKey: 'nvidia.com/gpu',
    ...(configMapNamespace
      ? { devicePluginConfigMap: { namespace: configMapNamespace } }
      : {}),
    clusterApi: {
      clusterName: flavor.name,
      namespace: 'default',
      kubernetesVersion: 'v1.33.1',
      autoscaler: false,
      kubeletExtraArgs: { 'cloud-provider': 'external' },
      ...flavor.infrastructure,
    },
  });

const importOf = (tree: FsRepoTree, flavor: Flavor, namespace?: string) =>
  buildImportChange({
    tree,
    dir: tree.root,
    cluster: profile(flavor, namespace),
    catalog: builtinCatalog,
    owner: 'group:default/ml-platform',
  });

/** Every line of `before` is still in `after`, in order (lines were only added or one replaced). */
function changedLines(before: string, after: string) {
  const a = before.split('\n');
  const b = after.split('\n');
  return {
    removed: a.filter(line => !b.includes(line)),
    added: b.filter(line => !a.includes(line)),
  };
}

describe.each(FLAVORS)('import adopts $fixture’s md-0', flavor => {
  const md = `${flavor.name}-md-0`;
  const clusterFile = `clusters/${flavor.name}/cluster.yaml`;
  let tree: FsRepoTree;

  beforeEach(async () => {
    tree = await checkoutShape(flavor.fixture, 'gpu-import-md-');
  });
  afterEach(() => fs.rm(tree.root, { recursive: true, force: true }));

  it('as a t4 pool of 2 GPUs, labelled for its pods by a copy of its bootstrap template, every changed field recorded', async () => {
    const before = (await tree.readFile(clusterFile))!;
    const change = await importOf(tree, flavor);

    expect(change.adoptedPools).toEqual([
      expect.objectContaining({
        name: md,
        path: clusterFile,
        gpuModel: 't4',
        sharingMode: 'exclusive',
        resourceName: 'nvidia.com/gpu',
        counts: [
          'replicas: 2 nodes × 1 t4 GPU each = 2 GPUs (its floor, in GPUs)',
        ],
      }),
    ]);
    expect(change.changeSet.changes.map(c => c.path)).toEqual([clusterFile]);
    expect(change.verification?.verified).toEqual([`clusters/${flavor.name}`]);

    const written = change.changeSet.changes[0];
    const after = written.action === 'delete' ? '' : written.content;
    const objects = parseAllDocuments(after).map(d => d.toJS());
    const deployment = objects.find(o => o.kind === 'MachineDeployment');
    const ref = deployment.spec.template.spec.bootstrap.configRef.name;
    expect(ref).toMatch(new RegExp(`^${md}-[0-9a-z]+$`));
    const copy = objects.find(
      o => o.kind === 'KubeadmConfigTemplate' && o.metadata.name === ref,
    );
    const args =
      copy.spec.template.spec.joinConfiguration.nodeRegistration
        .kubeletExtraArgs;
    expect(args).toEqual({
      'cloud-provider': 'external',
      'node-labels': `gpu.backstage.io/pool=${md}`,
    });
    // The team's own template stays as it was, for the record to restore.
    expect(
      objects.filter(
        o => o.kind === 'KubeadmConfigTemplate' && o.metadata.name === md,
      ),
    ).toHaveLength(1);
    const annotations = deployment.metadata.annotations;
    expect(annotations).toMatchObject({
      'gpu.backstage.io/sharing-mode': 'exclusive',
      'gpu.backstage.io/gpu-model': 't4',
      'gpu.backstage.io/resource-name': 'nvidia.com/gpu',
      'gpu.backstage.io/requests': '',
      'gpu.backstage.io/limit-floor': '2',
    });
    expect(
      parseDocument(annotations['gpu.backstage.io/replaced']).toJS(),
    ).toEqual({
      'spec.template.spec.bootstrap.configRef.name': {
        before: md,
        request: ref,
      },
    });
    // Nothing of the team's file rewritten: only the reference's line replaced.
    const lines = changedLines(before, after);
    expect(lines.removed).toEqual([`          name: ${md}`]);

    const report = renderImportReport({ change }).body;
    expect(report).toContain(md);
    expect(report).toContain('2 GPUs');
    expect(
      change.findings.map(f => `${f.object}: ${f.message}`).join('\n'),
    ).toContain(
      `adopted: its nodes get the pool label gpu.backstage.io/pool=${md} from KubeadmConfigTemplate "${ref}"`,
    );
  });

  it('as time-slicing 4 per GPU when its nodes register with a device-plugin config that slices so (their own labels kept)', async () => {
    const text = (await tree.readFile(clusterFile))!;
    await fs.writeFile(
      path.join(tree.root, clusterFile),
      text.replace(
        '            cloud-provider: external\n          name:',
        '            cloud-provider: external\n            node-labels: nvidia.com/device-plugin.config=t4-ts4,team=ml\n          name:',
      ),
    );
    // Only md-0's own template (the one indented so) got the labels.
    expect(
      (await tree.readFile(clusterFile))!.split('node-labels'),
    ).toHaveLength(2);
    await fs.writeFile(
      path.join(
        tree.root,
        `clusters/${flavor.name}/device-plugin-configs.yaml`,
      ),
      [
        'apiVersion: v1',
        'kind: ConfigMap',
        'metadata:',
        '  name: nvidia-device-plugin-configs',
        'data:',
        '  t4-ts4: |',
        '    version: v1',
        '    sharing:',
        '      timeSlicing:',
        '        resources:',
        '        - name: nvidia.com/gpu',
        '          replicas: 4',
        '',
      ].join('\n'),
    );
    const change = await importOf(tree, flavor);
    expect(change.adoptedPools).toEqual([
      expect.objectContaining({
        name: md,
        sharingMode: 'time-slicing',
        slicesPerGpu: 4,
        resourceName: 'nvidia.com/gpu',
      }),
    ]);
    const written = change.changeSet.changes.find(c => c.path === clusterFile);
    const objects = parseAllDocuments(
      written && written.action !== 'delete' ? written.content : '',
    ).map(d => d.toJS());
    const ref = objects.find(o => o.kind === 'MachineDeployment').spec.template
      .spec.bootstrap.configRef.name;
    const copy = objects.find(o => o.metadata?.name === ref);
    expect(
      copy.spec.template.spec.joinConfiguration.nodeRegistration
        .kubeletExtraArgs['node-labels'],
    ).toBe(
      `nvidia.com/device-plugin.config=t4-ts4,team=ml,gpu.backstage.io/pool=${md}`,
    );
  });

  it('a later t4 request reuses it, its pods land there only, and its release, the last on it, un-adopts it to the byte', async () => {
    await fs.writeFile(
      path.join(tree.root, flavor.operatorFile),
      flavor.setOperatorConfigs((await tree.readFile(flavor.operatorFile))!),
    );
    const cluster = profile(flavor, flavor.configMapNamespace);
    await writeChangeSet(
      tree,
      await buildBootstrapChangeSet(tree, cluster, {
        operatorChartVersion: 'v26.7.0',
        binPacking: false,
      }),
    );
    const beforeImport = (await tree.readFile(clusterFile))!;
    await writeChangeSet(
      tree,
      (await importOf(tree, flavor, flavor.configMapNamespace)).changeSet,
    );

    const change = await buildRequestChange({
      tree,
      dir: tree.root,
      request: shapeRequest('t4-chat', {
        gpu: { model: 't4', sharing: 'exclusive', replicas: 1, vramGiB: 12 },
        workload: { image: 'ghcr.io/acme/chat:1.0' },
      }),
      cluster,
      catalog: builtinCatalog,
    });
    expect([change.plan.pool.name, change.plan.pool.reused]).toEqual([
      md,
      true,
    ]);
    expect(change.verification?.landsOn).toEqual([md]);
    const written = change.changeSet.changes.find(c => c.path === clusterFile);
    const deployment = parseAllDocuments(
      written && written.action !== 'delete' ? written.content : '',
    )
      .map(d => d.toJS())
      .find(o => o.kind === 'MachineDeployment');
    // Its 2 nodes stay (the team's replicas are its floor); the request is on its ledger.
    expect(deployment.spec.replicas).toBe(2);
    expect(deployment.metadata.annotations['gpu.backstage.io/requests']).toBe(
      'ml/t4-chat=1',
    );
    const workload = change.changeSet.changes
      .filter(c => c.path.startsWith('apps/'))
      .flatMap(c =>
        parseAllDocuments(c.action === 'delete' ? '' : c.content).map(d =>
          d.toJS(),
        ),
      )
      .find(o => o?.kind === 'Deployment');
    expect(workload.spec.template.spec.nodeSelector).toEqual({
      'gpu.backstage.io/pool': md,
    });

    // Its release, the last request on the adopted pool, gives the team its
    // MachineDeployment back as the import found it: its own bootstrap
    // template (the record's), no labelled copy, none of the product's
    // annotations; its 2 nodes, never fewer.
    await writeChangeSet(tree, change.changeSet);
    const release = await buildReleaseChange({
      tree,
      dir: tree.root,
      request: { namespace: 'ml', name: 't4-chat' },
      clusterProfile: () => cluster,
      catalog: builtinCatalog,
    });
    expect(release.verification?.verified).toContain(`clusters/${flavor.name}`);
    const released = release.changeSet.changes.find(
      c => c.path === clusterFile,
    );
    expect(
      released && released.action !== 'delete' ? released.content : '',
    ).toBe(beforeImport);
  });
});

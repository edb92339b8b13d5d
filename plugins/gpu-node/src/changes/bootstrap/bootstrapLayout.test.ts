/**
 * The bootstrap writes where the request flow reads, whatever the layout:
 * a cluster bootstrapped under a non-default layout takes a request, and the
 * resulting GPU folder builds with the real kustomize.
 */
import { writes } from '../__testUtils__/writes';
import { promises as fs } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import {
  builtinCatalog,
  parseGpuRequest,
  resolveClusterProfile,
} from '@gpu-gitops/plugin-gpu-common';
import { kustomizeBuild } from '../../kustomize/build';
import { readRepoState } from '../../repo/readRepoState';
import { FsRepoTree } from '../../repo/tree';
import { buildRequestChange } from '../buildRequestChange';
import { writeChangeSet } from '../stagedTree';
import { buildBootstrapChangeSet } from './bootstrapChangeSet';
import { bootstrapFolders, bootstrapPaths } from './bootstrapPaths';

// Real kustomize builds (before and after, then the check) on a shared CI machine.
jest.setTimeout(120_000);

const layout = {
  clusterKustomization: 'envs/{{cluster}}/gpu/kustomization.yaml',
  nodePool: 'envs/{{cluster}}/gpu/pools/{{pool}}.yaml',
  devicePluginConfig: 'envs/{{cluster}}/gpu/sharing/{{config}}.yaml',
  migConfig: 'envs/{{cluster}}/gpu/mig-parted.yaml',
};
const cluster = resolveClusterProfile({
  name: 'dev',
  kubernetesVersion: '1.36.2',
  karpenterVersion: '1.14.1',
});
const options = { operatorChartVersion: 'v26.7.0', binPacking: true, layout };

describe('bootstrap under a non-default layout', () => {
  let dir: string;
  beforeEach(async () => {
    dir = await fs.mkdtemp(path.join(os.tmpdir(), 'gpu-bootstrap-layout-'));
  });
  afterEach(async () => {
    await fs.rm(dir, { recursive: true, force: true });
  });

  it('writes into the layout’s folders, nothing under clusters/', async () => {
    const changeSet = await buildBootstrapChangeSet(
      new FsRepoTree(dir),
      cluster,
      options,
    );
    expect(changeSet.changes.map(c => c.path)).toEqual([
      'envs/dev/gpu-operator/kustomization.yaml',
      'envs/dev/gpu-operator/values.yaml',
      'envs/dev/gpu/kustomization.yaml',
      'envs/dev/gpu/mig-parted.yaml',
      'envs/dev/gpu/nodeclasses/gpu.yaml',
      'envs/dev/gpu/scheduler/gpu-binpack.yaml',
      'envs/dev/gpu/sharing/default.yaml',
      'envs/dev/karpenter-controller/kustomization.yaml',
      'envs/dev/karpenter-controller/values.yaml',
    ]);
    const kustomization = writes(changeSet).find(
      c => c.path === 'envs/dev/gpu/kustomization.yaml',
    )!.content;
    expect(kustomization).toContain('- default=sharing/default.yaml');
    expect(kustomization).toContain('- config.yaml=mig-parted.yaml');
    // The GPU Operator's (and Karpenter's) release may be declared
    // anywhere: the whole repository, for every cluster.
    expect(bootstrapFolders()).toEqual(['']);
    expect(bootstrapPaths(undefined, 'dev').migConfig).toBe(
      'clusters/dev/gpu/mig/config.yaml',
    );
  });

  it('leaves a tree the request flow reads as bootstrapped, takes a request and builds with kustomize', async () => {
    const tree = new FsRepoTree(dir);
    const before = await readRepoState(tree, layout, 'dev');
    expect(before.bootstrapped).toBe(false);
    await writeChangeSet(
      tree,
      await buildBootstrapChangeSet(tree, cluster, options),
    );
    expect((await readRepoState(tree, layout, 'dev')).bootstrapped).toBe(true);

    const request = parseGpuRequest({
      apiVersion: 'gpu.backstage.io/v1alpha1',
      kind: 'GpuRequest',
      metadata: { name: 'chat', namespace: 'ml' },
      spec: {
        owner: 'group:default/ml-platform',
        cluster: 'dev',
        gpu: { model: 'a100-40gb', sharing: 'mig', replicas: 2, vramGiB: 18 },
        workload: { image: 'ghcr.io/example/chat:1.0.0' },
        capacityTypes: ['on-demand'],
      },
    });
    // verifyChange builds the touched roots before and after with kustomize.
    const { changeSet, plan } = await buildRequestChange({
      tree,
      dir,
      request,
      cluster,
      catalog: builtinCatalog,
      layout,
    });
    const paths = changeSet.changes.map(c => c.path);
    expect(paths).toContain('envs/dev/gpu/mig-parted.yaml');
    expect(paths).toContain(`envs/dev/gpu/pools/${plan.pool.name}.yaml`);
    expect(paths.filter(p => p.startsWith('clusters/'))).toEqual([]);
    // The request merged into the bootstrap's files, never beside them.
    const mig = writes(changeSet).find(
      c => c.path === 'envs/dev/gpu/mig-parted.yaml',
    )!;
    expect(mig.action).toBe('update');
    expect(mig.content).toContain('all-disabled:');
    await writeChangeSet(tree, changeSet);

    const built = await kustomizeBuild(path.join(dir, 'envs/dev/gpu'));
    const names = built.map(o => `${o.kind}/${o.metadata.name}`);
    expect(names).toEqual(
      expect.arrayContaining([
        'EC2NodeClass/gpu',
        `NodePool/${plan.pool.name}`,
        `ConfigMap/${cluster.devicePluginConfigMap.name}`,
        `ConfigMap/${cluster.migPartedConfigMap.name}`,
      ]),
    );
    const migConfigMap = built.find(
      o =>
        o.kind === 'ConfigMap' &&
        o.metadata.name === cluster.migPartedConfigMap.name,
    ) as unknown as { data: Record<string, string> };
    expect(migConfigMap.data['config.yaml']).toContain('all-disabled');
    expect(migConfigMap.data['config.yaml']).toContain(
      plan.sharing.migConfigName!,
    );
  });
});

/**
 * An AKS cluster with Karpenter's Azure provider, start to finish on disk:
 * the bootstrap writes the AKSNodeClass, then one request of every sharing
 * mode the cluster allows is planned from the repository, merged, built with
 * the real kustomize (in `buildRequestChange`), re-planned to no change, and
 * the tree validates clean. The objects' schemas are checked in gpu-common
 * (`providers/azureKarpenter.test.ts`, Azure's v1.14.2 CRDs).
 */
import { promises as fs } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseAllDocuments } from 'yaml';
import {
  builtinCatalog,
  resolveClusterProfile,
  type GpuRequest,
} from '@gpu-gitops/plugin-gpu-common';
import { kustomizeBuild } from '../../kustomize/build';
import { readRepoState } from '../../repo/readRepoState';
import { FsRepoTree } from '../../repo/tree';
import { validateGitOpsTree } from '../../validate/validateGitOpsTree';
import { buildRequestChange } from '../buildRequestChange';
import { writeChangeSet } from '../stagedTree';
import { everyModeRequests } from '../__fixtures__/requests';
import { buildBootstrapChangeSet } from './bootstrapChangeSet';
import { deployDraDriver } from '../__testUtils__/draDriverKubeletPlugin';

// Real kustomize builds (before and after, then the check) on a shared CI machine.
jest.setTimeout(180_000);

const cluster = resolveClusterProfile({
  name: 'aks-weu',
  provider: 'azure-karpenter',
  region: 'westeurope',
  migStrategy: 'single',
});

const requests = everyModeRequests(cluster.name, 'a100-80gb', 18);

describe('AKS with Karpenter: bootstrap, then every sharing mode', () => {
  let dir: string;
  let tree: FsRepoTree;
  beforeAll(async () => {
    dir = await fs.mkdtemp(path.join(os.tmpdir(), 'gpu-aks-'));
    tree = new FsRepoTree(dir);
    const bootstrap = await buildBootstrapChangeSet(tree, cluster, {
      operatorChartVersion: 'v26.7.0',
      binPacking: false,
    });
    await writeChangeSet(tree, bootstrap);
    // The team's DRA driver, for the dra request (the bootstrap installs none).
    await deployDraDriver(dir, 'clusters/aks-weu/gpu');
  });
  afterAll(async () => {
    await fs.rm(dir, { recursive: true, force: true });
  });

  it('the bootstrap writes the AKSNodeClass the pools reference', async () => {
    const [nodeClass] = parseAllDocuments(
      (await tree.readFile('clusters/aks-weu/gpu/nodeclasses/gpu.yaml'))!,
    ).map(d => d.toJS());
    expect(nodeClass).toMatchObject({
      apiVersion: 'karpenter.azure.com/v1beta1',
      kind: 'AKSNodeClass',
      metadata: { name: 'gpu' },
      spec: { gpu: { mode: 'Driver' } },
    });
  });

  it.each(
    // migStrategy single: every mode can be planned.
    requests.map(r => [`${r.metadata.name} (${r.spec.gpu.sharing})`, r]),
  )(
    '%s: merges, builds, and re-planning from the repository changes nothing',
    async (_label, gpuRequest) => {
      const change = await buildRequestChange({
        tree,
        dir,
        request: gpuRequest as GpuRequest,
        cluster,
        catalog: builtinCatalog,
      });
      // The model: its pods land on the planned pool and on no other pool built.
      expect(change.verification?.landsOn).toEqual([change.plan.pool.name]);
      expect(
        change.plan.pool.instanceTypes.every(t => t.startsWith('Standard_')),
      ).toBe(true);
      await writeChangeSet(tree, change.changeSet);
      const poolFile = parseAllDocuments(
        (await tree.readFile(
          `clusters/aks-weu/gpu/nodepools/${change.plan.pool.name}.yaml`,
        ))!,
      ).map(d => d.toJS());
      // The cluster's class is written once, by the bootstrap.
      expect(poolFile.map(o => o.kind)).not.toContain('AKSNodeClass');
      expect(poolFile[0].spec.template.spec.nodeClassRef.kind).toBe(
        'AKSNodeClass',
      );

      const again = await buildRequestChange({
        tree,
        dir,
        request: gpuRequest as GpuRequest,
        cluster,
        catalog: builtinCatalog,
      });
      expect(again.plan.pool.name).toBe(change.plan.pool.name);
      expect(again.changeSet.empty).toBe(true);
    },
  );

  it('leaves a tree that builds, validates clean and reads back every pool', async () => {
    const built = await kustomizeBuild(path.join(dir, 'clusters/aks-weu/gpu'));
    const kinds = built.map(o => o.kind);
    expect(kinds.filter(k => k === 'AKSNodeClass')).toHaveLength(1);
    expect(kinds).toContain('NodeOverlay');
    expect(await validateGitOpsTree(dir, { cluster })).toEqual([]);
    const state = await readRepoState(tree, undefined, cluster.name);
    expect(state.pools.map(p => p.name).sort()).toEqual(
      [
        ...new Set(
          state.workloads.map(w => w.pool).filter((p): p is string => !!p),
        ),
      ].sort(),
    );
    expect(state.workloads).toHaveLength(requests.length);
  });
});

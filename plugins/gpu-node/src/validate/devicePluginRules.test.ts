/**
 * `validate --cluster` reports what `verify` refuses: a GPU pool whose
 * nodes two device plugins serve (the team's GPU Operator beside a static
 * device-plugin DaemonSet), on a repository the bootstrap and a request
 * wrote, through the real kustomize.
 */
import {
  builtinCatalog,
  resolveClusterProfile,
} from '@gpu-gitops/plugin-gpu-common';
import {
  ARGO_GPU_OPERATOR,
  STATIC_DEVICE_PLUGIN,
} from '../changes/bootstrap/__fixtures__/gpuStackShapes';
import { bootstrappedTempRepo } from '../changes/__testUtils__/bootstrappedTempRepo';
import { buildRequestChange } from '../changes/buildRequestChange';
import { removeTempRepo } from '../changes/__fixtures__/gitopsRepo';
import { mlRequest } from '../changes/__fixtures__/requests';
import { writeChangeSet } from '../changes/stagedTree';
import type { FsRepoTree } from '../repo/tree';
import { validateGitOpsTree } from './validateGitOpsTree';

// Real kustomize builds on a shared two-core machine.
jest.setTimeout(300_000);

const cluster = resolveClusterProfile({ name: 'prod', migStrategy: 'single' });

describe('validate: the device plugins of each GPU pool', () => {
  let dir: string;
  let tree: FsRepoTree;
  let pool: string;
  beforeAll(async () => {
    ({ dir, tree } = await bootstrappedTempRepo(
      {
        'clusters/prod/infrastructure/device-plugin.yaml': STATIC_DEVICE_PLUGIN,
      },
      cluster,
    ));
    const change = await buildRequestChange({
      tree,
      dir,
      request: mlRequest(
        't4-exclusive',
        { model: 't4', sharing: 'exclusive', replicas: 2, vramGiB: 12 },
        { cluster: 'prod' },
      ),
      cluster,
      catalog: builtinCatalog,
    });
    await writeChangeSet(tree, change.changeSet);
    pool = change.plan.pool.name;
  });
  afterAll(() => removeTempRepo(dir));

  const devicePluginFindings = async () =>
    (await validateGitOpsTree(dir, { cluster })).filter(
      f => f.rule === 'device-plugin',
    );

  it('one plugin (the DaemonSet; the bootstrap’s operator runs none): nothing to report', async () => {
    expect(await devicePluginFindings()).toEqual([]);
  });

  it('the team’s GPU Operator added beside it: the pool is reported, naming both', async () => {
    await tree.writeFile('argocd/gpu-operator.yaml', ARGO_GPU_OPERATOR);
    expect(await devicePluginFindings()).toEqual([
      expect.objectContaining({
        object: `NodePool/${pool}`,
        message: expect.stringMatching(
          new RegExp(
            `^2 device plugins run on the nodes of NodePool ${pool} \\(the GPU Operator's device plugin \\(Argo CD Application \`argocd/gpu-operator\``,
          ),
        ),
      }),
    ]);
  });
});

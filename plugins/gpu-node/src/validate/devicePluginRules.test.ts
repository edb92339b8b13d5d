/**
 * `validate --cluster` reports what `verify` refuses: a GPU pool whose
 * nodes two device plugins serve (the team's GPU Operator beside a static
 * device-plugin DaemonSet, or beside the device plugin a team's chart
 * folder renders: chanzuckerberg's `karpenter-gpu-nodepool` in
 * `test/fixtures/argocd-nodepool-chart-repo`, origins in its README), on a
 * repository the bootstrap and a request wrote, through the real kustomize.
 */
import path from 'node:path';
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
import { clusterReleaseFiles } from '../changes/bootstrap/helmReleases/findHelmReleases';
import { snapshot } from '../import/__testUtils__/fixtureCopies';
import { readGpuStack } from '../repo/gpuStack/readGpuStack';
import { FsRepoTree } from '../repo/tree';
import { validateGitOpsTree } from './validateGitOpsTree';

// Real kustomize builds on a shared two-core machine.
jest.setTimeout(300_000);

const cluster = resolveClusterProfile({ name: 'prod', migStrategy: 'single' });

/** The team's chart folder and the Argo CD Application rendering it, as the fixture holds them. */
async function teamChartFolder(): Promise<Record<string, string>> {
  const files = await snapshot(
    new FsRepoTree(
      path.join(
        __dirname,
        '../../../../test/fixtures/argocd-nodepool-chart-repo',
      ),
    ),
  );
  return Object.fromEntries(
    Object.entries(files).filter(([file]) =>
      /^(charts\/|clusters\/prod\/gpu-nodepool\.yaml$)/.test(file),
    ),
  );
}

describe.each([
  [
    'a static DaemonSet',
    async () => ({
      'clusters/prod/infrastructure/device-plugin.yaml': STATIC_DEVICE_PLUGIN,
    }),
    'DaemonSet `nvidia-device-plugin-daemonset`',
  ],
  [
    'a team’s chart folder rendered by an Argo CD Application',
    teamChartFolder,
    "NVIDIA's device plugin as the chart `karpenter-gpu-nodepool` renders it",
  ],
])(
  'validate: the device plugins of each GPU pool, beside %s',
  (_shape, files, theirs) => {
    let dir: string;
    let tree: FsRepoTree;
    let pool: string;
    let landsOn: string[] | undefined;
    beforeAll(async () => {
      ({ dir, tree } = await bootstrappedTempRepo(await files(), cluster));
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
      landsOn = change.verification?.landsOn;
    });
    afterAll(() => removeTempRepo(dir));

    const devicePluginFindings = async () =>
      (await validateGitOpsTree(dir, { cluster })).filter(
        f => f.rule === 'device-plugin',
      );

    it('one plugin (theirs; the bootstrap’s operator runs none): nothing to report, and the request’s pods land on its pool only', async () => {
      expect(landsOn).toEqual([pool]);
      const stack = await readGpuStack(
        tree,
        cluster,
        await clusterReleaseFiles(tree, undefined, 'prod'),
      );
      expect(stack.operatorDevicePluginOff?.setting).toContain(
        '`devicePlugin.enabled: false`',
      );
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
      expect((await devicePluginFindings())[0].message).toContain(theirs);
    });
  },
);

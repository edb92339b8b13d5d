/**
 * Requests on a bootstrapped cluster whose GPU nodes run what the product
 * cannot configure per pool: the request flow reads it from the repository
 * (`readRepoState` with the profile, `RepoState.gpuStack`) and the planner
 * refuses, in the words the bootstrap's notes and the form use, before
 * anything is written.
 */
import {
  builtinCatalog,
  isGpuInputError,
  resolveClusterProfile,
  type ClusterProfile,
  type GpuRequest,
} from '@gpu-gitops/plugin-gpu-common';
import { MemoryRepoTree } from '../../repo/tree';
import { buildRequestChange } from '../buildRequestChange';
import { mlRequest } from '../__fixtures__/requests';
import { writeChangeSet } from '../stagedTree';
import {
  BOTTLEROCKET_NODE_CLASS,
  FLUX_GPU_OPERATOR_WITHOUT_MIG_MANAGER,
} from './__fixtures__/gpuStackShapes';
import { buildBootstrapChangeSet } from './bootstrapChangeSet';

// A hang guard, not a speed goal: each test runs the real kustomize (and git) several
// times, which on a loaded two-core CI machine takes far longer than the default 30 s.
jest.setTimeout(300_000);

const cluster = resolveClusterProfile({ name: 'prod', migStrategy: 'single' });

async function bootstrapped(files: Record<string, string>) {
  const tree = new MemoryRepoTree(files);
  await writeChangeSet(
    tree,
    await buildBootstrapChangeSet(tree, cluster, {
      operatorChartVersion: 'v26.7.0',
      binPacking: false,
    }),
  );
  return tree;
}

async function refusal(
  tree: MemoryRepoTree,
  request: GpuRequest,
  profile: ClusterProfile = cluster,
) {
  const error = await buildRequestChange({
    tree,
    dir: '/nonexistent',
    request,
    cluster: profile,
    catalog: builtinCatalog,
  }).then(
    () => undefined,
    (e: unknown) => e,
  );
  if (!isGpuInputError(error)) throw error ?? new Error('not refused');
  return error.issues[0];
}

describe('requests against what the GPU nodes run', () => {
  it('a MIG request on a GPU Operator with migManager.enabled false is refused, naming the value and the file', async () => {
    const file = 'clusters/prod/infrastructure/gpu-operator.yaml';
    const tree = await bootstrapped({
      [file]: FLUX_GPU_OPERATOR_WITHOUT_MIG_MANAGER,
    });
    const issue = await refusal(
      tree,
      mlRequest(
        'a100-mig',
        { model: 'a100-40gb', sharing: 'mig', replicas: 2, vramGiB: 9 },
        { cluster: 'prod' },
      ),
    );
    expect(issue.rule).toBe('mig-manager-disabled');
    expect(issue.message).toContain(
      `its GPU Operator runs no MIG manager (\`migManager.enabled: false\` in \`spec.values\` of HelmRelease \`gpu-operator/gpu-operator\` in \`${file}\`)`,
    );
  });

  it('a MIG request where the MIG manager reads another ConfigMap is refused, naming the values file, the setting and what to set', async () => {
    const file = 'clusters/prod/infrastructure/gpu-operator.yaml';
    const teamLayouts = FLUX_GPU_OPERATOR_WITHOUT_MIG_MANAGER.replace(
      '      enabled: false\n      config: { name: custom-mig-parted-config }',
      '      config: { name: team-mig-layouts }',
    );
    const tree = await bootstrapped({ [file]: teamLayouts });
    const issue = await refusal(
      tree,
      mlRequest(
        'a100-mig',
        { model: 'a100-40gb', sharing: 'mig', replicas: 2, vramGiB: 9 },
        { cluster: 'prod' },
      ),
    );
    expect(issue.rule).toBe('mig-manager-reads-other-config');
    expect(issue.message).toContain(
      `its GPU Operator's MIG manager reads ConfigMap team-mig-layouts (\`migManager.config.name: team-mig-layouts\` in \`spec.values\` of HelmRelease \`gpu-operator/gpu-operator\` in \`${file}\`)`,
    );
    expect(issue.message).toContain(
      `set \`migManager.config.name: custom-mig-parted-config\` in \`spec.values\` of HelmRelease \`gpu-operator/gpu-operator\` in \`${file}\``,
    );
  });

  it.each([
    [
      'an MPS request',
      { sharing: 'mps', vramGiB: 3 },
      'device-plugin-bottlerocket',
    ],
    [
      'a time-slicing request one of its 4 slices per GPU cannot hold',
      { sharing: 'time-slicing', vramGiB: 6 },
      'node-class-sharing',
    ],
  ] as const)(
    "%s on Bottlerocket's device plugin is refused, naming the node class and its file",
    async (_what, gpu, rule) => {
      const file = 'clusters/prod/karpenter/nodeclass-gpu.yaml';
      const tree = await bootstrapped({ [file]: BOTTLEROCKET_NODE_CLASS });
      const issue = await refusal(
        tree,
        mlRequest(
          't4-ts',
          { model: 't4', replicas: 4, ...gpu },
          { cluster: 'prod' },
        ),
      );
      expect(issue.rule).toBe(rule);
      expect(issue.message).toContain(
        `EC2NodeClass \`gpu\` of the GPU pools with \`amiSelectorTerms\` alias \`bottlerocket@latest\`, in \`${file}\``,
      );
    },
  );
});

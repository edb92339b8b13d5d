/**
 * verify knows which device plugin serves the plan's pool (gpu-common
 * `scheduling/devicePluginService.ts`, the stack `readRepoState` reads): on
 * disk, through the bootstrap, the planner and the real kustomize, a
 * request is refused where two device plugins would serve its pool or
 * where the one serving it advertises another resource than its pods ask
 * for, and lands on its pool where one plugin serves it as planned.
 */
import {
  builtinCatalog,
  isGpuInputError,
  resolveClusterProfile,
} from '@gpu-gitops/plugin-gpu-common';
import { buildRequestChange } from '../buildRequestChange';
import { removeTempRepo } from '../__fixtures__/gitopsRepo';
import { bootstrappedTempRepo } from '../__testUtils__/bootstrappedTempRepo';
import { mlRequest } from '../__fixtures__/requests';
import {
  ARGO_GPU_OPERATOR,
  BOTTLEROCKET_NODE_CLASS,
  STATIC_DEVICE_PLUGIN,
} from './__fixtures__/gpuStackShapes';

// Real kustomize builds before and after on a shared two-core machine.
jest.setTimeout(300_000);

const cluster = resolveClusterProfile({ name: 'prod', migStrategy: 'single' });

const exclusiveT4 = mlRequest(
  't4-exclusive',
  { model: 't4', sharing: 'exclusive', replicas: 2, vramGiB: 12 },
  { cluster: 'prod' },
);

/** The request on the bootstrapped repository `files`: what verify says, or its refusal. */
async function requestOn(files: Record<string, string>) {
  const { dir, tree } = await bootstrappedTempRepo(files, cluster);
  try {
    const change = await buildRequestChange({
      tree,
      dir,
      request: exclusiveT4,
      cluster,
      catalog: builtinCatalog,
    }).catch((error: unknown) => {
      if (isGpuInputError(error)) return error.issues[0];
      throw error;
    });
    return 'plan' in change
      ? { pool: change.plan.pool.name, landsOn: change.verification?.landsOn }
      : { refused: change };
  } finally {
    await removeTempRepo(dir);
  }
}

describe('verify: the device plugin that serves the plan’s pool', () => {
  it('a static device-plugin DaemonSet beside the bootstrap’s operator (its plugin off): the pods land on the pool', async () => {
    const result = await requestOn({
      'clusters/prod/infrastructure/device-plugin.yaml': STATIC_DEVICE_PLUGIN,
    });
    expect(result.landsOn).toEqual([result.pool]);
  });

  it('the same DaemonSet beside the team’s GPU Operator whose device plugin runs: refused, naming both', async () => {
    const { refused } = await requestOn({
      'clusters/prod/infrastructure/device-plugin.yaml': STATIC_DEVICE_PLUGIN,
      'argocd/gpu-operator.yaml': ARGO_GPU_OPERATOR,
    });
    expect(refused?.rule).toBe('verify');
    expect(refused?.message).toMatch(
      /its pods cannot run on pool gpu-t4\S*: 2 device plugins run on the nodes of NodePool gpu-t4\S* \(the GPU Operator's device plugin \(Argo CD Application `argocd\/gpu-operator`.*; DaemonSet `nvidia-device-plugin-daemonset` running the `k8s-device-plugin` image, in `clusters\/prod\/infrastructure\/device-plugin.yaml`\)/,
    );
  });

  it('Bottlerocket’s device plugin time-slicing every GPU as nvidia.com/gpu.shared: an exclusive request is refused before it is planned, naming the node class’s user data', async () => {
    const { refused } = await requestOn({
      'clusters/prod/karpenter/nodeclass-gpu.yaml': BOTTLEROCKET_NODE_CLASS,
    });
    expect(refused?.rule).toBe('device-plugin-shares-by-default');
    expect(refused?.message).toContain(
      'which shares every GPU (time-slicing, 4 per GPU, as `nvidia.com/gpu.shared`: EC2NodeClass "gpu" spec.userData',
    );
  });
});

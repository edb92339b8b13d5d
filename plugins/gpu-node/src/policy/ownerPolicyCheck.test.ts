import path from 'node:path';
import { ConfigReader } from '@backstage/config';
import {
  builtinCatalog,
  parseGpuRequest,
  plan,
  resolveClusterProfile,
  type GpuRequest,
} from '@gpu-gitops/plugin-gpu-common';
import { readRepoState } from '../repo/readRepoState';
import { FsRepoTree } from '../repo/tree';
import { readGpuPolicy } from '../config/readGpuPolicy';
import { ownerPolicyCheck } from './ownerPolicyCheck';
import { readRequestOwners } from './requestOwners';

/** The project's fixture repository: chat-assistant (ml-platform) holds 2 time slices of a 4-slice T4 pool on dev. */
const FIXTURE_REPO = path.resolve(
  __dirname,
  '../../../../test/fixtures/gitops-repo',
);

const policy = readGpuPolicy(
  new ConfigReader({
    defaults: {
      allowedSharingModes: ['exclusive', 'time-slicing', 'mps', 'mig'],
      gpuQuota: 8,
    },
    groups: [
      { owner: 'group:default/research', allowedModels: ['t4'], gpuQuota: 16 },
    ],
  }),
);

function request(
  gpu: Partial<GpuRequest['spec']['gpu']>,
  owner = 'group:default/ml-platform',
  name = 'svc',
): GpuRequest {
  return parseGpuRequest({
    kind: 'GpuRequest',
    metadata: { name, namespace: 'ml' },
    spec: {
      owner,
      gpu: {
        model: 't4',
        sharing: 'exclusive',
        replicas: 1,
        vramGiB: 8,
        ...gpu,
      },
      workload: { image: 'ghcr.io/acme/svc:1.0.0' },
    },
  });
}

/** What the scaffolder's guard does: the checkout read for the cluster, owners from the stored requests. */
async function check(gpuRequest: GpuRequest, clusterName = 'dev') {
  const tree = new FsRepoTree(FIXTURE_REPO);
  const cluster = resolveClusterProfile({ name: clusterName });
  const state = await readRepoState(tree, undefined, cluster.name, {
    catalog: builtinCatalog,
  });
  const owners = await readRequestOwners(tree, state.workloads);
  const guard = ownerPolicyCheck(policy, builtinCatalog, gpuRequest);
  const planned = plan(gpuRequest, guard.catalog, cluster, state);
  return {
    guard,
    planned,
    ...guard.checkPlan(planned, {
      cluster: cluster.name,
      state,
      isDefaultCluster: cluster.name === 'dev',
      ownerOf: id => owners.get(id),
    }),
  };
}

describe('ownerPolicyCheck on the fixture repository', () => {
  it('counts what the team holds on the cluster and lets a request within its quota through', async () => {
    const { issues, quota } = await check(request({ replicas: 7 }));
    expect(quota).toEqual({
      owner: 'group:default/ml-platform',
      cluster: 'dev',
      used: 0.5,
      requested: 7,
      quota: 8,
    });
    expect(issues).toEqual([]);
  });

  it('refuses a request over the quota, saying by how much', async () => {
    const { issues, quota } = await check(request({ replicas: 8 }));
    expect(quota.used + quota.requested).toBe(8.5);
    expect(issues).toEqual([
      {
        path: 'spec.gpu.replicas',
        rule: 'policy-quota',
        message:
          'GPU quota exceeded for group:default/ml-platform on dev by 0.5 GPU: quota 8, already used 0.5, this request needs 8 (physical-GPU equivalents)',
      },
    ]);
  });

  it('does not count the workload a request replaces', async () => {
    const { quota } = await check(
      request({ replicas: 8 }, 'group:default/ml-platform', 'chat-assistant'),
    );
    expect(quota.used).toBe(0);
  });

  it('counts on its own cluster only: the dev workload is not used on inference', async () => {
    const { quota, issues } = await check(
      request({ replicas: 8 }),
      'inference',
    );
    expect(quota).toMatchObject({
      cluster: 'inference',
      used: 0,
      requested: 8,
    });
    expect(issues).toEqual([]);
  });

  it('refuses a sharing mode the policy forbids before anything is planned', () => {
    const guard = ownerPolicyCheck(
      policy,
      builtinCatalog,
      request({ sharing: 'dra' }),
    );
    expect(guard.choiceIssues).toEqual([
      {
        path: 'spec.gpu.sharing',
        rule: 'policy-sharing',
        message:
          'Sharing mode dra is not allowed for group:default/ml-platform; allowed: exclusive, time-slicing, mps, mig',
      },
    ]);
  });

  it('plans "auto" among the owner’s models only', async () => {
    // research may use T4s only: 30 GiB needs a larger GPU than any it may use.
    await expect(
      check(request({ model: 'auto', vramGiB: 30 }, 'group:default/research')),
    ).rejects.toThrow(
      '30.0 GiB is more than the largest GPU in the catalog (15.0 GiB)',
    );
  });
});

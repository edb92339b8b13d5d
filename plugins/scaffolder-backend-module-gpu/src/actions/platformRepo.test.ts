/**
 * The actions on a repository shaped like a platform team's
 * (test/fixtures/gitops-platform-repo): an existing workload with a sidecar
 * in a Kustomize base with two overlays, hand-written apps and pools.
 */
import { InputError } from '@backstage/errors';
import { createMockActionContext } from '@backstage/plugin-scaffolder-node-test-utils';
import { buildEveryRootForTests } from '../__testUtils__/kustomizeRoots';
import {
  createFixtureGitopsRepo,
  PLATFORM_GITOPS_REPO,
  type FixtureRepo,
} from '../__testUtils__/fixtureGitopsRepo';
import { testServices } from '../__testUtils__/testServices';
import { createGpuGitopsPullRequestAction } from './gpuGitopsPullRequest';
import { createGpuPlanAction } from './gpuPlan';
import { outputsOf } from '../__testUtils__/actionOutputs';

jest.setTimeout(120_000);

const recommender = {
  name: 'recommender',
  namespace: 'ml',
  owner: 'group:default/ml-platform',
  cluster: 'prod-eu',
  model: 't4',
  sharing: 'time-slicing' as const,
  replicas: 2,
  vramGiB: 3,
  existingKind: 'Deployment' as const,
  existingName: 'recommender',
};

describe('the GPU actions on a platform team repository', () => {
  let repo: FixtureRepo;
  const services = () =>
    testServices(repo, {
      clusters: {
        default: 'prod-eu',
        profiles: { 'prod-eu': { karpenterVersion: '1.14.1' } },
      },
    });

  beforeEach(async () => {
    repo = await createFixtureGitopsRepo(PLATFORM_GITOPS_REPO);
  });
  afterEach(async () => {
    await repo.cleanup();
  });

  it('gpu:plan refuses a workload with several containers when none is named, listing them', async () => {
    const ctx = createMockActionContext({ input: recommender });
    const error = await createGpuPlanAction(services())
      .handler(ctx)
      .catch(e => e);
    expect(error).toBeInstanceOf(InputError);
    expect(error.message).toContain(
      'Container: Deployment "recommender" has 2 containers (api, metrics-exporter): name the one that gets the GPU (input "existingContainer", spec.workload.existing.container) [container-required]',
    );
    expect(Object.keys(await repo.refs())).toEqual(['refs/heads/main']);
  });

  it('gpu:gitops:pull-request gives the named container the GPU in the overlay of the cluster, and says the replica change in bold', async () => {
    const ctx = createMockActionContext({
      input: { ...recommender, existingContainer: 'api' },
    });
    await createGpuGitopsPullRequestAction(services()).handler(ctx);
    const out = outputsOf(ctx);
    expect(out.branchName).toBe('gpu/ml-recommender');
    expect(out.files).toEqual(
      expect.arrayContaining([
        'apps/ml/recommender/overlays/prod-eu/gpu-patch-recommender.yaml',
        'apps/ml/recommender/overlays/prod-eu/kustomization.yaml',
      ]),
    );
    expect(out.files.some((f: string) => f.includes('/base/'))).toBe(false);
    expect(out.body).toContain('| Replicas | **replicas 3 → 2** |');
    const tree = await repo.checkout('gpu/ml-recommender');
    const built = await buildEveryRootForTests(tree);
    const deployment = built
      .get('apps/ml/recommender/overlays/prod-eu')!
      .find(o => o.kind === 'Deployment') as any;
    const [api, sidecar] = deployment.spec.template.spec.containers;
    expect(api.resources.limits['nvidia.com/gpu.shared']).toBe('1');
    expect(sidecar.resources).toEqual({
      requests: { cpu: '50m', memory: '64Mi' },
    });
    expect(deployment.spec.replicas).toBe(2);
  });

  it('gpu:gitops:pull-request refuses a new workload named like the hand-written storefront, naming its file', async () => {
    const ctx = createMockActionContext({
      input: {
        name: 'storefront',
        namespace: 'web',
        owner: 'group:default/ml-platform',
        cluster: 'prod-eu',
        model: 'l4',
        sharing: 'time-slicing' as const,
        replicas: 2,
        vramGiB: 4,
        image: 'ghcr.io/acme/storefront:13.0.0',
      },
    });
    const error = await createGpuGitopsPullRequestAction(services())
      .handler(ctx)
      .catch(e => e);
    expect(error).toBeInstanceOf(InputError);
    expect(error.message).toContain('apps/web/storefront/deployment.yaml');
    expect(error.message).toContain('[name-taken]');
    expect(Object.keys(await repo.refs())).toEqual(['refs/heads/main']);
  });
});

import yaml from 'yaml';
import { InputError } from '@backstage/errors';
import { createMockActionContext } from '@backstage/plugin-scaffolder-node-test-utils';
import {
  createFixtureGitopsRepo,
  type FixtureRepo,
} from '../__testUtils__/fixtureGitopsRepo';
import { testServices } from '../__testUtils__/testServices';
import { createGpuPlanAction } from './gpuPlan';
import { examples } from './gpuPlan.examples';
import { outputsOf } from '../__testUtils__/actionOutputs';

// Real git and a real backend under a shared, busy CI machine: a generous ceiling, not a speed goal.
jest.setTimeout(60_000);

describe('gpu:plan', () => {
  let repo: FixtureRepo;

  beforeAll(async () => {
    repo = await createFixtureGitopsRepo();
  });
  afterAll(async () => {
    await repo.cleanup();
  });

  it('declares dry-run support, a zod-derived JSON schema and examples', () => {
    const action = createGpuPlanAction(testServices(undefined));
    expect(action.id).toBe('gpu:plan');
    expect(action.supportsDryRun).toBe(true);
    const input = action.schema?.input as {
      properties: Record<string, any>;
      required: string[];
    };
    expect(input.required).toEqual(
      expect.arrayContaining(['name', 'namespace', 'owner', 'vramGiB']),
    );
    expect(input.properties.sharing.enum).toEqual([
      'exclusive',
      'time-slicing',
      'mps',
      'mig',
      'dra',
    ]);
    expect(action.examples?.length).toBeGreaterThan(0);
  });

  it('reuses the existing T4 time-slicing pool of the repository and outputs the plan', async () => {
    const action = createGpuPlanAction(testServices(repo));
    const ctx = createMockActionContext({
      input: {
        name: 'chat-api',
        namespace: 'ml',
        owner: 'group:default/ml-platform',
        model: 't4',
        sharing: 'time-slicing' as const,
        replicas: 2,
        slicesPerGpu: 4,
        vramGiB: 3,
        image: 'ghcr.io/example/chat-api:1.0.0',
      },
    });
    await action.handler(ctx);
    const out = outputsOf(ctx);
    expect(out.cluster).toBe('dev');
    expect(out.pool).toMatchObject({
      name: 'gpu-t4-ts4',
      gpuModel: 't4',
      reused: true,
    });
    expect(out.sharing).toMatchObject({
      mode: 'time-slicing',
      slicesPerGpu: 4,
    });
    expect(out.resourceName).toBe('nvidia.com/gpu.shared');
    expect(out.perReplica.vramGuaranteed).toBe(false);
    expect(out.nodes.expected).toBeGreaterThanOrEqual(1);
    expect(out.cost.usdPerMonth).toBeGreaterThan(0);
    expect(out.plan.pool).toEqual(out.pool);
    expect(out.summary).toContain('gpu-t4-ts4');
    expect(out.summary).toContain('GPU use of group:default/ml-platform');
    // Reading is all gpu:plan does: the remote has only main.
    expect(Object.keys(await repo.refs())).toEqual(['refs/heads/main']);
  });

  it('plans without a repository when told not to read it', async () => {
    const action = createGpuPlanAction(testServices(undefined));
    const ctx = createMockActionContext({
      input: {
        name: 'trainer',
        namespace: 'research',
        owner: 'group:default/research',
        model: 'a100-40gb',
        sharing: 'mig' as const,
        replicas: 3,
        vramGiB: 9,
        image: 'ghcr.io/example/trainer:3',
        readRepository: false,
      },
    });
    await action.handler(ctx);
    const out = outputsOf(ctx);
    expect(out.pool.reused).toBe(false);
    expect(out.sharing.mode).toBe('mig');
    expect(out.sharing.migProfile).toMatch(/^\dg\.\d+gb/);
    expect(out.perReplica.vramGuaranteed).toBe(true);
  });

  it('fails with an InputError naming the field for an invalid request', async () => {
    const action = createGpuPlanAction(testServices(undefined));
    const ctx = createMockActionContext({
      input: {
        name: 'chat-api',
        namespace: 'ml',
        owner: 'group:default/ml-platform',
        sharing: 'time-slicing' as const,
        replicas: 2,
        vramGiB: -1,
        image: 'ghcr.io/example/chat-api:1.0.0',
      },
    });
    await expect(action.handler(ctx)).rejects.toThrow(InputError);
    await expect(action.handler(ctx)).rejects.toThrow(/input "vramGiB"/);
    expect(ctx.output).not.toHaveBeenCalled();
  });

  it('fails before anything else when the owner is over quota, saying by how much', async () => {
    // The fixture's chat-assistant (ml-platform) holds 2 of 4 T4 slices = 0.5 GPU.
    const action = createGpuPlanAction(
      testServices(repo, {
        policy: {
          groups: [{ owner: 'group:default/ml-platform', gpuQuota: 1 }],
        },
      }),
    );
    const ctx = createMockActionContext({
      input: {
        name: 'big-model',
        namespace: 'ml',
        owner: 'group:default/ml-platform',
        model: 't4',
        sharing: 'exclusive' as const,
        replicas: 1,
        vramGiB: 12,
        image: 'ghcr.io/example/big-model:1',
      },
    });
    const failure = action.handler(ctx);
    await expect(failure).rejects.toThrow(InputError);
    await expect(failure).rejects.toThrow(
      /GPU quota exceeded for group:default\/ml-platform on dev by 0\.5 GPU: quota 1, already used 0\.5, this request needs 1/,
    );
  });

  it('rejects a sharing mode the owner may not use', async () => {
    const action = createGpuPlanAction(
      testServices(undefined, {
        policy: { defaults: { allowedSharingModes: ['time-slicing'] } },
      }),
    );
    const ctx = createMockActionContext({
      input: {
        name: 'x',
        namespace: 'ml',
        owner: 'group:default/web',
        sharing: 'exclusive' as const,
        vramGiB: 8,
        image: 'ghcr.io/example/x:1',
        readRepository: false,
      },
    });
    await expect(action.handler(ctx)).rejects.toThrow(
      /Sharing mode: .*not allowed for group:default\/web.*\(input "sharing", spec\.gpu\.sharing\) \[policy-sharing\]/s,
    );
  });

  it.each(examples.map(e => [e.description, e.example]))(
    'runs its example: %s',
    async (_description, example) => {
      const step = yaml.parse(example).steps[0];
      const action = createGpuPlanAction(testServices(repo));
      const ctx = createMockActionContext({ input: step.input });
      await action.handler(ctx);
      expect(outputsOf(ctx).summary).toContain(step.input.name);
    },
  );
});

describe('gpu:plan with allowed models', () => {
  it('plans `auto` only among the models the owner may use', async () => {
    const action = createGpuPlanAction(
      testServices(undefined, {
        policy: { defaults: { allowedModels: ['l4'] } },
      }),
    );
    const ctx = createMockActionContext({
      input: {
        name: 'x',
        namespace: 'ml',
        owner: 'group:default/web',
        vramGiB: 8,
        image: 'ghcr.io/example/x:1',
        readRepository: false,
      },
    });
    await action.handler(ctx);
    expect(outputsOf(ctx).pool.gpuModel).toBe('l4');
  });

  it('rejects an explicit model the owner may not use before planning', async () => {
    const action = createGpuPlanAction(
      testServices(undefined, {
        policy: { defaults: { allowedModels: ['l4'] } },
      }),
    );
    const ctx = createMockActionContext({
      input: {
        name: 'x',
        namespace: 'ml',
        owner: 'group:default/web',
        model: 'h100-80gb',
        vramGiB: 8,
        image: 'ghcr.io/example/x:1',
        readRepository: false,
      },
    });
    await expect(action.handler(ctx)).rejects.toThrow(
      /GPU model: GPU model h100-80gb is not allowed for group:default\/web; allowed: l4 \(input "model", spec\.gpu\.model\) \[policy-model\]/,
    );
  });
});

import request from 'supertest';
import {
  GPU_WORKLOAD_DEFAULTS,
  gpuWorkloadValues,
} from '@gpu-gitops/plugin-gpu-node';
import yaml from 'yaml';
import type { TestBackend } from '@backstage/backend-test-utils';
import { validateGitOpsTree } from '@gpu-gitops/plugin-gpu-node';
import {
  createFixtureGitopsRepo,
  type FixtureRepo,
} from '../__testUtils__/fixtureGitopsRepo';
import {
  logText,
  runTask,
  startScaffolder,
  templateEntity,
} from '../__testUtils__/scaffolderBackend';

// Real git and a real backend under a shared, busy CI machine: a generous ceiling, not a speed goal.
jest.setTimeout(60_000);

/** A line of a JavaScript stack trace (`    at fn (file.js:1:2)`). */
const STACK_FRAME = /^\s+at .+:\d+:\d+\)?$/m;

/** A gpu-workload request, flat, on the form's defaults (gpuWorkloadValues nests it as the form sends it). */
function workloadValues(overrides: Record<string, unknown>) {
  return {
    ...GPU_WORKLOAD_DEFAULTS,
    name: 'svc',
    owner: 'group:default/ml-platform',
    image: 'ghcr.io/example/svc:1.0.0',
    ...overrides,
  };
}

describe('real scaffolder backend: gpu templates end to end', () => {
  let repo: FixtureRepo;
  let backend: TestBackend;

  beforeAll(async () => {
    repo = await createFixtureGitopsRepo();
    backend = await startScaffolder(repo);
  });
  afterAll(async () => {
    await backend.stop();
    await repo.cleanup();
  });

  it.each([
    [
      'exclusive',
      { name: 'llm-exclusive', model: 'l4', sharing: 'exclusive', vramGiB: 20 },
    ],
    [
      'time-slicing',
      {
        name: 'chat-ts',
        model: 't4',
        sharing: 'time-slicing',
        replicas: 3,
        vramGiB: 3,
      },
    ],
    [
      'mps',
      {
        name: 'embed-mps',
        // MPS needs MIG strategy "single" (the device plugin rejects MPS with "mixed").
        cluster: 'inference',
        model: 'a10g',
        sharing: 'mps',
        replicas: 4,
        vramGiB: 4,
      },
    ],
    [
      'mig',
      {
        name: 'vision-mig',
        model: 'a100-40gb',
        sharing: 'mig',
        replicas: 2,
        vramGiB: 9,
      },
    ],
    [
      'dra',
      {
        name: 'batch-dra',
        model: 'l4',
        sharing: 'dra',
        replicas: 2,
        vramGiB: 20,
      },
    ],
    [
      'mig on an existing Deployment',
      {
        name: 'recommender-api',
        model: 'a100-40gb',
        sharing: 'mig',
        replicas: 3,
        vramGiB: 4,
        workloadType: 'existing',
        image: undefined,
        existingKind: 'Deployment',
        existingName: 'recommender-api',
      },
    ],
  ])(
    'gpu-workload with %s: the task completes and the branch holds the change',
    async (_mode, overrides) => {
      const values = workloadValues(overrides);
      const { status, events, output } = await runTask(
        backend,
        'template:default/gpu-workload',
        gpuWorkloadValues(values),
      );
      expect({
        status,
        log: status === 'completed' ? '' : logText(events),
      }).toEqual({
        status: 'completed',
        log: '',
      });
      const branch = `gpu/ml-${values.name}`;
      // The review page of the local forge; the component link only for a
      // component the catalog holds (recommender-api), else a note says why.
      const inCatalog = values.name === 'recommender-api';
      expect(output.links).toEqual([
        {
          title: 'Pull request',
          url: `/gpu/pull-requests/${branch.slice('gpu/'.length)}`,
        },
        ...(inCatalog
          ? [
              {
                title: 'Component in the catalog',
                icon: 'catalog',
                entityRef: `component:default/${values.name}`,
              },
            ]
          : []),
      ]);
      const note = output.text.find(
        (t: { title: string }) => t.title === 'Not in the catalog yet',
      );
      expect(
        note?.content.includes(
          `component:default/${values.name} is not in the catalog`,
        ) ?? false,
      ).toBe(!inCatalog);
      expect(output.text[0].title).toBe('GPU plan');
      expect(output.text[0].content).toContain(`ml/${values.name}`);
      expect(output.text[1].content).toContain(values.name);

      const files = await repo.files(branch);
      expect(files).toContain(`requests/ml/${values.name}.yaml`);
      const stored = yaml.parse(
        (await repo.show(branch, `requests/ml/${values.name}.yaml`))!,
      );
      expect(stored.spec.gpu.sharing).toBe(values.sharing);
      expect(stored.spec.owner).toBe('group:default/ml-platform');
      expect(files.some(f => f.startsWith(`apps/ml/${values.name}/`))).toBe(
        true,
      );
      expect(
        files.some(f =>
          f.startsWith(`clusters/${values.cluster || 'dev'}/gpu/nodepools/`),
        ),
      ).toBe(true);
      // The whole branch is a valid GitOps tree (schemas, device-plugin / MIG rules, references).
      expect(await validateGitOpsTree(await repo.checkout(branch))).toEqual([]);
      // The task log shows each stage with its duration.
      const log = logText(events);
      expect(log).toMatch(/Plan: done in \d+ ms/);
      expect(log).toMatch(
        /Push branch and open local pull request: done in \d+ ms/,
      );
    },
  );

  it('a task with invalid values fails naming the field and leaves the repository untouched', async () => {
    const before = await repo.refs();
    const { status, events } = await runTask(
      backend,
      'template:default/gpu-workload',
      gpuWorkloadValues(
        workloadValues({ name: 'bad-mig', model: 't4', sharing: 'mig' }),
      ),
    );
    expect(status).toBe('failed');
    const log = logText(events);
    expect(log).toContain(
      'GPU model: t4 does not support MIG; pick a MIG-capable model (A100, A30, H100, H200, B200...) or another sharing mode (input "model", spec.gpu.model) [mig-unsupported]',
    );
    // A refusal is the user's to fix: its reason, never a stack trace.
    expect(log).not.toMatch(STACK_FRAME);
    expect(await repo.refs()).toEqual(before);
  });

  it('rejects values that break the template parameters with 400 before any task runs', async () => {
    const res = await request(backend.server)
      .post('/api/scaffolder/v2/tasks')
      .send({
        templateRef: 'template:default/gpu-workload',
        values: gpuWorkloadValues(
          workloadValues({ name: 'Bad_Name', replicas: 0 }),
        ),
      });
    expect(res.status).toBe(400);
    expect(JSON.stringify(res.body)).toMatch(/name|replicas/);
  });

  it('gpu-cluster-bootstrap completes and links the bootstrap branch', async () => {
    const { status, events, output } = await runTask(
      backend,
      'template:default/gpu-cluster-bootstrap',
      { cluster: 'prod', operatorChartVersion: 'v26.7.0', binPacking: true },
    );
    expect({
      status,
      log: status === 'completed' ? '' : logText(events),
    }).toEqual({
      status: 'completed',
      log: '',
    });
    expect(output.links[0].url).toBe('/gpu/pull-requests/bootstrap-prod');
    expect(await repo.files('gpu/bootstrap-prod')).toContain(
      'clusters/prod/gpu-operator/values.yaml',
    );
    expect(
      await validateGitOpsTree(await repo.checkout('gpu/bootstrap-prod')),
    ).toEqual([]);
  });

  it('POST /v2/dry-run renders the gpu-workload output without pushing', async () => {
    const before = await repo.refs();
    const res = await request(backend.server)
      .post('/api/scaffolder/v2/dry-run')
      .send({
        template: await templateEntity('gpu-workload'),
        values: gpuWorkloadValues(
          workloadValues({
            name: 'dry-svc',
            model: 't4',
            sharing: 'time-slicing',
            vramGiB: 3,
          }),
        ),
        directoryContents: [],
      });
    expect(res.status).toBe(200);
    expect(res.body.output.text[0].content).toContain('ml/dry-svc');
    const prStep = res.body.steps.find((s: { id: string }) => s.id === 'pr');
    expect(prStep).toBeDefined();
    const log = res.body.log
      .map((l: { body: { message: string } }) => l.body.message)
      .join('\n');
    expect(log).toContain('Dry run (nothing pushed)');
    expect(await repo.refs()).toEqual(before);
  });

  it('POST /v2/dry-run renders the gpu-cluster-bootstrap output without pushing', async () => {
    const before = await repo.refs();
    const res = await request(backend.server)
      .post('/api/scaffolder/v2/dry-run')
      .send({
        template: await templateEntity('gpu-cluster-bootstrap'),
        values: {
          cluster: 'dev',
          operatorChartVersion: 'v26.7.0',
          binPacking: false,
        },
        directoryContents: [],
      });
    expect(res.status).toBe(200);
    expect(res.body.output.text[0].content).toContain('cluster **dev**');
    expect(await repo.refs()).toEqual(before);
  });

  it('POST /v2/dry-run with gpu:gitops:render returns the rendered files as directory contents', async () => {
    const template = {
      apiVersion: 'scaffolder.backstage.io/v1beta3',
      kind: 'Template',
      metadata: { name: 'render-only', namespace: 'default' },
      spec: {
        type: 'service',
        parameters: [],
        steps: [
          {
            id: 'render',
            action: 'gpu:gitops:render',
            input: {
              name: 'render-svc',
              namespace: 'ml',
              owner: 'group:default/ml-platform',
              model: 'a100-40gb',
              sharing: 'mig',
              replicas: 2,
              vramGiB: 9,
              image: 'ghcr.io/example/render-svc:1',
              targetPath: 'gitops',
            },
          },
        ],
        output: {
          text: [{ title: 'PR', content: '${{ steps.render.output.title }}' }],
        },
      },
    };
    const res = await request(backend.server)
      .post('/api/scaffolder/v2/dry-run')
      .send({ template, values: {}, directoryContents: [] });
    expect(res.status).toBe(200);
    const files = Object.fromEntries(
      res.body.directoryContents.map(
        (f: { path: string; base64Content: string }) => [
          f.path,
          Buffer.from(f.base64Content, 'base64').toString('utf8'),
        ],
      ),
    );
    expect(Object.keys(files)).toEqual(
      expect.arrayContaining([
        'gitops/requests/ml/render-svc.yaml',
        'gitops/clusters/dev/gpu/mig/config.yaml',
      ]),
    );
    expect(
      yaml.parse(files['gitops/requests/ml/render-svc.yaml']).spec.gpu.sharing,
    ).toBe('mig');
    expect(res.body.output.text[0].content).toContain('render-svc');
  });
});

describe('real scaffolder backend: a refused request in the task log', () => {
  let repo: FixtureRepo;
  let backend: TestBackend;

  beforeAll(async () => {
    repo = await createFixtureGitopsRepo();
    // The demo's policy (app-config.yaml): 8 GPUs per team and cluster.
    backend = await startScaffolder(repo, {
      policy: { defaults: { gpuQuota: 8 } },
    });
  });
  afterAll(async () => {
    await backend.stop();
    await repo.cleanup();
  });

  it('over the team quota: the plan step fails with the reason in the form’s words, no stack trace, nothing pushed', async () => {
    const before = await repo.refs();
    const { status, events } = await runTask(
      backend,
      'template:default/gpu-workload',
      gpuWorkloadValues(
        // ml-platform holds 0.5 GPU on dev already (chat-assistant).
        workloadValues({
          name: 'big',
          model: 't4',
          sharing: 'exclusive',
          replicas: 8,
          vramGiB: 8,
        }),
      ),
    );
    expect(status).toBe('failed');
    const failed = events.filter(
      e => e.type === 'log' && e.body.status === 'failed',
    );
    expect(failed.map(e => [e.body.stepId, e.body.message])).toEqual([
      [
        'plan',
        'The GPU request was refused:\n' +
          'Replicas: GPU quota exceeded for group:default/ml-platform on dev by 0.5 GPU: quota 8, already used 0.5, this request needs 8 (physical-GPU equivalents) (input "replicas", spec.gpu.replicas) [policy-quota]',
      ],
    ]);
    expect(logText(events)).not.toMatch(STACK_FRAME);
    expect(await repo.refs()).toEqual(before);
  });
});

import request from 'supertest';
import {
  GPU_WORKLOAD_DEFAULTS,
  gpuWorkloadValues,
  validateGitOpsTree,
} from '@gpu-gitops/plugin-gpu-node';
import yaml from 'yaml';
import type { TestBackend } from '@backstage/backend-test-utils';
import {
  createLocalGitopsRemote,
  type LocalGitopsRemote,
} from '../__testUtils__/localGitopsRemote';
import {
  AUTH_HEADER,
  runTask,
  startRealBackend,
  waitForEntities,
  type TaskResult,
} from '../__testUtils__/realBackend';

// Real catalog, scaffolder, SQLite and git on a shared 2-core CI machine: a
// ceiling for hangs, not a speed goal. The file takes ~110 s in CI; on a
// machine loaded 2.6 times over, a test of four scaffolder tasks ran past 60 s.
jest.setTimeout(300_000);

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

/** The task's log when it did not complete, so a failure shows why. */
function completion(result: TaskResult) {
  return {
    status: result.status,
    log: result.status === 'completed' ? '' : result.log,
  };
}

describe('real backend (catalog + scaffolder + GPU module): templates from catalog-info.yaml', () => {
  let remote: LocalGitopsRemote;
  let backend: TestBackend;

  beforeAll(async () => {
    remote = await createLocalGitopsRemote();
    backend = await startRealBackend(remote);
    // The templates come from the repository's root catalog-info.yaml
    // (Location -> templates/*/template.yaml), not from a mock.
    await waitForEntities(
      backend,
      [
        'location/default/gpu-gitops-templates',
        'template/default/gpu-workload',
        'template/default/gpu-cluster-bootstrap',
        'template/default/gpu-release',
        'template/default/gpu-setup-import',
      ],
      30_000,
    );
  });
  afterAll(async () => {
    await backend?.stop();
    await remote?.cleanup();
  });

  it('GET /api/scaffolder/v2/actions lists the GPU actions with schemas and examples', async () => {
    const res = await request(backend.server)
      .get('/api/scaffolder/v2/actions')
      .set('Authorization', AUTH_HEADER);
    expect(res.status).toBe(200);
    const byId = Object.fromEntries(
      res.body.map((a: { id: string }) => [a.id, a]),
    );
    for (const id of [
      'gpu:plan',
      'gpu:gitops:render',
      'gpu:gitops:pull-request',
      'gpu:gitops:bootstrap',
      'gpu:gitops:release',
    ]) {
      expect(byId[id]).toBeDefined();
      expect(byId[id].schema.input.type).toBe('object');
      expect(byId[id].schema.output.type).toBe('object');
      expect(byId[id].examples.length).toBeGreaterThan(0);
      expect(byId[id].examples[0].example).toContain(`action: ${id}`);
    }
    expect(byId['gpu:gitops:pull-request'].schema.input.required).toEqual(
      expect.arrayContaining(['name', 'namespace', 'owner', 'vramGiB']),
    );
  });

  it('the catalog serves the templates with their source location', async () => {
    const res = await request(backend.server)
      .get('/api/catalog/entities/by-name/template/default/gpu-workload')
      .set('Authorization', AUTH_HEADER);
    expect(
      res.body.spec.steps.map((s: { action: string }) => s.action),
    ).toEqual([
      'catalog:fetch',
      'gpu:plan',
      'gpu:gitops:pull-request',
      'catalog:register',
    ]);
    expect(
      res.body.metadata.annotations['backstage.io/managed-by-origin-location'],
    ).toMatch(/^file:.*\/catalog-info\.yaml$/);
  });

  it.each([
    {
      sharing: 'exclusive',
      values: { name: 'llm-exclusive', model: 'l4', vramGiB: 20 },
      resources: { limits: ['nvidia.com/gpu'], claims: 0 },
      // Whole GPUs need no device-plugin sharing or MIG config.
      modeFiles: {
        pattern: /^clusters\/dev\/gpu\/(device-plugin|mig)\//,
        count: 0,
      },
      overlays: false,
    },
    {
      sharing: 'time-slicing',
      // 5 GiB: the seeded gpu-t4-ts4 pool's 3.75 GiB slices cannot hold it,
      // so a new pool and its device-plugin config are written.
      values: { name: 'chat-ts', model: 't4', replicas: 3, vramGiB: 5 },
      resources: { limits: ['nvidia.com/gpu.shared'], claims: 0 },
      modeFiles: {
        pattern: /^clusters\/dev\/gpu\/device-plugin\/ts-.+\.yaml$/,
        count: 1,
      },
      overlays: true,
    },
    {
      sharing: 'mps',
      // MPS is refused where the device plugin runs the mixed MIG strategy.
      values: {
        name: 'embed-mps',
        cluster: 'inference',
        model: 'a10g',
        replicas: 4,
        vramGiB: 4,
      },
      resources: { limits: ['nvidia.com/gpu.shared'], claims: 0 },
      modeFiles: {
        pattern: /^clusters\/inference\/gpu\/device-plugin\/mps-.+\.yaml$/,
        count: 1,
      },
      overlays: true,
    },
    {
      sharing: 'mig',
      values: {
        name: 'vision-mig',
        model: 'a100-40gb',
        replicas: 2,
        vramGiB: 9,
      },
      resources: { limits: ['nvidia.com/mig-1g.10gb'], claims: 0 },
      modeFiles: {
        pattern: /^clusters\/dev\/gpu\/mig\/config\.yaml$/,
        count: 1,
      },
      overlays: true,
    },
    {
      sharing: 'dra',
      values: { name: 'batch-dra', model: 'l4', replicas: 2, vramGiB: 20 },
      // A resource claim instead of an extended resource.
      resources: { limits: [], claims: 1 },
      modeFiles: {
        pattern: /^apps\/ml\/batch-dra\/resourceclaimtemplate\.yaml$/,
        count: 1,
      },
      overlays: false,
    },
  ])(
    'gpu-workload, $sharing: completes, pushes gpu/ml-<name>, and main stays valid after the merge',
    async ({ sharing, values: overrides, resources, modeFiles, overlays }) => {
      const values = workloadValues({ sharing, ...overrides });
      const cluster = values.cluster || 'dev';
      const branch = `gpu/ml-${values.name}`;

      const result = await runTask(
        backend,
        'template:default/gpu-workload',
        gpuWorkloadValues(values),
      );
      expect(completion(result)).toEqual({ status: 'completed', log: '' });

      // Local forge: the pull request is reviewed on the app's page. This
      // catalog holds no such component, so no link leads to "Entity not found".
      expect(result.output.links).toEqual([
        {
          title: 'Pull request',
          url: `http://localhost:3000/gpu/pull-requests/ml-${values.name}`,
        },
      ]);
      expect(
        result.output.text.find(
          (t: { title: string }) => t.title === 'Not in the catalog yet',
        ).content,
      ).toContain(`component:default/${values.name} is not in the catalog`);
      expect(result.output.text[0].content).toContain(
        `ml/${values.name} on cluster ${cluster}`,
      );

      expect(await remote.refs()).toHaveProperty([`refs/heads/${branch}`]);
      const changed = await remote.changedFiles(branch);
      const requestFile = `requests/ml/${values.name}.yaml`;
      const workloadFile = `apps/ml/${values.name}/deployment.yaml`;
      expect(changed).toEqual(
        expect.arrayContaining([requestFile, workloadFile]),
      );
      expect(changed.filter(f => modeFiles.pattern.test(f))).toHaveLength(
        modeFiles.count,
      );

      const stored = yaml.parse(await remote.show(branch, requestFile));
      expect(stored.spec.owner).toBe(values.owner);
      expect(stored.spec.gpu).toMatchObject({
        sharing,
        replicas: values.replicas,
        model: values.model,
      });

      // The workload lands on the pool the branch creates, with the mode's resource.
      const deployment = yaml.parse(await remote.show(branch, workloadFile));
      const pool =
        deployment.spec.template.spec.nodeSelector['karpenter.sh/nodepool'];
      const poolFile = `clusters/${cluster}/gpu/nodepools/${pool}.yaml`;
      expect(changed).toContain(poolFile);
      const poolDocs = yaml
        .parseAllDocuments(await remote.show(branch, poolFile))
        .map(doc => doc.toJS());
      expect(poolDocs[0]).toMatchObject({
        kind: 'NodePool',
        metadata: { name: pool },
      });
      // Shared GPUs advertise more units than GPUs: NodeOverlays tell Karpenter.
      expect(poolDocs.some(doc => doc.kind === 'NodeOverlay')).toBe(overlays);
      expect(deployment.spec.replicas).toBe(values.replicas);
      const container = deployment.spec.template.spec.containers[0];
      expect({
        limits: Object.keys(container.resources.limits ?? {}),
        claims: (container.resources.claims ?? []).length,
      }).toEqual(resources);
      expect(deployment.spec.template.spec.resourceClaims ?? []).toHaveLength(
        resources.claims,
      );

      // Merging the pull request keeps main a valid GitOps tree.
      const merged = await remote.mergeIntoMain(branch);
      expect(await validateGitOpsTree(merged)).toEqual([]);
    },
  );

  it('gpu-cluster-bootstrap completes and main stays valid after the merge', async () => {
    const result = await runTask(
      backend,
      'template:default/gpu-cluster-bootstrap',
      { cluster: 'prod', operatorChartVersion: 'v26.7.0', binPacking: true },
    );
    expect(completion(result)).toEqual({ status: 'completed', log: '' });
    const branch = 'gpu/bootstrap-prod';
    expect(result.output.links[0]).toEqual({
      title: expect.any(String),
      url: `http://localhost:3000/gpu/pull-requests/bootstrap-prod`,
    });
    expect(await remote.changedFiles(branch)).toContain(
      'clusters/prod/gpu-operator/values.yaml',
    );
    const merged = await remote.mergeIntoMain(branch);
    expect(await validateGitOpsTree(merged)).toEqual([]);
  });

  it('gpu-release releases merged requests one by one; each release pull request merges into a valid main that no longer holds them', async () => {
    const requests = [
      { sharing: 'time-slicing', name: 'trial-ts', model: 't4', vramGiB: 5 },
      { sharing: 'mig', name: 'trial-mig', model: 'a100-40gb', vramGiB: 9 },
    ];
    for (const overrides of requests) {
      const created = await runTask(
        backend,
        'template:default/gpu-workload',
        gpuWorkloadValues(workloadValues(overrides)),
      );
      expect(completion(created)).toEqual({ status: 'completed', log: '' });
      await remote.mergeIntoMain(`gpu/ml-${overrides.name}`, { push: true });
    }
    for (const { name } of requests) {
      const result = await runTask(backend, 'template:default/gpu-release', {
        name,
        namespace: 'ml',
      });
      expect(completion(result)).toEqual({ status: 'completed', log: '' });
      const branch = `gpu/release-ml-${name}`;
      expect(result.output.links).toEqual([
        {
          title: 'Release pull request',
          url: `http://localhost:3000/gpu/pull-requests/release-ml-${name}`,
        },
      ]);
      expect(result.output.text[0].content).toContain(
        `## Release GPUs of \`ml/${name}\``,
      );
      expect(await remote.changedFiles(branch)).toEqual(
        expect.arrayContaining([
          `requests/ml/${name}.yaml`,
          `apps/ml/${name}/deployment.yaml`,
        ]),
      );
      const merged = await remote.mergeIntoMain(branch, { push: true });
      expect(await validateGitOpsTree(merged)).toEqual([]);
      await expect(
        remote.show('main', `requests/ml/${name}.yaml`),
      ).rejects.toThrow();
    }
    // Releasing again is a refusal in the task log, not a stack trace.
    const again = await runTask(backend, 'template:default/gpu-release', {
      name: 'trial-ts',
      namespace: 'ml',
    });
    expect(completion(again).status).toBe('failed');
    expect(completion(again).log).toContain('ml/trial-ts is not in main of');
    expect(completion(again).log).toContain(
      'it was released already (branch gpu/release-ml-trial-ts)',
    );
    expect(completion(again).log).not.toMatch(/^\s+at /m);
  });

  it.each([
    ['an uppercase name', { name: 'Bad-Name' }, 'name'],
    ['replicas 0', { name: 'zero', replicas: 0 }, 'gpu.replicas'],
  ])(
    'POST /v2/tasks with %s is refused with 400 naming the field; nothing is pushed',
    async (_case, overrides, field) => {
      const before = await remote.refs();
      const res = await request(backend.server)
        .post('/api/scaffolder/v2/tasks')
        .set('Authorization', AUTH_HEADER)
        .send({
          templateRef: 'template:default/gpu-workload',
          values: gpuWorkloadValues(workloadValues(overrides)),
        });
      expect(res.status).toBe(400);
      expect(
        res.body.errors.map((e: { path: string[] }) => e.path.join('.')),
      ).toEqual([field]);
      expect(await remote.refs()).toEqual(before);
    },
  );

  it('a task whose values the planner refuses fails naming the field; nothing is pushed', async () => {
    const before = await remote.refs();
    // Valid for the form, but a T4 has no MIG.
    const result = await runTask(
      backend,
      'template:default/gpu-workload',
      gpuWorkloadValues(
        workloadValues({ name: 'bad-mig', model: 't4', sharing: 'mig' }),
      ),
    );
    expect(result.status).toBe('failed');
    expect(result.log).toContain(
      'GPU model: t4 does not support MIG; pick a MIG-capable model (A100, A30, H100, H200, B200...) or another sharing mode (input "model", spec.gpu.model) [mig-unsupported]',
    );
    // The reason, not a stack trace.
    expect(result.log).not.toMatch(/^\s+at .+:\d+:\d+\)?$/m);
    expect(await remote.refs()).toEqual(before);
  });
});

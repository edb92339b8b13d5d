/**
 * The request form's preview is the truth: for the same request, the gpu
 * backend's `POST /api/gpu/plan` and the gpu-workload task refuse or accept
 * alike, for the same reason and with the same quota numbers. The real
 * catalog, scaffolder, GPU module and gpu backend, on the demo's `gpu.clusters`
 * and `gpu.policy` read from app-config.yaml (ml-platform may hold 8 GPUs per
 * cluster and holds 0.5 on dev; no team may use DRA; dev runs the mixed MIG
 * strategy, inference the single one).
 */
import { promises as fs } from 'node:fs';
import path from 'node:path';
import request from 'supertest';
import { parse } from 'yaml';
import type { TestBackend } from '@backstage/backend-test-utils';
import {
  GPU_WORKLOAD_DEFAULTS,
  gpuWorkloadValues,
} from '@gpu-gitops/plugin-gpu-node';
import {
  createLocalGitopsRemote,
  type LocalGitopsRemote,
} from '../__testUtils__/localGitopsRemote';
import {
  AUTH_HEADER,
  runTask,
  startRealBackend,
  waitForEntities,
} from '../__testUtils__/realBackend';

// Real catalog, scaffolder, git and index on a shared 2-core CI machine: a
// generous ceiling, not a speed goal.
jest.setTimeout(60_000);

const APP_CONFIG = path.resolve(__dirname, '../../../../app-config.yaml');

/** The form's values for a new workload of ml-platform. */
function values(gpu: Record<string, unknown>, name: string) {
  return gpuWorkloadValues({
    ...GPU_WORKLOAD_DEFAULTS,
    name,
    owner: 'group:default/ml-platform',
    image: `ghcr.io/example/${name}:1.0.0`,
    ...gpu,
  });
}

/** The GpuRequest the form's preview sends for the same values. */
function previewBody(gpu: Record<string, unknown>, name: string) {
  const { cluster: _cluster, ...spec } = {
    ...GPU_WORKLOAD_DEFAULTS,
    ...gpu,
  } as Record<string, any>;
  return {
    apiVersion: 'gpu.backstage.io/v1alpha1',
    kind: 'GpuRequest',
    metadata: { name, namespace: 'ml' },
    spec: {
      owner: 'group:default/ml-platform',
      gpu: {
        model: spec.model,
        sharing: spec.sharing,
        replicas: spec.replicas,
        vramGiB: spec.vramGiB,
        gpusPerReplica: spec.gpusPerReplica,
      },
      workload: { image: `ghcr.io/example/${name}:1.0.0` },
      capacityTypes: spec.capacityTypes,
    },
  };
}

describe('the plan preview and the task agree (demo config)', () => {
  let remote: LocalGitopsRemote;
  let backend: TestBackend;

  beforeAll(async () => {
    remote = await createLocalGitopsRemote();
    const demo = parse(await fs.readFile(APP_CONFIG, 'utf8')).gpu;
    backend = await startRealBackend(remote, {
      gpu: { clusters: demo.clusters, policy: demo.policy },
      withGpuBackend: true,
    });
    await waitForEntities(backend, ['template/default/gpu-workload'], 30_000);
    // The gpu backend's index of the repository is built at start-up.
    const deadline = Date.now() + 30_000;
    for (;;) {
      const health = await request(backend.server).get('/api/gpu/health');
      if (health.body.revision) break;
      if (Date.now() > deadline) throw new Error('the gpu index was not built');
      await new Promise(resolve => setTimeout(resolve, 200));
    }
  });
  afterAll(async () => {
    await backend?.stop();
    await remote?.cleanup();
  });

  /** POST /api/gpu/plan as the form asks it. */
  const preview = (gpu: Record<string, unknown>, name: string) =>
    request(backend.server)
      .post('/api/gpu/plan')
      .query(gpu.cluster ? { cluster: gpu.cluster as string } : {})
      .set('Authorization', AUTH_HEADER)
      .send(previewBody(gpu, name));

  it.each([
    [
      'over the team quota',
      { cluster: 'dev', model: 't4', replicas: 8, vramGiB: 8 },
      'policy-quota',
    ],
    [
      'a sharing mode the team policy forbids',
      { cluster: 'dev', model: 'l4', sharing: 'dra', replicas: 1, vramGiB: 8 },
      'policy-sharing',
    ],
    [
      'MPS where the device plugin runs the mixed MIG strategy',
      { cluster: 'dev', model: 't4', sharing: 'mps', replicas: 2, vramGiB: 4 },
      'mps-mig-strategy',
    ],
    [
      'a cluster the repository has no GPU setup for',
      { cluster: 'prod', model: 't4', replicas: 1, vramGiB: 8 },
      'cluster-not-bootstrapped',
    ],
  ])('refused alike: %s', async (_case, gpu, rule) => {
    const name = `refused-${rule}`;
    const before = await remote.refs();
    const planned = await preview(gpu, name);
    expect(planned.status).toBe(400);
    expect(planned.body.issues.map((i: { rule: string }) => i.rule)).toEqual([
      rule,
    ]);

    const task = await runTask(
      backend,
      'template:default/gpu-workload',
      values(gpu, name),
    );
    expect(task.status).toBe('failed');
    // The task names the same issue in the same words, without a stack trace.
    expect(task.log).toContain(planned.body.error.message);
    expect(task.log).toContain(`[${rule}]`);
    expect(task.log).not.toMatch(/^\s+at .+:\d+:\d+\)?$/m);
    expect(await remote.refs()).toEqual(before);
  });

  it('accepted alike, with the same quota use', async () => {
    const gpu = { cluster: 'dev', model: 't4', replicas: 7, vramGiB: 8 };
    const planned = await preview(gpu, 'within-quota');
    expect(planned.status).toBe(200);
    expect(planned.body.quota).toEqual({
      owner: 'group:default/ml-platform',
      cluster: 'dev',
      used: 0.5,
      requested: 7,
      quota: 8,
    });
    const task = await runTask(
      backend,
      'template:default/gpu-workload',
      values(gpu, 'within-quota'),
    );
    expect({
      status: task.status,
      log: task.status === 'completed' ? '' : task.log,
    }).toEqual({
      status: 'completed',
      log: '',
    });
    // The task's plan summary states the same sum against the same quota.
    expect(task.output.text[0].content).toContain(
      'GPU quota of group:default/ml-platform on dev: 7.5 of 8 physical-GPU equivalents after this request',
    );
  });

  it('MPS plans on the demo cluster whose device plugin runs the single MIG strategy', async () => {
    const gpu = {
      cluster: 'inference',
      model: 't4',
      sharing: 'mps',
      replicas: 2,
      vramGiB: 4,
    };
    const planned = await preview(gpu, 'mps-inference');
    expect(planned.status).toBe(200);
    const task = await runTask(
      backend,
      'template:default/gpu-workload',
      values(gpu, 'mps-inference'),
    );
    expect(task.status).toBe('completed');
    expect(await remote.changedFiles('gpu/ml-mps-inference')).toContainEqual(
      expect.stringMatching(/^clusters\/inference\/gpu\/device-plugin\/mps-/),
    );
  });
});

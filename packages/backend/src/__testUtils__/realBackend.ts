import path from 'node:path';
import request from 'supertest';
import {
  mockCredentials,
  mockServices,
  startTestBackend,
  type TestBackend,
} from '@backstage/backend-test-utils';
import catalogPlugin from '@backstage/plugin-catalog-backend';
import catalogModuleScaffolderEntityModel from '@backstage/plugin-catalog-backend-module-scaffolder-entity-model';
import scaffolderPlugin from '@backstage/plugin-scaffolder-backend';
import gpuBackendPlugin from '@gpu-gitops/plugin-gpu-backend';
import scaffolderModuleGpu from '@gpu-gitops/plugin-scaffolder-backend-module-gpu';
import type { LocalGitopsRemote } from './localGitopsRemote';

/** The repository's own catalog-info.yaml, which registers the two templates. */
export const ROOT_CATALOG_INFO = path.resolve(
  __dirname,
  '../../../../catalog-info.yaml',
);

/** Every request is made as a signed-in user, as the Backstage frontend does. */
export const AUTH_HEADER = mockCredentials.user.header(
  'user:default/developer',
);

/** Three clusters: dev and prod on the mixed MIG strategy (the default), inference on the single one. */
const TEST_CLUSTERS = {
  default: 'dev',
  profiles: {
    dev: { karpenterVersion: '1.14.1' },
    // Its bootstrap runs the bin-packing scheduler: the kube-scheduler of this release.
    prod: { karpenterVersion: '1.14.1', kubernetesVersion: '1.33.4' },
    // MPS is refused with the mixed MIG strategy (the default).
    inference: {
      karpenterVersion: '1.14.1',
      migStrategy: 'single',
    },
  },
};

export interface RealBackendOptions {
  /** `gpu.clusters` (default: the three test clusters) and `gpu.policy` (default: none), e.g. the demo's. */
  gpu?: { clusters?: unknown; policy?: unknown };
  /** Also run the gpu backend plugin (`/api/gpu`: the index, the form's plan preview). */
  withGpuBackend?: boolean;
}

/**
 * The backend `npm start` runs, minus guest sign-in: the REAL catalog (with
 * the Template kind), the REAL scaffolder and our GPU module (and, on
 * request, the gpu backend), on in-memory SQLite, with the catalog reading
 * the repository's root catalog-info.yaml and `gpu.gitops` pointing at a
 * local bare repository.
 */
export async function startRealBackend(
  remote: LocalGitopsRemote,
  options: RealBackendOptions = {},
): Promise<TestBackend> {
  return startTestBackend({
    features: [
      catalogPlugin,
      catalogModuleScaffolderEntityModel,
      scaffolderPlugin,
      scaffolderModuleGpu,
      ...(options.withGpuBackend ? [gpuBackendPlugin] : []),
      mockServices.rootConfig.factory({
        data: {
          app: { baseUrl: 'http://localhost:3000' },
          backend: {
            baseUrl: 'http://localhost:7007',
            database: { client: 'better-sqlite3', connection: ':memory:' },
          },
          catalog: {
            rules: [{ allow: ['Component', 'Location', 'Template'] }],
            locations: [{ type: 'file', target: ROOT_CATALOG_INFO }],
          },
          gpu: {
            gitops: {
              repoUrl: remote.bareDir,
              baseBranch: 'main',
              forge: 'local',
              cacheDir: remote.cacheDir,
            },
            clusters: options.gpu?.clusters ?? TEST_CLUSTERS,
            ...(options.gpu?.policy ? { policy: options.gpu.policy } : {}),
          },
        },
      }),
    ],
  });
}

/**
 * Polls the catalog API until every entity is served (the catalog ingests
 * config locations asynchronously: location, then its targets).
 */
export async function waitForEntities(
  backend: TestBackend,
  entityPaths: string[],
  timeoutMs: number,
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  const missing = new Set(entityPaths);
  while (missing.size) {
    for (const entityPath of [...missing]) {
      const res = await request(backend.server)
        .get(`/api/catalog/entities/by-name/${entityPath}`)
        .set('Authorization', AUTH_HEADER);
      if (res.status === 200) missing.delete(entityPath);
    }
    if (!missing.size) return;
    if (Date.now() > deadline) {
      throw new Error(
        `catalog did not ingest ${[...missing].join(', ')} within ${timeoutMs} ms`,
      );
    }
    await new Promise(resolve => setTimeout(resolve, 200));
  }
}

export interface TaskResult {
  status: string;
  /** The template's `output` (links, text). */
  output: any;
  /** Every log line of the task, in order. */
  log: string;
}

/** Starts a task with POST /v2/tasks and polls GET /v2/tasks/:id until it ends. */
export async function runTask(
  backend: TestBackend,
  templateRef: string,
  values: Record<string, unknown>,
  timeoutMs = 30_000,
): Promise<TaskResult> {
  const created = await request(backend.server)
    .post('/api/scaffolder/v2/tasks')
    .set('Authorization', AUTH_HEADER)
    .send({ templateRef, values });
  if (created.status !== 201) {
    throw new Error(
      `POST /v2/tasks: ${created.status} ${JSON.stringify(created.body)}`,
    );
  }
  const id: string = created.body.id;
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const task = await request(backend.server)
      .get(`/api/scaffolder/v2/tasks/${id}`)
      .set('Authorization', AUTH_HEADER);
    if (['completed', 'failed', 'cancelled'].includes(task.body.status)) {
      const events = await request(backend.server)
        .get(`/api/scaffolder/v2/tasks/${id}/events`)
        .set('Authorization', AUTH_HEADER);
      const log = (events.body as { type: string; body: any }[])
        .filter(e => e.type === 'log')
        .map(e => e.body.message as string)
        .join('\n');
      const completion = (events.body as { type: string; body: any }[]).find(
        e => e.type === 'completion',
      );
      return { status: task.body.status, output: completion?.body.output, log };
    }
    if (Date.now() > deadline) {
      throw new Error(
        `task ${id} still ${task.body.status} after ${timeoutMs} ms`,
      );
    }
    await new Promise(resolve => setTimeout(resolve, 100));
  }
}

import { promises as fs } from 'node:fs';
import path from 'node:path';
import request from 'supertest';
import { parse } from 'yaml';
import {
  mockServices,
  startTestBackend,
  type TestBackend,
} from '@backstage/backend-test-utils';
import { catalogServiceMock } from '@backstage/plugin-catalog-node/testUtils';
import scaffolderPlugin from '@backstage/plugin-scaffolder-backend';
import { scaffolderModuleGpu } from '../module';
import type { FixtureRepo } from './fixtureGitopsRepo';
import { testGpuConfig } from './testGpuConfig';

const TEMPLATES_DIR = path.resolve(__dirname, '../../templates');

/** A template file as the catalog serves it. */
export async function templateEntity(name: string) {
  const entity = parse(
    await fs.readFile(path.join(TEMPLATES_DIR, name, 'template.yaml'), 'utf8'),
  );
  entity.metadata.namespace = 'default';
  return entity;
}

/**
 * The REAL scaffolder backend plugin with our module, a catalog serving the
 * two templates, and `gpu:` config pointing at a bare GitOps repository.
 */
export async function startScaffolder(
  repo: FixtureRepo,
  gpu: Record<string, unknown> = {},
): Promise<TestBackend> {
  return startTestBackend({
    features: [
      scaffolderPlugin,
      scaffolderModuleGpu,
      catalogServiceMock.factory({
        entities: [
          await templateEntity('gpu-workload'),
          await templateEntity('gpu-cluster-bootstrap'),
          // A component of the fixture repository's existing Deployment.
          {
            apiVersion: 'backstage.io/v1alpha1',
            kind: 'Component',
            metadata: { name: 'recommender-api', namespace: 'default' },
            spec: { type: 'service', lifecycle: 'production', owner: 'ml' },
          },
        ],
      }),
      mockServices.rootConfig.factory({
        data: {
          backend: { baseUrl: 'http://localhost:7007' },
          gpu: testGpuConfig(repo, gpu),
        },
      }),
    ],
  });
}

export interface TaskEvent {
  type: string;
  body: { message: string; stepId?: string; status?: string; output?: any };
}

/** Runs a template through POST /v2/tasks and waits for the end (events long-poll). */
export async function runTask(
  backend: TestBackend,
  templateRef: string,
  values: Record<string, unknown>,
): Promise<{ status: string; events: TaskEvent[]; output?: any }> {
  const created = await request(backend.server)
    .post('/api/scaffolder/v2/tasks')
    .send({ templateRef, values });
  if (created.status !== 201) {
    throw new Error(
      `POST /v2/tasks: ${created.status} ${JSON.stringify(created.body)}`,
    );
  }
  const id = created.body.id as string;
  const events: TaskEvent[] = [];
  for (;;) {
    const after = events.length
      ? `?after=${(events[events.length - 1] as any).id}`
      : '';
    const res = await request(backend.server).get(
      `/api/scaffolder/v2/tasks/${id}/events${after}`,
    );
    events.push(...res.body);
    const completion = events.find(e => e.type === 'completion');
    if (completion) {
      const task = await request(backend.server).get(
        `/api/scaffolder/v2/tasks/${id}`,
      );
      return {
        status: task.body.status,
        events,
        output: completion.body.output,
      };
    }
  }
}

/** All log lines of a task, for asserting on what the task page shows. */
export function logText(events: TaskEvent[]): string {
  return events
    .filter(e => e.type === 'log')
    .map(e => e.body.message)
    .join('\n');
}

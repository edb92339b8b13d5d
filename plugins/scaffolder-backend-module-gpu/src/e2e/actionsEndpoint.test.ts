import request from 'supertest';
import type { TestBackend } from '@backstage/backend-test-utils';
import {
  createFixtureGitopsRepo,
  type FixtureRepo,
} from '../__testUtils__/fixtureGitopsRepo';
import { startScaffolder } from '../__testUtils__/scaffolderBackend';

// Real git and a real backend under a shared, busy CI machine: a generous ceiling, not a speed goal.
jest.setTimeout(60_000);

describe('real scaffolder backend: GET /api/scaffolder/v2/actions', () => {
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

  it('lists the GPU actions with input/output schemas and examples', async () => {
    const res = await request(backend.server).get('/api/scaffolder/v2/actions');
    expect(res.status).toBe(200);
    const byId = Object.fromEntries(
      res.body.map((a: { id: string }) => [a.id, a]),
    );
    for (const id of [
      'gpu:plan',
      'gpu:gitops:render',
      'gpu:gitops:pull-request',
      'gpu:gitops:bootstrap',
    ]) {
      const action = byId[id];
      expect(action).toBeDefined();
      expect(action.description).toEqual(expect.any(String));
      expect(action.schema.input.type).toBe('object');
      expect(action.schema.output.type).toBe('object');
      expect(action.examples.length).toBeGreaterThan(0);
      expect(action.examples[0].example).toContain(`action: ${id}`);
    }
    expect(byId['gpu:plan'].schema.input.required).toEqual(
      expect.arrayContaining(['name', 'namespace', 'owner', 'vramGiB']),
    );
    expect(
      Object.keys(byId['gpu:gitops:pull-request'].schema.output.properties),
    ).toEqual(
      expect.arrayContaining([
        'branchName',
        'pullRequestUrl',
        'changed',
        'body',
      ]),
    );
    // Built-in actions are still there next to ours.
    expect(byId['catalog:register']).toBeDefined();
  });
});

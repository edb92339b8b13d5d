import { promises as fs } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { InputError } from '@backstage/errors';
import yaml from 'yaml';
import { createMockDirectory } from '@backstage/backend-test-utils';
import { createMockActionContext } from '@backstage/plugin-scaffolder-node-test-utils';
import {
  createFixtureGitopsRepo,
  type FixtureRepo,
} from '../__testUtils__/fixtureGitopsRepo';
import { testServices } from '../__testUtils__/testServices';
import { createGpuGitopsRenderAction } from './gpuGitopsRender';
import { examples } from './gpuGitopsRender.examples';
import { outputsOf } from '../__testUtils__/actionOutputs';

// Real git and a real backend under a shared, busy CI machine: a generous ceiling, not a speed goal.
jest.setTimeout(60_000);

const input = {
  name: 'vision-api',
  namespace: 'ml',
  owner: 'group:default/ml-platform',
  model: 'a100-40gb',
  sharing: 'mig' as const,
  replicas: 3,
  vramGiB: 9,
  image: 'ghcr.io/example/vision-api:0.3.0',
};

describe('gpu:gitops:render', () => {
  const workspace = createMockDirectory();
  let repo: FixtureRepo;

  beforeAll(async () => {
    repo = await createFixtureGitopsRepo();
  });
  afterAll(async () => {
    await repo.cleanup();
  });
  beforeEach(() => workspace.clear());

  it('writes the change set under targetPath and outputs files, branch, title and body', async () => {
    const action = createGpuGitopsRenderAction(testServices(repo));
    const ctx = createMockActionContext({
      input: { ...input, targetPath: 'out' },
      workspacePath: workspace.path,
    });
    await action.handler(ctx);
    const out = outputsOf(ctx);
    expect(out.targetPath).toBe('out');
    expect(out.changed).toBe(true);
    expect(out.branchName).toBe('gpu/ml-vision-api');
    const paths = out.files.map((f: { path: string }) => f.path);
    expect(paths).toEqual(
      expect.arrayContaining([
        'clusters/dev/gpu/kustomization.yaml',
        'clusters/dev/gpu/mig/config.yaml',
        'requests/ml/vision-api.yaml',
      ]),
    );
    expect(
      paths.some((p: string) =>
        p.startsWith('clusters/dev/gpu/nodepools/gpu-a100-40gb-mig'),
      ),
    ).toBe(true);
    expect(paths.some((p: string) => p.startsWith('apps/ml/vision-api/'))).toBe(
      true,
    );
    // Full content of every file is in the workspace, existing files keep their content.
    for (const file of out.files) {
      const written = await fs.readFile(
        path.join(workspace.path, 'out', file.path),
        'utf8',
      );
      expect(written.length).toBeGreaterThan(0);
    }
    const kustomization = await fs.readFile(
      path.join(workspace.path, 'out', 'clusters/dev/gpu/kustomization.yaml'),
      'utf8',
    );
    expect(kustomization).toContain('nodepools/gpu-t4-ts4.yaml');
    expect(kustomization).toContain('# GPU capacity of the dev cluster');
    const mig = yaml.parse(
      await fs.readFile(
        path.join(workspace.path, 'out', 'clusters/dev/gpu/mig/config.yaml'),
        'utf8',
      ),
    );
    expect(Object.keys(mig['mig-configs'])).toEqual(
      expect.arrayContaining(['all-disabled']),
    );
    expect(out.title).toContain('vision-api');
    expect(out.body).toContain('a100-40gb');
    // Nothing was pushed.
    expect(Object.keys(await repo.refs())).toEqual(['refs/heads/main']);
  });

  it('refuses a targetPath outside the workspace', async () => {
    const action = createGpuGitopsRenderAction(testServices(repo));
    const ctx = createMockActionContext({
      input: { ...input, targetPath: '../escape' },
      workspacePath: workspace.path,
    });
    await expect(action.handler(ctx)).rejects.toThrow(/outside/i);
  });

  it.each([
    ['a folder linked to an outside folder', 'out/apps', true],
    ['a dangling request file', 'out/requests/ml/vision-api.yaml', false],
  ])(
    'refuses to write through %s in the workspace (InputError naming it), writes nothing there',
    async (_case, linkPath, targetExists) => {
      const outside = await fs.mkdtemp(
        path.join(os.tmpdir(), 'gpu-render-outside-'),
      );
      try {
        const link = path.join(workspace.path, ...linkPath.split('/'));
        await fs.mkdir(path.dirname(link), { recursive: true });
        await fs.symlink(
          targetExists ? outside : path.join(outside, 'target.yaml'),
          link,
        );
        const action = createGpuGitopsRenderAction(testServices(repo));
        const ctx = createMockActionContext({
          input: { ...input, targetPath: 'out' },
          workspacePath: workspace.path,
        });
        const error = await action.handler(ctx).then(
          () => new Error('accepted'),
          (e: Error) => e,
        );
        expect(error).toBeInstanceOf(InputError);
        expect(error.message).toContain(`${linkPath}: is a symbolic link`);
        expect(error.message).toContain('[symlink]');
        expect(await fs.readdir(outside)).toEqual([]);
      } finally {
        await fs.rm(outside, { recursive: true, force: true });
      }
    },
  );

  it('refuses without a GitOps repository: the change depends on what it holds', async () => {
    const action = createGpuGitopsRenderAction(testServices(undefined));
    const ctx = createMockActionContext({
      input: {
        ...input,
        sharing: 'time-slicing' as const,
        model: 't4',
        vramGiB: 3,
      },
      workspacePath: workspace.path,
    });
    await expect(action.handler(ctx)).rejects.toThrow(
      /input "repoUrl": no GitOps repository given/,
    );
    expect(await fs.readdir(workspace.path)).toEqual([]);
  });

  it('runs its example step', async () => {
    const step = yaml.parse(examples[0].example).steps[0];
    const action = createGpuGitopsRenderAction(testServices(repo));
    const ctx = createMockActionContext({
      input: step.input,
      workspacePath: workspace.path,
    });
    await action.handler(ctx);
    expect(outputsOf(ctx).branchName).toBe(
      `gpu/${step.input.namespace}-${step.input.name}`,
    );
  });
});

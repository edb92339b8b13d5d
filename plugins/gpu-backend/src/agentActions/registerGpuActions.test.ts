/**
 * The GPU actions through the REAL MCP actions backend, as an AI assistant
 * reaches them: the actions registry and actions service of backend-defaults,
 * the real scaffolder backend with the GPU module and templates, the gpu
 * backend over a real bare GitOps repository, and the MCP SDK's client.
 */
import { promises as fs } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { AddressInfo } from 'node:net';
import request from 'supertest';
import { parse } from 'yaml';
import { simpleGit } from 'simple-git';
import {
  coreServices,
  createServiceFactory,
  type BackstageCredentials,
  type PermissionsService,
} from '@backstage/backend-plugin-api';
import {
  actionsRegistryServiceFactory,
  actionsServiceFactory,
} from '@backstage/backend-defaults/alpha';
import {
  mockCredentials,
  mockServices,
  startTestBackend,
  type TestBackend,
} from '@backstage/backend-test-utils';
import { catalogServiceMock } from '@backstage/plugin-catalog-node/testUtils';
import { AuthorizeResult } from '@backstage/plugin-permission-common';
import mcpActionsPlugin from '@backstage/plugin-mcp-actions-backend';
import scaffolderPlugin from '@backstage/plugin-scaffolder-backend';
import scaffolderModuleGpu from '@gpu-gitops/plugin-scaffolder-backend-module-gpu';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import {
  createFixtureRemote,
  type FixtureRemote,
} from '../__testUtils__/fixtureRemote';
import { gpuPlugin } from '../plugin';

// Real git, kustomize builds and a scaffolder task on a shared, busy machine.
jest.setTimeout(300_000);

const TEMPLATES_DIR = path.resolve(
  __dirname,
  '../../../scaffolder-backend-module-gpu/templates',
);

/** A template file as the catalog serves it. */
async function templateEntity(name: string) {
  const entity = parse(
    await fs.readFile(path.join(TEMPLATES_DIR, name, 'template.yaml'), 'utf8'),
  );
  entity.metadata.namespace = 'default';
  return entity;
}

/** The person the permission policy refuses the GPU forms to. */
const NO_GPU_USER = 'user:default/no-gpu';

/**
 * The permission policy: everyone may do everything, but NO_GPU_USER may
 * not create scaffolder tasks (the permission every form run needs).
 */
const permissions: PermissionsService = {
  async authorize(requests, options) {
    const refused =
      (options.credentials as BackstageCredentials).principal &&
      (options.credentials.principal as { userEntityRef?: string })
        .userEntityRef === NO_GPU_USER;
    return requests.map(({ permission }) => ({
      result:
        refused && permission.name === 'scaffolder.task.create'
          ? AuthorizeResult.DENY
          : AuthorizeResult.ALLOW,
    })) as any;
  },
  async authorizeConditional(requests) {
    return requests.map(() => ({ result: AuthorizeResult.ALLOW })) as any;
  },
};

const REQUEST = {
  name: 'chat-agent',
  namespace: 'ml',
  owner: 'group:default/ml-platform',
  model: 't4',
  sharing: 'time-slicing',
  replicas: 3,
  vramGiB: 4,
  image: 'ghcr.io/acme/chat-agent:1.0.0',
} as const;

/** The same request as POST /api/gpu/plan takes it. */
const PLAN_BODY = {
  apiVersion: 'gpu.backstage.io/v1alpha1',
  kind: 'GpuRequest',
  metadata: { name: REQUEST.name, namespace: REQUEST.namespace },
  spec: {
    owner: REQUEST.owner,
    gpu: {
      model: REQUEST.model,
      sharing: REQUEST.sharing,
      replicas: REQUEST.replicas,
      vramGiB: REQUEST.vramGiB,
      gpusPerReplica: 1,
    },
    workload: { image: REQUEST.image },
    capacityTypes: ['on-demand'],
  },
};

describe('the GPU actions through the MCP actions backend', () => {
  let remote: FixtureRemote;
  let temp: string;
  let backend: TestBackend;

  /** An MCP client signed in as `user`. */
  async function mcpClient(user = 'user:default/mock'): Promise<Client> {
    const { port } = backend.server.address() as AddressInfo;
    const client = new Client({ name: 'gpu-agent-test', version: '1.0.0' });
    await client.connect(
      new StreamableHTTPClientTransport(
        new URL(`http://localhost:${port}/api/mcp-actions/v1`),
        {
          requestInit: {
            headers: { Authorization: mockCredentials.user.header(user) },
          },
        },
      ),
    );
    return client;
  }

  /** The structured output of a tool call, or its error text. */
  async function callTool(
    name: string,
    args: Record<string, unknown>,
    user?: string,
  ) {
    const client = await mcpClient(user);
    try {
      const result = await client.callTool({ name, arguments: args });
      const text = (result.content as { type: string; text: string }[])
        .map(c => c.text)
        .join('\n');
      return { isError: Boolean(result.isError), text, result };
    } finally {
      await client.close();
    }
  }

  const remoteBranches = async () =>
    (await simpleGit().raw(['ls-remote', '--heads', remote.url]))
      .split('\n')
      .filter(Boolean)
      .map(line => line.split('\trefs/heads/')[1])
      .filter(branch => branch !== 'main');

  beforeAll(async () => {
    remote = await createFixtureRemote();
    temp = await fs.mkdtemp(path.join(os.tmpdir(), 'gpu-agent-actions-'));
    backend = await startTestBackend({
      features: [
        gpuPlugin,
        scaffolderPlugin,
        scaffolderModuleGpu,
        mcpActionsPlugin,
        actionsRegistryServiceFactory,
        actionsServiceFactory,
        createServiceFactory({
          service: coreServices.permissions,
          deps: {},
          factory: () => permissions,
        }),
        catalogServiceMock.factory({
          entities: [
            await templateEntity('gpu-workload'),
            await templateEntity('gpu-release'),
          ],
        }),
        mockServices.rootConfig.factory({
          data: {
            backend: {
              baseUrl: 'http://localhost:7007',
              actions: { pluginSources: ['gpu'] },
            },
            gpu: {
              gitops: {
                repoUrl: remote.url,
                baseBranch: 'main',
                forge: 'local',
                cacheDir: path.join(temp, 'cache'),
              },
              clusters: {
                default: 'dev',
                profiles: {
                  dev: { karpenterVersion: '1.14.1' },
                  prod: { karpenterVersion: '1.14.1' },
                },
              },
              index: { refresh: '1h' },
            },
          },
        }),
      ],
    });
    // The index has read the repository once (the scheduler runs it at start).
    for (let i = 0; i < 100; i++) {
      const health = await request(backend.server).get('/api/gpu/health');
      if (health.status === 200) break;
      await new Promise(resolve => setTimeout(resolve, 200));
    }
  });

  afterAll(async () => {
    await backend?.stop();
    await remote?.cleanup();
    if (temp) await fs.rm(temp, { recursive: true, force: true });
  });

  it('lists the four GPU tools with their attributes', async () => {
    const client = await mcpClient();
    const { tools } = await client.listTools();
    await client.close();
    const gpuTools = Object.fromEntries(
      tools
        .filter(tool => tool.name.startsWith('gpu.'))
        .map(tool => [tool.name, tool]),
    );
    expect(Object.keys(gpuTools).sort()).toEqual(
      [
        'gpu.estimate-gpu-request-cost',
        'gpu.open-gpu-request-pull-request',
        'gpu.plan-gpu-request',
        'gpu.release-gpu-request',
      ].sort(),
    );
    const hints = (name: string) => ({
      readOnly: gpuTools[name].annotations?.readOnlyHint,
      destructive: gpuTools[name].annotations?.destructiveHint,
      idempotent: gpuTools[name].annotations?.idempotentHint,
    });
    expect(hints('gpu.plan-gpu-request')).toEqual({
      readOnly: true,
      destructive: false,
      idempotent: true,
    });
    expect(hints('gpu.estimate-gpu-request-cost')).toEqual({
      readOnly: true,
      destructive: false,
      idempotent: true,
    });
    expect(hints('gpu.open-gpu-request-pull-request')).toEqual({
      readOnly: false,
      destructive: false,
      idempotent: true,
    });
    expect(hints('gpu.release-gpu-request')).toEqual({
      readOnly: false,
      destructive: true,
      idempotent: true,
    });
    expect(gpuTools['gpu.plan-gpu-request'].inputSchema.required).toEqual(
      expect.arrayContaining(['name', 'namespace', 'owner', 'vramGiB']),
    );
  });

  it('plans a request with the figures of POST /plan, and refuses what the form refuses', async () => {
    const preview = await request(backend.server)
      .post('/api/gpu/plan')
      .send(PLAN_BODY);
    expect(preview.status).toBe(200);

    const planned = await callTool('gpu.plan-gpu-request', REQUEST);
    expect(planned.isError ? planned.text : '').toBe('');
    const output = planned.result.structuredContent as Record<string, any>;
    expect(output.plan).toEqual(preview.body.plan);
    expect(output.summary).toBe(preview.body.summary);
    expect(output.quota).toEqual(preview.body.quota);
    expect(output.plan.pool.gpuModel).toBe('t4');

    const estimated = await callTool('gpu.estimate-gpu-request-cost', REQUEST);
    expect(estimated.isError ? estimated.text : '').toBe('');
    const cost = estimated.result.structuredContent as Record<string, any>;
    expect(cost).toEqual(
      expect.objectContaining({
        usdPerMonth: preview.body.plan.cost.usdPerMonth,
        usdPerHour: preview.body.plan.cost.usdPerHour,
        marginalUsdPerMonth: preview.body.plan.cost.marginalUsdPerMonth,
        pool: preview.body.plan.pool.name,
        physicalGpus: preview.body.plan.physicalGpus,
      }),
    );
    expect(cost.usdPerMonth).toBeGreaterThan(0);

    // Time-slicing with 48 GiB a replica does not fit a T4: refused in the form's words.
    const refused = await callTool('gpu.plan-gpu-request', {
      ...REQUEST,
      vramGiB: 48,
    });
    const formRefusal = await request(backend.server)
      .post('/api/gpu/plan')
      .send({
        ...PLAN_BODY,
        spec: {
          ...PLAN_BODY.spec,
          gpu: { ...PLAN_BODY.spec.gpu, vramGiB: 48 },
        },
      });
    expect(formRefusal.status).toBe(400);
    expect(refused.isError).toBe(true);
    expect(refused.text).toContain(formRefusal.body.error.message);
  });

  it('opens one pull request for a request, the same one when called again', async () => {
    expect(await remoteBranches()).toEqual([]);
    const opened = await callTool('gpu.open-gpu-request-pull-request', REQUEST);
    expect(opened.isError ? opened.text : '').toBe('');
    const output = opened.result.structuredContent as Record<string, any>;
    expect(output.branch).toBe('gpu/ml-chat-agent');
    expect(output.pullRequestUrl).toContain('chat-agent');
    expect(output.summary).toContain('t4');
    expect(await remoteBranches()).toEqual(['gpu/ml-chat-agent']);
    const head = await simpleGit().raw([
      'ls-remote',
      remote.url,
      'refs/heads/gpu/ml-chat-agent',
    ]);

    const again = await callTool('gpu.open-gpu-request-pull-request', REQUEST);
    expect(again.isError ? again.text : '').toBe('');
    expect(again.result.structuredContent).toEqual(
      expect.objectContaining({
        branch: output.branch,
        pullRequestUrl: output.pullRequestUrl,
      }),
    );
    expect(await remoteBranches()).toEqual(['gpu/ml-chat-agent']);
    // Nothing new to push: the branch did not move.
    expect(
      await simpleGit().raw([
        'ls-remote',
        remote.url,
        'refs/heads/gpu/ml-chat-agent',
      ]),
    ).toBe(head);
  });

  it('refuses to open a pull request for a person the permission policy refuses the form to', async () => {
    const before = await remoteBranches();
    const refused = await callTool(
      'gpu.open-gpu-request-pull-request',
      { ...REQUEST, name: 'not-allowed' },
      NO_GPU_USER,
    );
    expect(refused.isError).toBe(true);
    expect(refused.text).toContain('may not run template:default/gpu-workload');
    expect(await remoteBranches()).toEqual(before);

    // Planning needs no more than POST /plan: a signed-in person.
    const planned = await callTool(
      'gpu.plan-gpu-request',
      { ...REQUEST, name: 'not-allowed' },
      NO_GPU_USER,
    );
    expect(planned.isError).toBe(false);
  });

  it('releases a merged request through one release pull request', async () => {
    await remote.merge('gpu/ml-chat-agent');
    const released = await callTool('gpu.release-gpu-request', {
      name: REQUEST.name,
      namespace: REQUEST.namespace,
      reason: 'the experiment is over',
    });
    expect(released.isError ? released.text : '').toBe('');
    expect(released.result.structuredContent).toEqual(
      expect.objectContaining({ branch: 'gpu/release-ml-chat-agent' }),
    );
    expect(
      (released.result.structuredContent as Record<string, string>)
        .pullRequestUrl,
    ).toContain('release-ml-chat-agent');
    expect((await remoteBranches()).sort()).toEqual([
      'gpu/ml-chat-agent',
      'gpu/release-ml-chat-agent',
    ]);
  });
});

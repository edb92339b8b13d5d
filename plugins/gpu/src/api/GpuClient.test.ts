import { ResponseError } from '@backstage/errors';
import type { GpuRequest } from '@gpu-gitops/plugin-gpu-common';
import { GpuClient } from './GpuClient';
import { GpuPlanRejectedError } from './GpuPlanRejectedError';

type Call = { url: string; init?: RequestInit };

/** A fetchApi that records calls and answers with the given responses in order. */
function fakeBackend(...responses: Response[]) {
  const calls: Call[] = [];
  const client = new GpuClient({
    discoveryApi: {
      getBaseUrl: async (pluginId: string) =>
        `http://127.0.0.1:7007/api/${pluginId}`,
    },
    fetchApi: {
      fetch: async (input: RequestInfo | URL, init?: RequestInit) => {
        calls.push({ url: String(input), init });
        const next = responses.shift();
        if (!next) throw new Error('unexpected request');
        return next;
      },
    },
  });
  return { client, calls };
}

function json(status: number, body: unknown) {
  return new Response(JSON.stringify(body), {
    status,
    headers: { 'Content-Type': 'application/json' },
  });
}

const request: GpuRequest = {
  apiVersion: 'gpu.backstage.io/v1alpha1',
  kind: 'GpuRequest',
  metadata: { name: 'chat', namespace: 'ml' },
  spec: {
    owner: 'group:default/ml',
    gpu: {
      model: 'l4',
      sharing: 'time-slicing',
      replicas: 2,
      vramGiB: 4,
      gpusPerReplica: 1,
    },
    workload: { image: 'ghcr.io/org/chat:1' },
    capacityTypes: ['on-demand'],
  },
};

describe('GpuClient', () => {
  it('asks the gpu backend for the allocation of an entity ref (encoded)', async () => {
    const body = {
      entityRef: 'component:default/chat',
      allocations: [],
      totals: { physicalGpus: 0, usdPerMonth: 0 },
    };
    const { client, calls } = fakeBackend(json(200, body));
    await expect(
      client.getAllocation('component:default/chat'),
    ).resolves.toEqual(body);
    expect(calls[0].url).toBe(
      'http://127.0.0.1:7007/api/gpu/allocation?entityRef=component%3Adefault%2Fchat',
    );
  });

  it('asks for the workloads of a name, with the namespace and kind given', async () => {
    const body = { workloads: [], kinds: ['Deployment'] };
    const { client, calls } = fakeBackend(json(200, body), json(200, body));
    await expect(
      client.getWorkloads({
        namespace: 'ml',
        name: 'recommender api',
        kind: 'Deployment',
      }),
    ).resolves.toEqual(body);
    await client.getWorkloads({ name: 'vector-db' });
    expect(calls.map(c => c.url)).toEqual([
      'http://127.0.0.1:7007/api/gpu/workloads?name=recommender+api&namespace=ml&kind=Deployment',
      'http://127.0.0.1:7007/api/gpu/workloads?name=vector-db',
    ]);
  });

  it('lists pools and reads one pool by its encoded name', async () => {
    const { client, calls } = fakeBackend(
      json(200, { pools: [] }),
      json(200, { name: 'gpu-l4 shared' }),
    );
    await expect(client.getPools()).resolves.toEqual({ pools: [] });
    await expect(client.getPool('gpu-l4 shared')).resolves.toEqual({
      name: 'gpu-l4 shared',
    });
    expect(calls.map(c => c.url)).toEqual([
      'http://127.0.0.1:7007/api/gpu/pools',
      'http://127.0.0.1:7007/api/gpu/pools/gpu-l4%20shared',
    ]);
  });

  it('posts the request as JSON for a plan preview', async () => {
    const { client, calls } = fakeBackend(
      json(200, { plan: { replicas: 2 }, summary: 'fits' }),
    );
    const preview = await client.previewPlan(request);
    expect(preview.summary).toBe('fits');
    expect(calls[0].url).toBe('http://127.0.0.1:7007/api/gpu/plan');
    expect(calls[0].init?.method).toBe('POST');
    expect(JSON.parse(String(calls[0].init?.body))).toEqual(request);
  });

  it('turns an error answer into a ResponseError whose cause is the backend error', async () => {
    const { client } = fakeBackend(
      json(400, {
        error: {
          name: 'InputError',
          message: 'spec.gpu.vramGiB: must be > 0',
        },
        request: { method: 'POST', url: '/api/gpu/plan' },
        response: { statusCode: 400 },
      }),
    );
    const error = await client.previewPlan(request).catch(e => e);
    expect(error).toBeInstanceOf(ResponseError);
    expect(error.response.status).toBe(400);
    expect(error.message).toContain('400');
    expect(error.cause.name).toBe('InputError');
    expect(error.cause.message).toBe('spec.gpu.vramGiB: must be > 0');
  });

  it('passes the cluster profile as a query parameter', async () => {
    const { client, calls } = fakeBackend(
      json(200, { pools: [] }),
      json(200, { plan: {}, summary: '' }),
    );
    await client.getPools({ cluster: 'eu west' });
    await client.previewPlan(request, { cluster: 'eu west' });
    expect(calls.map(c => c.url)).toEqual([
      'http://127.0.0.1:7007/api/gpu/pools?cluster=eu%20west',
      'http://127.0.0.1:7007/api/gpu/plan?cluster=eu%20west',
    ]);
  });

  it('turns the backend 400 with issues into a GpuPlanRejectedError that keeps them', async () => {
    const issues = [
      {
        path: 'spec.gpu.vramGiB',
        rule: 'fits-model',
        message: 'no GPU model has 200 GiB',
      },
    ];
    const { client } = fakeBackend(
      json(400, {
        error: { name: 'InputError', message: 'Invalid GPU request' },
        issues,
      }),
    );
    const error = await client.previewPlan(request).catch(e => e);
    expect(error).toBeInstanceOf(GpuPlanRejectedError);
    expect(error.message).toBe('Invalid GPU request');
    expect(error.issues).toEqual(issues);
  });

  it('keeps the quota use of a refusal over the quota', async () => {
    const quota = {
      owner: 'group:default/ml',
      cluster: 'dev',
      used: 0.5,
      requested: 8,
      quota: 8,
    };
    const { client } = fakeBackend(
      json(400, {
        error: { name: 'InputError', message: 'Replicas: GPU quota exceeded' },
        issues: [
          {
            path: 'spec.gpu.replicas',
            rule: 'policy-quota',
            field: 'Replicas',
            message: 'GPU quota exceeded',
          },
        ],
        quota,
      }),
    );
    const error = await client.previewPlan(request).catch(e => e);
    expect(error).toBeInstanceOf(GpuPlanRejectedError);
    expect(error.quota).toEqual(quota);
  });

  it('asks for the clusters (for an owner) and a team’s quota use, encoded', async () => {
    const clusters = { defaultCluster: 'dev', clusters: [] };
    const use = {
      owner: 'group:default/ml',
      cluster: 'dev',
      used: 0,
      requested: 0,
    };
    const { client, calls } = fakeBackend(
      json(200, clusters),
      json(200, clusters),
      json(200, use),
    );
    expect(await client.getClusters()).toEqual(clusters);
    await client.getClusters({ owner: 'group:default/ml' });
    expect(
      await client.getQuota({
        owner: 'group:default/ml',
        cluster: 'dev',
        namespace: 'ml',
        name: 'chat',
      }),
    ).toEqual(use);
    expect(calls.map(c => c.url)).toEqual([
      'http://127.0.0.1:7007/api/gpu/clusters',
      'http://127.0.0.1:7007/api/gpu/clusters?owner=group%3Adefault%2Fml',
      'http://127.0.0.1:7007/api/gpu/quota?owner=group%3Adefault%2Fml&cluster=dev&namespace=ml&name=chat',
    ]);
  });
});

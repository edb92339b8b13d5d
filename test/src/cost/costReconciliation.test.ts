import {
  formatGiB,
  formatUsd,
  parseGpuRequest,
  type AllocationResponse,
  type GpuRequest,
  type PlanPreviewResponse,
  type PoolsResponse,
  type PoolSummary,
} from '@gpu-gitops/plugin-gpu-common';
import { removeTempDirs } from '../gitopsFixtures';
import {
  mergeRequestsOnFixture,
  startGpuBackend,
  type Published,
} from './mergedRequests';

/**
 * Issue 11, "every number adds up": requests sharing pools are published and
 * merged on a real GitOps repository (the project fixture: a T4 pool with 4
 * time slices per GPU, holding ml/chat-assistant's 2), then read the way
 * every page reads them: the card and the tab (the real gpu backend's
 * /allocation and /pools), the pull-request body, and POST /plan. Each
 * request's attributed cost is the same number in all of them, and per pool
 * the requests' shares plus the idle cost are the nodes' price, to the cent.
 */
jest.setTimeout(180_000);

const cents = (usd: number) => Math.round(usd * 100);

function gpuRequest(
  namespace: string,
  name: string,
  gpu: Partial<GpuRequest['spec']['gpu']>,
): GpuRequest {
  return parseGpuRequest({
    kind: 'GpuRequest',
    metadata: { name, namespace },
    spec: {
      owner: 'group:default/ml-platform',
      cluster: 'dev',
      gpu: { model: 't4', sharing: 'time-slicing', replicas: 1, ...gpu },
      workload: { image: `ghcr.io/acme/${name}:1.0.0` },
    },
  });
}

const requests = [
  // Fits the free slots of chat-assistant's node: $0 added.
  gpuRequest('ml', 'search', { vramGiB: 3.5 }),
  // 3 GiB would get 5 slices in a new pool; the 3.7 GiB slices cover it.
  gpuRequest('ml', 'summarizer', { vramGiB: 3, replicas: 2 }),
  // 4 x 3g.20gb of an 8-GPU p4d.24xlarge (16 instances).
  gpuRequest('research', 'bert', {
    model: 'a100-40gb',
    sharing: 'mig',
    vramGiB: 10,
    replicas: 4,
  }),
  // 8 GiB fits the free 3g.20gb instances: no second $16k node.
  gpuRequest('research', 'tagger', {
    model: 'a100-40gb',
    sharing: 'mig',
    vramGiB: 8,
    replicas: 2,
  }),
];

const names = ['chat-assistant', ...requests.map(r => r.metadata.name)];

/** The cost rows of a PR body: request -> monthly amount, idle and the pool's total. */
function costTable(body: string) {
  const rows = new Map<string, number>();
  let idle = NaN;
  let total = NaN;
  const money = (text: string) => Number(text.replace(/[$,*]/g, ''));
  for (const line of body.split('\n')) {
    const request =
      /^\| `([^`]+)`(?: \(this request\))? \| \d+ \| (\$[\d,.]+) \|$/.exec(
        line,
      );
    if (request) rows.set(request[1], money(request[2]));
    const idleRow = /^\| unallocated \| \d+ \| (\$[\d,.]+) \|$/.exec(line);
    if (idleRow) idle = money(idleRow[1]);
    const totalRow =
      /^\| \*\*the pool's nodes\*\* \| \d+ \| (\*\*\$[\d,.]+\*\*) \|$/.exec(
        line,
      );
    if (totalRow) total = money(totalRow[1]);
  }
  return { rows, idle, total };
}

describe('one cost model: card, tab, pull request and POST /plan agree', () => {
  const bodies = new Map<string, string>();
  const published = new Map<string, Published>();
  let baseUrl: string;
  let stop: () => Promise<void>;

  beforeAll(async () => {
    const merged = await mergeRequestsOnFixture(requests);
    for (const [name, result] of merged.published) {
      published.set(name, result);
      bodies.set(name, result.body);
    }
    ({ baseUrl, stop } = await startGpuBackend({
      remote: merged.remote,
      components: names,
    }));
  });

  afterAll(async () => {
    await stop?.();
    removeTempDirs();
  });

  async function get<T>(route: string): Promise<T> {
    const res = await fetch(`${baseUrl}${route}`);
    expect(res.status).toBe(200);
    return (await res.json()) as T;
  }

  async function preview(request: GpuRequest): Promise<PlanPreviewResponse> {
    const res = await fetch(`${baseUrl}/plan?cluster=dev`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify(request),
    });
    expect(res.status).toBe(200);
    return (await res.json()) as PlanPreviewResponse;
  }

  it('planned the pools a platform engineer would: reuse with free slots, $0 added', () => {
    const search = published.get('search')!.plan;
    expect(search.pool).toMatchObject({ name: 'gpu-t4-ts4', reused: true });
    expect(search.cost.marginalUsdPerMonth).toBe(0);
    const summarizer = published.get('summarizer')!.plan;
    expect(summarizer.pool.name).toBe('gpu-t4-ts4');
    expect(summarizer.sharing.slicesPerGpu).toBe(4);
    // 2 + 1 + 2 slices at 4 per node: a second g4dn.xlarge.
    expect(summarizer.cost.marginalUsdPerMonth).toBe(383.98);
    const tagger = published.get('tagger')!.plan;
    expect(tagger.pool.name).toBe(published.get('bert')!.plan.pool.name);
    expect(tagger.cost.marginalUsdPerMonth).toBe(0);
  });

  it('per pool, the requests plus the idle cost are the nodes’ price, to the cent, in the tab, the PR and /plan', async () => {
    const { pools } = await get<PoolsResponse>('/pools');
    const byName = new Map<string, PoolSummary>(pools.map(p => [p.name, p]));
    // The last request filed on each pool lists every request on it.
    const lastOnPool = new Map<string, string>();
    for (const request of requests) {
      lastOnPool.set(
        published.get(request.metadata.name)!.plan.pool.name,
        request.metadata.name,
      );
    }
    expect([...lastOnPool.keys()].sort()).toEqual(
      ['gpu-a100-40gb-mig-3g.20gb', 'gpu-t4-ts4'].sort(),
    );
    for (const [poolName, last] of lastOnPool) {
      const pool = byName.get(poolName)!;
      expect(pool.otherConsumers).toBeUndefined();
      const shares = pool.consumers.reduce(
        (s, c) => s + cents(c.usdPerMonth),
        0,
      );
      expect(shares + cents(pool.cost.idleUsdPerMonth)).toBe(
        cents(pool.cost.usdPerMonth),
      );
      expect(pool.cost.usdPerMonth).toBe(
        (cents(pool.cost.nodeUsdPerMonth) * pool.cost.nodes) / 100,
      );

      // The PR body of the last request on the pool: the same rows.
      const table = costTable(bodies.get(last)!);
      expect(table.total).toBe(pool.cost.usdPerMonth);
      expect(table.idle).toBe(pool.cost.idleUsdPerMonth);
      expect(Object.fromEntries(table.rows)).toEqual(
        Object.fromEntries(pool.consumers.map(c => [c.id, c.usdPerMonth])),
      );
      const rowCents = [...table.rows.values()].reduce(
        (s, v) => s + cents(v),
        0,
      );
      expect(rowCents + cents(table.idle)).toBe(cents(table.total));

      // /plan of the same request now: it stays, adds nothing, same pool figures.
      const again = await preview(published.get(last)!.plan.request);
      expect(again.plan.pool.name).toBe(poolName);
      expect(again.plan.cost.marginalUsdPerMonth).toBe(0);
      expect(again.plan.cost.pool).toMatchObject({
        nodes: pool.cost.nodes,
        usdPerMonth: pool.cost.usdPerMonth,
        idleUsdPerMonth: pool.cost.idleUsdPerMonth,
        capacityUnits: pool.cost.capacityUnits,
        idleUnits: pool.cost.idleUnits,
      });
      expect(
        Object.fromEntries(
          again.plan.cost.pool.shares.map(s => [s.request, s.usdPerMonth]),
        ),
      ).toEqual(Object.fromEntries(table.rows));
    }
    // The T4 pool: two g4dn.xlarge, 5 of 8 slices held; the A100 node: 6 of 16.
    expect(byName.get('gpu-t4-ts4')!.cost).toMatchObject({
      nodes: 2,
      usdPerMonth: 767.96,
      idleUnits: 3,
    });
    expect(byName.get('gpu-a100-40gb-mig-3g.20gb')!.cost).toMatchObject({
      nodes: 1,
      instanceType: 'p4d.24xlarge',
      usdPerMonth: 16029.08,
      capacityUnits: 16,
      idleUnits: 10,
    });
  });

  it('each card shows the attributed cost, memory and share the PR body and /plan show', async () => {
    const { pools } = await get<PoolsResponse>('/pools');
    const consumers = new Map(
      pools.flatMap(p => p.consumers.map(c => [c.id, c] as const)),
    );
    for (const name of requests.map(r => r.metadata.name)) {
      const request = published.get(name)!.plan.request;
      const id = `${request.metadata.namespace}/${name}`;
      const card = await get<AllocationResponse>(
        `/allocation?entityRef=component:default/${name}`,
      );
      expect(card.allocations).toHaveLength(1);
      const [allocation] = card.allocations;
      const { plan } = await preview(request);
      // Attributed cost: card = tab = /plan.
      expect(allocation.usdPerMonth).toBe(plan.cost.usdPerMonth);
      expect(consumers.get(id)!.usdPerMonth).toBe(plan.cost.usdPerMonth);
      expect(card.totals.usdPerMonth).toBe(plan.cost.usdPerMonth);
      expect(allocation.poolCost).toMatchObject({
        usdPerMonth: plan.cost.pool.usdPerMonth,
        idleUsdPerMonth: plan.cost.pool.idleUsdPerMonth,
      });
      // What a replica gets, in the same unit everywhere.
      expect(allocation.vramMiBPerReplica).toBe(plan.perReplica.memoryMiB);
      expect(allocation.gpuSharePerReplica).toBe(plan.perReplica.gpuShare);
      expect(allocation.physicalGpus).toBe(plan.physicalGpus);
      // The final PR body of its pool states its row with the same amount.
      const lastBody = [...bodies.values()]
        .reverse()
        .find(b => b.includes(`| \`${id}\``))!;
      expect(costTable(lastBody).rows.get(id)).toBe(plan.cost.usdPerMonth);
      // Its own PR body: the memory as the card shows it, one decimal.
      expect(bodies.get(name)).toContain(formatGiB(plan.perReplica.memoryMiB));
      expect(bodies.get(name)).not.toMatch(/\d MiB/);
    }
  });

  it('the pages of components sharing one node add up to that node, not a node each', async () => {
    const t4Cards = await Promise.all(
      ['chat-assistant', 'search', 'summarizer'].map(name =>
        get<AllocationResponse>(
          `/allocation?entityRef=component:default/${name}`,
        ),
      ),
    );
    const pages = t4Cards.reduce((s, c) => s + cents(c.totals.usdPerMonth), 0);
    const pool = t4Cards[0].allocations[0].poolCost!;
    expect(pages + cents(pool.idleUsdPerMonth)).toBe(cents(pool.usdPerMonth));
    expect(formatUsd(pool.usdPerMonth)).toBe('$767.96');
  });
});

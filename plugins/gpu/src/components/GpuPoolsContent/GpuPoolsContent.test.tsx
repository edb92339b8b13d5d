import type { Entity } from '@backstage/catalog-model';
import { EntityProvider } from '@backstage/plugin-catalog-react';
import { renderInTestApp, TestApiProvider } from '@backstage/test-utils';
import { screen, within } from '@testing-library/react';
import type { GpuApi } from '../../api/GpuApi';
import { gpuApiRef } from '../../api/GpuApi';
import { fakeGpuApi } from '../../__testUtils__/fakeGpuApi';
import {
  chatAllocation,
  chatEntity,
  livePools,
  pools,
  timeSliced,
} from '../../__testUtils__/fixtures';
import { GpuPoolsContent } from './GpuPoolsContent';

async function renderTab(api: GpuApi, entity: Entity = chatEntity) {
  await renderInTestApp(
    <TestApiProvider apis={[[gpuApiRef, api]]}>
      <EntityProvider entity={entity}>
        <GpuPoolsContent />
      </EntityProvider>
    </TestApiProvider>,
  );
}

describe('GpuPoolsContent', () => {
  it("shows only the pools the component's requests hold, each with its nodes' figures", async () => {
    await renderTab(
      fakeGpuApi({
        getAllocation: async () => chatAllocation,
        getPools: async () => pools,
      }),
    );

    // The H100 pool holds nothing of chat's: not on its tab.
    const cards = await screen.findAllByTestId(/^gpu-pool-/);
    expect(cards.map(c => c.getAttribute('data-testid'))).toEqual([
      'gpu-pool-gpu-l4-ts4',
      'gpu-pool-gpu-a100-mig',
    ]);

    // One figure per unit: its one node's 4 slices are all held, so the
    // bar is full and says so, and nothing is free; the limit of 16 is how
    // far the pool may grow, named as such.
    const l4 = within(cards[0]);
    const l4Bar = l4.getByLabelText(
      'Pool usage: 4 of 4 nvidia.com/gpu.shared held on 1 node, 0 free; the limit allows 16',
    );
    expect((l4Bar.firstChild as HTMLElement).style.width).toBe('100%');
    expect(l4.getByTestId('pool-usage')).toHaveTextContent(
      '4 of 4 nvidia.com/gpu.shared held on 1 node, 0 free; the limit allows 16',
    );
    expect(
      l4.getByText(
        'This component: 4 nvidia.com/gpu.shared, $587.50 per month',
      ),
    ).toBeVisible();
    expect(l4.getByTestId('pool-nodes-cost')).toHaveTextContent(
      '1 × g6.xlarge = $587.50 per month, of which $0.00 unallocated (0 of 4 nvidia.com/gpu.shared free)',
    );
    // No live data configured: no table of dashes beside the bar.
    expect(l4.queryByTestId('pool-figures')).toBeNull();

    const a100 = within(cards[1]);
    expect(
      (
        a100.getByLabelText(
          'Pool usage: 5 of 16 nvidia.com/mig-3g.20gb held on 1 node, 11 free; the limit allows 4 — over it: the excess pods stay pending',
        ).firstChild as HTMLElement
      ).style.width,
    ).toBe(`${(5 / 16) * 100}%`);
    expect(a100.getByTestId('pool-usage')).toHaveTextContent(
      '5 of 16 nvidia.com/mig-3g.20gb held on 1 node, 11 free; the limit allows 4 — over it: the excess pods stay pending',
    );
    // Who pays for the node: the requests' shares and the idle rest add up.
    expect(a100.getByText('research/bert: 2 · $2,003.64')).toBeVisible();
    expect(a100.getByText('ml/trainer: 3 · $3,005.45')).toBeVisible();
    expect(a100.getByText('unallocated: 11 · $11,019.99')).toBeVisible();
    expect(a100.getByTestId('pool-nodes-cost')).toHaveTextContent(
      '1 × p4d.24xlarge = $16,029.08 per month, of which $11,019.99 unallocated',
    );

    // The allocation card sits above the pools on the tab.
    expect(
      await screen.findByTestId('gpu-allocation-ml/trainer'),
    ).toBeVisible();
    // Each pool's "This component" is the card's cost of its rows there.
    const cardCost = (id: string) =>
      within(screen.getByTestId(`gpu-allocation-${id}`))
        .getByTestId('gpu-allocation-cost')
        .querySelector('p')?.textContent;
    expect(cardCost('ml/chat')).toBe('$587.50');
    expect(cardCost('ml/trainer')).toBe('$3,005.45');
    expect(
      a100.getByText(
        'This component: 3 nvidia.com/mig-3g.20gb, $3,005.45 per month',
      ),
    ).toBeVisible();
    // A pool the pools' answer does not list is said so, not dropped.
    expect(screen.getByTestId('unlisted-pool-gpu-a10g-mps')).toHaveTextContent(
      'ml/embedder runs on pool gpu-a10g-mps of prod, which the GPU pools',
    );
  });

  describe('pools the component’s workloads use that no request of it holds', () => {
    /** The lab component: one workload on the team's own NodePool, one on a product pool its ledger does not list. */
    const lab: Entity = {
      ...chatEntity,
      metadata: { name: 'lab', namespace: 'default' },
    };
    const onTeamNodes = {
      ...timeSliced,
      id: 'ml/lab-notebook',
      name: 'lab-notebook',
      entityRef: 'component:default/lab',
      pool: 'team-g5',
      teamNodes: ['team-g5'],
      gpuModel: 'unknown',
      sharingMode: 'exclusive' as const,
      resourceName: 'nvidia.com/gpu',
      replicas: 2,
      perReplica: 1,
      gpuSharePerReplica: 0,
      physicalGpus: 0,
      usdPerMonth: 0,
      unitsHeld: 0,
      poolCost: undefined,
      sources: ['apps/ml/lab-notebook/deployment.yaml'],
    };
    /** Placed on gpu-h100 by its selector, never requested: its ledger lists nothing of it. */
    const unledgered = {
      ...onTeamNodes,
      id: 'ml/lab-trainer',
      name: 'lab-trainer',
      pool: 'gpu-h100',
      teamNodes: undefined,
      gpuModel: 'h100-80gb',
      replicas: 1,
      perReplica: 8,
      gpuSharePerReplica: 1,
      physicalGpus: 8,
      poolCost: pools.pools[2].cost,
      sources: ['apps/ml/lab-trainer/job.yaml'],
    };

    async function renderLab() {
      await renderTab(
        fakeGpuApi({
          getAllocation: async () => ({
            entityRef: 'component:default/lab',
            allocations: [onTeamNodes, unledgered],
            totals: { physicalGpus: 8, usdPerMonth: 0 },
          }),
          getPools: async () => pools,
        }),
        lab,
      );
    }

    it('shows the team’s own GPU nodes its workload lands on, marked as not the product’s and priced as the card prices them', async () => {
      await renderLab();
      const nodes = within(
        await screen.findByTestId('gpu-team-nodes-prod-team-g5'),
      );
      expect(
        nodes.getByText(
          "team-g5 (the team's own GPU nodes, not a pool of the product's)",
        ),
      ).toBeVisible();
      expect(
        nodes.getByText(
          'ml/lab-notebook: 2 × 1 nvidia.com/gpu, $0.00 per month',
        ),
      ).toBeVisible();
      expect(nodes.getByTestId('team-nodes-note')).toHaveTextContent(
        'Nothing is counted or priced on these nodes: no pool of the product’s sizes them',
      );
      expect(
        screen.queryByText('No GPU pool serves this component'),
      ).toBeNull();
      // The card's row says the same place and the same cost.
      const row = within(
        await screen.findByTestId('gpu-allocation-ml/lab-notebook'),
      );
      expect(row.getByTestId('gpu-allocation-pool')).toHaveTextContent(
        "team-g5 (the team's own GPU nodes, not a pool of the product's)",
      );
      expect(row.getByTestId('gpu-allocation-cost')).toHaveTextContent('$0.00');
    });

    it('shows the product’s pool its workload runs on though the pool’s ledger holds nothing of it, with the card’s figures', async () => {
      await renderLab();
      const cards = await screen.findAllByTestId(/^gpu-pool-/);
      expect(cards.map(c => c.getAttribute('data-testid'))).toEqual([
        'gpu-pool-gpu-h100',
      ]);
      expect(
        within(cards[0]).getByText(
          'This component: 8 nvidia.com/gpu in use, none held in the pool’s ledger: $0.00 per month',
        ),
      ).toBeVisible();
    });
  });

  it('says a component’s GPU workloads land nowhere rather than that it holds no GPUs', async () => {
    await renderTab(
      fakeGpuApi({
        getAllocation: async () => ({
          entityRef: 'component:default/chat',
          allocations: [{ ...timeSliced, pool: '', poolCost: undefined }],
          totals: { physicalGpus: 0, usdPerMonth: 0 },
        }),
        getPools: async () => pools,
      }),
    );
    expect(
      await screen.findByText('No GPU pool serves this component'),
    ).toBeVisible();
    expect(
      screen.getByText(
        "chat's GPU workloads (ml/chat) land on none of the GitOps repository's 3 GPU pools nor on GPU nodes of the team's: their pods would stay pending.",
      ),
    ).toBeVisible();
  });

  it('says that no pool serves a component without GPUs, and where every pool is', async () => {
    const web: Entity = {
      ...chatEntity,
      metadata: { name: 'web', namespace: 'default' },
    };
    await renderTab(
      fakeGpuApi({
        getAllocation: async () => ({
          entityRef: 'component:default/web',
          allocations: [],
          totals: { physicalGpus: 0, usdPerMonth: 0 },
        }),
        getPools: async () => pools,
      }),
      web,
    );
    expect(
      await screen.findByText('No GPU pool serves this component'),
    ).toBeVisible();
    expect(
      screen.getByText(
        "web holds no GPUs: none of the GitOps repository's 3 GPU pools has a request of it.",
      ),
    ).toBeVisible();
    expect(
      screen.getByRole('link', { name: 'Every pool of every cluster' }),
    ).toHaveAttribute('href', '/gpu');
    expect(screen.queryAllByTestId(/^gpu-pool-/)).toEqual([]);
  });

  it('shows per pool capacity, allocated, used, idle GPUs and idle cost, or why there is no live data', async () => {
    await renderTab(
      fakeGpuApi({
        getAllocation: async () => chatAllocation,
        getPools: async () => livePools,
      }),
    );
    const figures = (pool: string) =>
      within(within(screen.getByTestId(pool)).getByTestId('pool-figures'))
        .getAllByRole('row')
        .map(row =>
          Array.from(row.querySelectorAll('th, td')).map(c => c.textContent),
        );
    const a100 = within(await screen.findByTestId('gpu-pool-gpu-a100-mig'));
    expect(figures('gpu-pool-gpu-a100-mig')).toEqual([
      ['NodePool limit', '4'],
      ['Allocated', '5'],
      ['Used', '1 of 3 GPUs busy'],
      ['Idle GPUs', '2'],
      ['Idle cost', '$4,007.27 per month'],
    ]);
    expect(a100.getByTestId('pool-live-note')).toHaveTextContent(
      'VRAM peak 60.0 GiB of 120.0 GiB',
    );
    expect(a100.getByTestId('pool-live-note')).toHaveTextContent(
      'GPUs nobody ran on are not counted',
    );
    expect(a100.queryByTestId('pool-no-live-data')).toBeNull();
    // Its cluster's Kubernetes API says its MIG manager failed on a node.
    expect(a100.getByTestId('gpu-drift')).toHaveTextContent(
      'drift node ip-10-0-3-4: the MIG manager reports nvidia.com/mig.config.state=failed',
    );
    expect(
      within(screen.getByTestId('gpu-pool-gpu-l4-ts4')).queryByTestId(
        'gpu-drift',
      ),
    ).toBeNull();
  });

  it("shows why a pool has no live figures on its component's tab", async () => {
    // notebook's one request, on dev's time-sliced T4 pool.
    const notebook = {
      ...timeSliced,
      id: 'research/notebook',
      namespace: 'research',
      name: 'notebook',
      entityRef: 'component:default/notebook',
      cluster: 'dev',
      pool: 'gpu-t4-ts4',
      gpuModel: 't4',
      replicas: 1,
      usdPerMonth: 96,
      unitsHeld: 1,
      poolCost: livePools.pools[3].cost,
    };
    await renderTab(
      fakeGpuApi({
        getAllocation: async () => ({
          entityRef: 'component:default/notebook',
          allocations: [notebook],
          totals: { physicalGpus: 0.25, usdPerMonth: 96 },
        }),
        getPools: async () => livePools,
      }),
      { ...chatEntity, metadata: { name: 'notebook', namespace: 'default' } },
    );
    const figures = (pool: string) =>
      within(within(screen.getByTestId(pool)).getByTestId('pool-figures'))
        .getAllByRole('row')
        .map(row =>
          Array.from(row.querySelectorAll('th, td')).map(c => c.textContent),
        );
    // The dev pool: intent only, and why.
    const t4 = within(await screen.findByTestId('gpu-pool-gpu-t4-ts4'));
    expect(figures('gpu-pool-gpu-t4-ts4')).toEqual([
      ['NodePool limit', '8'],
      ['Allocated', '2'],
      ['Used', '—'],
      ['Idle GPUs', '—'],
      ['Idle cost', '—'],
    ]);
    expect(t4.getByTestId('pool-no-live-data')).toHaveTextContent(
      'no live data from dev: Prometheus at prometheus.dev:9090 cannot be reached',
    );
  });

  it('counts the consumers the viewer may not see, so the pool still adds up', async () => {
    const [, a100] = pools.pools;
    await renderTab(
      fakeGpuApi({
        getAllocation: async () => chatAllocation,
        getPools: async () => ({
          pools: [
            {
              ...a100,
              consumers: a100.consumers.slice(0, 1),
              otherConsumers: { count: 1, units: 2, usdPerMonth: 2003.64 },
            },
          ],
        }),
      }),
    );
    const card = within(await screen.findByTestId('gpu-pool-gpu-a100-mig'));
    expect(card.getByText('1 other request(s): 2 · $2,003.64')).toBeVisible();
    expect(card.queryByText(/research\/bert/)).toBeNull();
  });

  it('draws which MIG profile sits on which memory slices', async () => {
    const layout = {
      memorySlices: 8,
      instances: [
        { profile: '3g.20gb', start: 4, memorySlices: 4 },
        { profile: '1g.5gb', start: 0, memorySlices: 1 },
        { profile: '2g.10gb', start: 2, memorySlices: 2 },
      ],
    };
    await renderTab(
      fakeGpuApi({
        getAllocation: async () => chatAllocation,
        getPools: async () => ({
          pools: [{ ...pools.pools[1], migLayout: layout }],
        }),
      }),
    );
    const picture = await screen.findByRole('list', { name: 'MIG layout' });
    const items = within(picture)
      .getAllByRole('listitem')
      .map(i => [i.getAttribute('aria-label'), i.style.gridColumn]);
    expect(items).toEqual([
      ['free slice 1', '2 / span 1'],
      ['3g.20gb on slices 4-7', '5 / span 4'],
      ['1g.5gb on slices 0-0', '1 / span 1'],
      ['2g.10gb on slices 2-3', '3 / span 2'],
    ]);
    expect(screen.getByText(/8 memory slices, 1 free/)).toBeVisible();
  });

  it('shows a pools error and still shows the allocation card', async () => {
    await renderTab(
      fakeGpuApi({
        getAllocation: async () => chatAllocation,
        getPools: () => Promise.reject(new Error('index not built yet')),
      }),
    );
    expect(
      await screen.findByText(/Could not load GPU pools/),
    ).toBeInTheDocument();
    expect(screen.getAllByText(/index not built yet/).length).toBeGreaterThan(
      0,
    );
    expect(await screen.findByTestId('gpu-allocation-ml/chat')).toBeVisible();
  });
});

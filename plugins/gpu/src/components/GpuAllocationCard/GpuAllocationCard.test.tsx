import { EntityProvider } from '@backstage/plugin-catalog-react';
import { ResponseError } from '@backstage/errors';
import { renderInTestApp, TestApiProvider } from '@backstage/test-utils';
import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { GpuApi } from '../../api/GpuApi';
import { gpuApiRef } from '../../api/GpuApi';
import { fakeGpuApi } from '../../__testUtils__/fakeGpuApi';
import { chatAllocation, chatEntity } from '../../__testUtils__/fixtures';
import { GpuAllocationCard } from './GpuAllocationCard';

async function renderCard(api: GpuApi) {
  await renderInTestApp(
    <TestApiProvider apis={[[gpuApiRef, api]]}>
      <EntityProvider entity={chatEntity}>
        <GpuAllocationCard />
      </EntityProvider>
    </TestApiProvider>,
  );
}

describe('GpuAllocationCard', () => {
  it('shows one row per GPU request with share, VRAM, replicas, pool and its share of the pool cost', async () => {
    const getAllocation = jest.fn(async () => chatAllocation);
    await renderCard(fakeGpuApi({ getAllocation }));

    expect(getAllocation).toHaveBeenCalledWith('component:default/chat');

    const ts = within(await screen.findByTestId('gpu-allocation-ml/chat'));
    expect(ts.getByLabelText('GPU per replica: 25% of a GPU')).toBeVisible();
    expect(
      ts.getByLabelText('VRAM per replica: 5.5 GiB not guaranteed of 22.3 GiB'),
    ).toBeVisible();
    expect(ts.getByText('4')).toBeVisible();
    expect(ts.getByTestId('gpu-allocation-pool')).toHaveTextContent(
      'gpu-l4-ts4',
    );
    expect(ts.getByTestId('gpu-allocation-cost')).toHaveTextContent(
      '$587.504/4 of $587.50',
    );

    const mps = within(screen.getByTestId('gpu-allocation-ml/embedder'));
    expect(mps.getByLabelText('GPU per replica: 50% of a GPU')).toBeVisible();
    expect(
      mps.getByLabelText('VRAM per replica: 11.1 GiB guaranteed of 22.3 GiB'),
    ).toBeVisible();
    expect(mps.getByTestId('gpu-allocation-pool')).toHaveTextContent(
      'gpu-a10g-mps',
    );

    const mig = within(screen.getByTestId('gpu-allocation-ml/trainer'));
    // What it holds (one of its GPU's two 3g.20gb instances), beside the
    // compute its instance runs on: two figures, each named.
    expect(
      mig.getByLabelText('GPU per replica: 50% of a GPU · 3/7 of its compute'),
    ).toBeVisible();
    expect(
      mig.getByLabelText('VRAM per replica: 18.0 GiB guaranteed of 40.0 GiB'),
    ).toBeVisible();
    expect(mig.getByText(/mig 3g\.20gb/)).toBeVisible();
    expect(mig.getByText('3')).toBeVisible();
    // 3 of the 8-GPU node's 16 instances: its share, not the node's price.
    expect(mig.getByTestId('gpu-allocation-cost')).toHaveTextContent(
      '$3,005.453/16 of $16,029.08',
    );

    // Each row's replicas × share held adds up to the subheader's total.
    const held = chatAllocation.allocations.map(
      a => a.replicas * a.gpuSharePerReplica,
    );
    expect(held).toEqual(chatAllocation.allocations.map(a => a.physicalGpus));
    expect(held.reduce((x, y) => x + y)).toBe(3.5);
    expect(
      screen.getByText(
        '3.5 GPU equivalents, $4,327.33 per month (GitOps 0123456)',
      ),
    ).toBeVisible();
    // The idle capacity is named, pool by pool.
    expect(screen.getByTestId('gpu-allocation-cost-note')).toHaveTextContent(
      'gpu-a100-mig 1 × p4d.24xlarge = $16,029.08, $11,019.99 unallocated (11 of 16 free)',
    );
  });

  it('names the team’s own GPU nodes a workload lands on, marked as not a pool of the product’s', async () => {
    const { poolCost: _unpriced, ...onTeamNodes } = chatAllocation.allocations[0];
    await renderCard(
      fakeGpuApi({
        getAllocation: async () => ({
          ...chatAllocation,
          allocations: [
            {
              ...onTeamNodes,
              pool: 'team-g5',
              teamNodes: ['team-g5'],
              usdPerMonth: 0,
              unitsHeld: 0,
            },
          ],
        }),
      }),
    );
    const row = within(await screen.findByTestId('gpu-allocation-ml/chat'));
    expect(row.getByTestId('gpu-allocation-pool')).toHaveTextContent(
      "team-g5 (the team's own GPU nodes, not a pool of the product's)",
    );
  });

  it('links each stored request to the form it was sent with, and a workload without one to nothing', async () => {
    const [stored, found] = chatAllocation.allocations;
    const requestSpec = {
      owner: 'group:default/ml-platform',
      cluster: 'dev',
      gpu: {
        model: 't4',
        sharing: 'time-slicing' as const,
        replicas: 2,
        vramGiB: 3,
        gpusPerReplica: 1,
      },
      workload: { image: 'ghcr.io/acme/chat:1.4.0' },
      capacityTypes: ['on-demand' as const],
    };
    await renderCard(
      fakeGpuApi({
        getAllocation: async () => ({
          ...chatAllocation,
          allocations: [{ ...stored, requestSpec }, found],
        }),
      }),
    );
    const storedRow = await screen.findByTestId(`gpu-allocation-${stored.id}`);
    const link = within(storedRow).getByTestId('gpu-allocation-change');
    expect(link).toHaveTextContent('Change GPUs');
    const url = new URL(link.getAttribute('href')!, 'http://app');
    expect(url.pathname).toBe('/create/templates/default/gpu-workload');
    expect(JSON.parse(url.searchParams.get('formData')!)).toEqual({
      name: stored.name,
      namespace: stored.namespace,
      owner: 'group:default/ml-platform',
      workloadType: 'new',
      image: 'ghcr.io/acme/chat:1.4.0',
      capacityTypes: ['on-demand'],
      gpu: {
        cluster: 'dev',
        model: 't4',
        sharing: 'time-slicing',
        replicas: 2,
        vramGiB: 3,
        gpusPerReplica: 1,
      },
    });
    // "Release" opens the release template for the same request.
    const release = within(storedRow).getByTestId('gpu-allocation-release');
    expect(release).toHaveTextContent('Release');
    const releaseUrl = new URL(release.getAttribute('href')!, 'http://app');
    expect(releaseUrl.pathname).toBe('/create/templates/default/gpu-release');
    expect(JSON.parse(releaseUrl.searchParams.get('formData')!)).toEqual({
      name: stored.name,
      namespace: stored.namespace,
    });
    // A GPU workload found without a request record has neither link.
    const foundRow = screen.getByTestId(`gpu-allocation-${found.id}`);
    expect(within(foundRow).queryByTestId('gpu-allocation-change')).toBeNull();
    expect(within(foundRow).queryByTestId('gpu-allocation-release')).toBeNull();
    // A request without an expiry shows none.
    expect(within(storedRow).queryByTestId('gpu-allocation-expiry')).toBeNull();
  });

  it('counts an experiment down to its release, and prefills the days it has left', async () => {
    const [stored] = chatAllocation.allocations;
    const day = 86_400_000;
    const spec = (expiresAt: string) => ({
      owner: 'group:default/ml-platform',
      gpu: {
        model: 't4',
        sharing: 'time-slicing' as const,
        replicas: 2,
        vramGiB: 3,
        gpusPerReplica: 1,
      },
      workload: { image: 'ghcr.io/acme/chat:1.4.0' },
      capacityTypes: ['on-demand' as const],
      expiresAt,
    });
    const soon = new Date(Date.now() + 2.5 * day).toISOString();
    const past = new Date(Date.now() - day).toISOString();
    await renderCard(
      fakeGpuApi({
        getAllocation: async () => ({
          ...chatAllocation,
          allocations: [
            { ...stored, requestSpec: spec(soon) },
            {
              ...stored,
              id: 'ml/old-experiment',
              name: 'old-experiment',
              requestSpec: spec(past),
            },
          ],
        }),
      }),
    );
    const row = await screen.findByTestId(`gpu-allocation-${stored.id}`);
    expect(within(row).getByTestId('gpu-allocation-expiry')).toHaveTextContent(
      'expires in 3 days',
    );
    const change = new URL(
      within(row).getByTestId('gpu-allocation-change').getAttribute('href')!,
      'http://app',
    );
    expect(
      JSON.parse(change.searchParams.get('formData')!).releaseAfterDays,
    ).toBe(3);
    const expired = screen.getByTestId('gpu-allocation-ml/old-experiment');
    expect(
      within(expired).getByTestId('gpu-allocation-expiry'),
    ).toHaveTextContent('expired, release pending');
  });

  it('shows measured use beside what each request holds, badges an idle one, and says when a cluster has no live data', async () => {
    const [shared, exclusive] = chatAllocation.allocations;
    await renderCard(
      fakeGpuApi({
        getRightSize: async entityRef => ({
          entityRef,
          suggestions: [
            {
              id: exclusive.id,
              cluster: exclusive.cluster,
              suggestion: {
                requestSpec: {
                  owner: 'group:default/ml-platform',
                  cluster: 'dev',
                  gpu: {
                    model: 'a100-40gb',
                    sharing: 'mig',
                    replicas: 2,
                    vramGiB: 4,
                    gpusPerReplica: 1,
                  },
                  workload: { image: 'ghcr.io/acme/chat:1.4.0' },
                  capacityTypes: ['on-demand'],
                },
                sharingMode: 'mig',
                pool: 'gpu-a100-mig-1g.5gb',
                resourceName: 'nvidia.com/mig-1g.5gb',
                vramMiBPerReplica: 4864,
                migProfile: '1g.5gb',
                usdPerMonth: 400,
                savedUsdPerMonth: 2605.45,
                reason:
                  'its pods peaked at 3072 MiB over 7d; 4 GiB per replica keeps a quarter of headroom',
              },
            },
          ],
        }),
        getAllocation: async () => ({
          ...chatAllocation,
          allocations: [
            {
              ...shared,
              utilization: {
                attribution: 'per-gpu',
                window: '7d',
                sources: 1,
                vramP95MiB: 11264,
                vramPeakMiB: 12288,
                vramAllottedMiB: shared.vramMiBPerReplica,
                active: 0.45,
                idleHours: 0,
                status: 'ok',
                reason:
                  'figures of the whole GPUs its replicas share with the pool (not split per replica)',
              },
            },
            {
              ...exclusive,
              utilization: {
                attribution: 'per-pod',
                window: '7d',
                sources: 2,
                vramP95MiB: 3072,
                vramPeakMiB: 3072,
                vramAllottedMiB: 40960,
                active: 0.03,
                smActive: 0.08,
                idleHours: 150,
                status: 'idle',
                reason: 'engine active 3.0 % on average over 7d',
              },
              requestSpec: {
                owner: 'group:default/ml-platform',
                cluster: 'dev',
                gpu: {
                  model: 'a100-40gb',
                  sharing: 'exclusive',
                  replicas: 2,
                  vramGiB: 30,
                  gpusPerReplica: 1,
                },
                workload: { image: 'ghcr.io/acme/chat:1.4.0' },
                capacityTypes: ['on-demand'],
              },
            },
          ],
          live: [
            {
              cluster: 'dev',
              source: 'prometheus',
              available: true,
              at: '2026-11-24T05:00:00Z',
            },
            {
              cluster: 'prod',
              source: 'prometheus',
              available: false,
              reason: 'Prometheus at prom.prod:9090 did not answer within 10 s',
            },
          ],
        }),
      }),
    );
    const sharedRow = await screen.findByTestId(`gpu-allocation-${shared.id}`);
    expect(
      within(sharedRow).getByTestId('gpu-allocation-used'),
    ).toHaveTextContent(
      'used 11.0 GiB p95, peak 12.0 GiB per GPU (shared) · 45 % busy',
    );
    expect(within(sharedRow).queryByTestId('gpu-allocation-badge')).toBeNull();
    const exclusiveRow = screen.getByTestId(`gpu-allocation-${exclusive.id}`);
    expect(
      within(exclusiveRow).getByTestId('gpu-allocation-used'),
    ).toHaveTextContent('used 3.0 GiB p95, peak 3.0 GiB · 3 % busy · SM 8 %');
    expect(
      within(exclusiveRow).getByTestId('gpu-allocation-badge'),
    ).toHaveTextContent('idle');
    expect(
      within(exclusiveRow).getByRole('img', { name: /^VRAM used over 7d/ }),
    ).toHaveAccessibleName(
      'VRAM used over 7d: used 3.0 GiB p95, peak 3.0 GiB · 3 % busy · SM 8 %; engine active 3.0 % on average over 7d',
    );
    // The planner's fit for what it used, with the form filled in with it.
    const suggestion = within(exclusiveRow).getByTestId(
      'gpu-allocation-right-size',
    );
    expect(suggestion).toHaveTextContent(
      'Right-size: mig 1g.5gb, 4.7 GiB per replica on gpu-a100-mig-1g.5gb — saves $2,605.45/month · Change GPUs',
    );
    const change = new URL(
      within(suggestion)
        .getByText('Change GPUs')
        .closest('a')!
        .getAttribute('href')!,
      'http://app',
    );
    expect(JSON.parse(change.searchParams.get('formData')!).gpu).toEqual({
      cluster: 'dev',
      model: 'a100-40gb',
      sharing: 'mig',
      replicas: 2,
      vramGiB: 4,
      gpusPerReplica: 1,
    });
    expect(
      within(sharedRow).queryByTestId('gpu-allocation-right-size'),
    ).toBeNull();
    expect(screen.getAllByTestId('gpu-allocation-no-live-data')).toHaveLength(
      1,
    );
    expect(screen.getByTestId('gpu-allocation-no-live-data')).toHaveTextContent(
      'no live data from prod: Prometheus at prom.prod:9090 did not answer within 10 s',
    );
  });

  it('shows drift beside the allocation it concerns, with every finding and its events on hover', async () => {
    const [shared, exclusive] = chatAllocation.allocations;
    await renderCard(
      fakeGpuApi({
        getAllocation: async () => ({
          ...chatAllocation,
          allocations: [
            {
              ...shared,
              drift: [
                {
                  kind: 'nodeoverlay-gate-off',
                  object: 'NodeOverlay/gpu-t4-ts4-1gpu',
                  message:
                    'Karpenter has not validated the NodeOverlays of gpu-t4-ts4: its NodeOverlay feature gate is off',
                },
                {
                  kind: 'pods-pending',
                  object: 'Pod/ml/chat-6d5f7c9b8-q7w2e',
                  message: '2 pods Pending for up to 25 min',
                  events: [
                    'FailedScheduling: 0/1 nodes are available: 1 Insufficient nvidia.com/gpu.shared.',
                  ],
                },
              ],
            },
            { ...exclusive, drift: [] },
          ],
          live: [
            {
              cluster: 'dev',
              source: 'kubernetes',
              available: true,
              at: '2026-11-24T05:00:00Z',
            },
            {
              cluster: 'dev',
              source: 'prometheus',
              available: false,
              reason:
                'Prometheus at prom.dev:9090 cannot be reached (ECONNREFUSED)',
            },
          ],
        }),
      }),
    );
    const sharedRow = await screen.findByTestId(`gpu-allocation-${shared.id}`);
    const badge = within(sharedRow).getByTestId('gpu-drift');
    expect(badge).toHaveTextContent(
      'drift ×2 Karpenter has not validated the NodeOverlays of gpu-t4-ts4: its NodeOverlay feature gate is off',
    );
    await userEvent.hover(within(badge).getByText('drift ×2'));
    const tooltip = await screen.findByRole('tooltip');
    expect(tooltip).toHaveTextContent(
      'Pod/ml/chat-6d5f7c9b8-q7w2e: 2 pods Pending for up to 25 min',
    );
    expect(tooltip).toHaveTextContent(
      '· FailedScheduling: 0/1 nodes are available: 1 Insufficient nvidia.com/gpu.shared.',
    );
    // Read and in agreement: no badge.
    expect(
      within(
        screen.getByTestId(`gpu-allocation-${exclusive.id}`),
      ).queryByTestId('gpu-drift'),
    ).toBeNull();
    expect(screen.getByTestId('gpu-allocation-no-live-data')).toHaveTextContent(
      'no live data from dev: Prometheus at prom.dev:9090 cannot be reached (ECONNREFUSED)',
    );
  });

  it('offers the GPU template when the component has no GPU request', async () => {
    await renderCard(
      fakeGpuApi({
        getAllocation: async () => ({
          entityRef: 'component:default/chat',
          allocations: [],
          totals: { physicalGpus: 0, usdPerMonth: 0 },
        }),
      }),
    );
    expect(await screen.findByText('No GPUs requested')).toBeVisible();
    // Prefilled from the component (RequestGpus/RequestGpusButton.test.tsx).
    expect(
      screen.getByText('Request GPUs').closest('a')?.getAttribute('href'),
    ).toMatch(/^\/create\/templates\/default\/gpu-workload\?formData=/);
  });

  it('shows the backend error instead of an empty card', async () => {
    const response = new Response(
      JSON.stringify({
        error: { name: 'Error', message: 'GitOps repository unreachable' },
        request: { method: 'GET', url: '/api/gpu/allocation' },
        response: { statusCode: 503 },
      }),
      { status: 503, headers: { 'Content-Type': 'application/json' } },
    );
    const error = await ResponseError.fromResponse(response);
    await renderCard(
      fakeGpuApi({ getAllocation: () => Promise.reject(error) }),
    );

    expect(
      await screen.findByText(/Could not load GPU allocation/),
    ).toBeInTheDocument();
    expect(
      screen.getAllByText(/GitOps repository unreachable/).length,
    ).toBeGreaterThan(0);
    expect(screen.queryByText('No GPUs requested')).not.toBeInTheDocument();
  });
});

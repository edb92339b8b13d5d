import { EntityProvider } from '@backstage/plugin-catalog-react';
import { ResponseError } from '@backstage/errors';
import { renderInTestApp, TestApiProvider } from '@backstage/test-utils';
import { screen, within } from '@testing-library/react';
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
    expect(ts.getByText('gpu-l4-ts4')).toBeVisible();
    expect(ts.getByText('$587.50')).toBeVisible();
    expect(ts.getByText('4/4 of $587.50')).toBeVisible();

    const mps = within(screen.getByTestId('gpu-allocation-ml/embedder'));
    expect(mps.getByLabelText('GPU per replica: 50% of a GPU')).toBeVisible();
    expect(
      mps.getByLabelText('VRAM per replica: 11.1 GiB guaranteed of 22.3 GiB'),
    ).toBeVisible();
    expect(mps.getByText('gpu-a10g-mps')).toBeVisible();

    const mig = within(screen.getByTestId('gpu-allocation-ml/trainer'));
    expect(mig.getByLabelText('GPU per replica: 42.9% of a GPU')).toBeVisible();
    expect(
      mig.getByLabelText('VRAM per replica: 18.0 GiB guaranteed of 40.0 GiB'),
    ).toBeVisible();
    expect(mig.getByText(/mig 3g\.20gb/)).toBeVisible();
    expect(mig.getByText('3')).toBeVisible();
    // 3 of the 8-GPU node's 16 instances: its share, not the node's price.
    expect(mig.getByText('$3,005.45')).toBeVisible();
    expect(mig.getByText('3/16 of $16,029.08')).toBeVisible();

    expect(
      screen.getByText(
        '3.5 GPU equivalents, $4,327.33 per month (GitOps 0123456)',
      ),
    ).toBeVisible();
    // The idle capacity is named, pool by pool.
    expect(screen.getByTestId('gpu-allocation-cost-note')).toHaveTextContent(
      'gpu-a100-mig 1 × p4d.24xlarge = $16,029.08, $11,019.99 idle (11 of 16 free)',
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

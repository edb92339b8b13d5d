import { renderInTestApp, TestApiProvider } from '@backstage/test-utils';
import { fireEvent, screen, within } from '@testing-library/react';
import type { QuotaUse } from '@gpu-gitops/plugin-gpu-common';
import { gpuApiRef } from '../../api/GpuApi';
import { fakeGpuApi } from '../../__testUtils__/fakeGpuApi';
import { livePools } from '../../__testUtils__/fixtures';
import { GpuOverview } from './GpuOverviewPage';

const quotas: Record<string, Omit<QuotaUse, 'owner' | 'cluster'>> = {
  'group:default/ml|prod': { used: 7, requested: 0, quota: 16 },
  'group:default/research|prod': { used: 2.5, requested: 0 },
  'group:default/research|dev': { used: 0.25, requested: 0, quota: 4 },
};

async function renderPage() {
  const asked: string[] = [];
  await renderInTestApp(
    <TestApiProvider
      apis={[
        [
          gpuApiRef,
          fakeGpuApi({
            getPools: async () => livePools,
            getQuota: async ({ owner, cluster }) => {
              asked.push(`${owner}|${cluster}`);
              return {
                owner,
                cluster: cluster!,
                ...quotas[`${owner}|${cluster}`],
              };
            },
          }),
        ],
      ]}
    >
      <GpuOverview />
    </TestApiProvider>,
  );
  return asked;
}

/** The body rows of a table, each as its cells' texts. */
function rowsOf(testId: string): string[][] {
  return within(screen.getByTestId(testId))
    .getAllByRole('row')
    .filter(row => row.querySelector('td'))
    .map(row =>
      Array.from(row.querySelectorAll('td')).map(c => c.textContent ?? ''),
    );
}

describe('GpuOverviewPage', () => {
  it('leads to the GPU pull requests, what is asked for and not merged yet', async () => {
    await renderPage();
    expect(
      await screen.findByRole('link', { name: 'GPU pull requests' }),
    ).toHaveAttribute('href', '/gpu/pull-requests');
  });

  it('lists every pool of every cluster with the figures of GET /pools, and their sums', async () => {
    await renderPage();
    await screen.findByTestId('gpu-overview-pools');
    // Sorted by cluster: dev first; the figures as the tab shows them.
    expect(rowsOf('gpu-overview-pools')).toEqual([
      [
        'dev',
        'gpu-t4-ts4 t4 · time-slicing',
        '2 of 4 · limit 8',
        '—',
        '$383.98 $191.99 unallocated',
        '—',
        '—',
      ],
      [
        'prod',
        'gpu-l4-ts4 l4 · time-slicing',
        '4 of 4 · limit 16',
        '0 busy, 1 idle',
        '$587.50 $0.00 unallocated',
        '$587.50',
        'none',
      ],
      [
        'prod',
        'gpu-a100-mig a100-40gb · mig',
        '5 of 16 · limit 4',
        '1 busy, 2 idle',
        '$16,029.08 $11,019.99 unallocated',
        '$4,007.27',
        'drift',
      ],
      [
        'prod',
        'gpu-h100 h100-80gb · exclusive',
        '0, no nodes · no limit',
        '0 busy, 0 idle',
        '$0.00 $0.00 unallocated',
        '$0.00',
        'none',
      ],
    ]);
    // Sums in cents: 383.98 + 587.50 + 16,029.08 + 0 and the idle parts.
    expect(screen.getByTestId('gpu-overview-totals')).toHaveTextContent(
      'All pools: $17,000.56 per month, of which $11,211.98 unallocated; 3 idle GPUs cost $4,594.77 per month.',
    );
    expect(screen.getByTestId('gpu-overview-no-live-data')).toHaveTextContent(
      'no live data from dev: Prometheus at prometheus.dev:9090 cannot be reached',
    );
    expect(
      screen.getByText(/GPUs nobody ran on are not counted/),
    ).toBeInTheDocument();
    // Drift: what runs in prod that Git no longer has.
    expect(screen.getByTestId('gpu-overview-not-in-git')).toHaveTextContent(
      'prod: NodePool gpu-l4-ts2 runs in the cluster but Git no longer has it',
    );
  });

  it("sums each team's attributed cost, asks its quota per cluster, and shows its idle share", async () => {
    const asked = await renderPage();
    await screen.findByText('prod: 7 of 16 GPUs');
    expect(asked.sort()).toEqual(Object.keys(quotas).sort());
    expect(rowsOf('gpu-overview-teams')).toEqual([
      [
        'group:default/ml',
        '2',
        '$3,592.95',
        'prod: 7 of 16 GPUs',
        '$587.50 (16.4 %)',
      ],
      [
        'group:default/research',
        '2',
        '$2,099.64',
        'dev: 0.25 of 4 GPUs · prod: 2.5 GPUs held (no quota set)',
        '$2,003.64 (95.4 %)',
      ],
      ['requests you may not see', '1', '$95.99', '—', '—'],
    ]);
    // The teams' costs and the unallocated capacity are the pools' price:
    // 3,592.95 + 2,099.64 + 95.99 + 11,211.98 = 17,000.56.
  });

  it('sorts the tables by a column, both ways', async () => {
    await renderPage();
    await screen.findByTestId('gpu-overview-teams');
    const teams = () => rowsOf('gpu-overview-teams').map(r => r[0]);
    const teamTable = within(screen.getByTestId('gpu-overview-teams'));
    fireEvent.click(teamTable.getByText('Attributed cost'));
    expect(teams()).toEqual([
      'requests you may not see',
      'group:default/research',
      'group:default/ml',
    ]);
    fireEvent.click(teamTable.getByText('Attributed cost'));
    expect(teams()).toEqual([
      'group:default/ml',
      'group:default/research',
      'requests you may not see',
    ]);
    // Idle share sorts by the share, not by the dollars (the table keeps
    // the last direction when the column changes: check both clicks).
    const ascending = [
      'requests you may not see',
      'group:default/ml',
      'group:default/research',
    ];
    fireEvent.click(teamTable.getByText('Idle share'));
    const first = teams();
    fireEvent.click(teamTable.getByText('Idle share'));
    expect([first, teams()]).toEqual(
      expect.arrayContaining([ascending, [...ascending].reverse()]),
    );

    const pools = () => rowsOf('gpu-overview-pools').map(r => r[1]);
    const poolTable = within(screen.getByTestId('gpu-overview-pools'));
    fireEvent.click(poolTable.getByText('Idle cost'));
    const once = pools();
    fireEvent.click(poolTable.getByText('Idle cost'));
    // Most idle cost first, the pool without live data last.
    const descending = [
      'gpu-a100-mig a100-40gb · mig',
      'gpu-l4-ts4 l4 · time-slicing',
      'gpu-h100 h100-80gb · exclusive',
      'gpu-t4-ts4 t4 · time-slicing',
    ];
    expect([once, pools()]).toEqual(
      expect.arrayContaining([descending, [...descending].reverse()]),
    );
  });
});

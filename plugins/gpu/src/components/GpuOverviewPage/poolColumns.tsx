import type { TableColumn } from '@backstage/core-components';
import { DriftBadge } from '../DriftBadge';
import { formatUsd } from '../format/format';
import { byNumber, contentWidths, dash, Parts } from './overviewTable';
import type { PoolRow } from './overviewRows';

/**
 * Seven columns, so the table fits a 1280 px screen (nine cut the last two
 * off): a pool with its GPU (model and mode) under its name, what is
 * allocated beside the limit, busy beside idle, its cost over what of it
 * is unallocated.
 */
export const poolColumns: TableColumn<PoolRow>[] = contentWidths<PoolRow>([
  { title: 'Cluster', field: 'cluster', defaultSort: 'asc' },
  {
    title: 'Pool',
    field: 'pool',
    render: r => <Parts stacked parts={[r.pool, `${r.model} · ${r.mode}`]} />,
  },
  {
    title: 'Allocated',
    field: 'allocated',
    type: 'numeric',
    // Of what its nodes offer (the card's bar and free units), in units of
    // its resource; the NodePool limit, how far it may grow, beside it.
    render: r => (
      <Parts
        parts={[
          r.nodeUnits === 0
            ? `${r.allocated}, no nodes`
            : `${r.allocated} of ${r.nodeUnits}`,
          `· ${r.capacity === undefined ? 'no limit' : `limit ${r.capacity}`}`,
        ]}
      />
    ),
  },
  {
    // Busy and idle of the GPUs seen, in one column (sorted by idle GPUs).
    title: 'GPUs used',
    field: 'idleGpus',
    type: 'numeric',
    customSort: byNumber(r => r.idleGpus),
    render: r =>
      r.busyGpus === undefined ? (
        dash
      ) : (
        <Parts parts={[`${r.busyGpus} busy,`, `${r.idleGpus} idle`]} />
      ),
  },
  {
    title: 'Cost / month',
    field: 'usdPerMonth',
    type: 'numeric',
    render: r => (
      <Parts
        stacked
        parts={[
          formatUsd(r.usdPerMonth),
          `${formatUsd(r.unallocatedUsdPerMonth)} unallocated`,
        ]}
      />
    ),
  },
  {
    title: 'Idle cost',
    field: 'idleUsdPerMonth',
    type: 'numeric',
    customSort: byNumber(r => r.idleUsdPerMonth),
    render: r =>
      r.idleUsdPerMonth === undefined ? (
        dash
      ) : (
        <Parts parts={[formatUsd(r.idleUsdPerMonth)]} />
      ),
  },
  {
    title: 'Drift',
    field: 'drift',
    customSort: byNumber(r => r.drift?.length),
    render: r => {
      if (r.drift === undefined) return dash;
      if (r.drift.length === 0) return 'none';
      return <DriftBadge findings={r.drift} compact />;
    },
  },
]);

import {
  Content,
  Header,
  Link,
  Page,
  Progress,
  ResponseErrorPanel,
  Table,
  type TableColumn,
} from '@backstage/core-components';
import { useApi } from '@backstage/core-plugin-api';
import {
  GPU_PULL_REQUESTS_PATH,
  type LiveDataStatus,
  type PoolsResponse,
  type QuotaUse,
} from '@gpu-gitops/plugin-gpu-common';
import { Box, Typography } from '@material-ui/core';
import { Fragment, useMemo } from 'react';
import useAsync from 'react-use/esm/useAsync';
import { gpuApiRef, type GpuApi } from '../../api/GpuApi';
import { DriftBadge } from '../DriftBadge';
import { formatUsd } from '../format/format';
import { noLiveDataText } from '../format/noLiveDataText';
import { UNATTRIBUTED_GPUS_NOTE } from '../GpuPoolsContent/PoolFigures';
import {
  poolRows,
  poolTotals,
  teamRows,
  type PoolRow,
  type TeamRow,
} from './overviewRows';

const dash = '—';

/** A pool's name or an amount reads badly broken over two lines. */
const NO_WRAP = { whiteSpace: 'nowrap' } as const;

/**
 * A cell of parts that each stay on one line, the cell wrapping only
 * between them: a column may narrow to its widest part, so nine columns
 * fit 1280 px, and no amount breaks ("$16,029.0 / 8").
 */
function Parts(props: { parts: string[]; stacked?: boolean }) {
  const style = props.stacked ? { ...NO_WRAP, display: 'block' } : NO_WRAP;
  return (
    <>
      {props.parts.map((part, i) => (
        <Fragment key={i}>
          {i > 0 && ' '}
          <span style={style}>{part}</span>
        </Fragment>
      ))}
    </>
  );
}

/** Half the table's usual 24 px gap on the right of a cell: seven columns gain 84 px. */
const CELL_PADDING = { paddingLeft: 12, paddingRight: 12 } as const;

/**
 * Every column as wide as its content asks (material-table otherwise gives
 * each an equal share, so a short column holds space a long one lacks and
 * the last columns are cut at 1280 px), with narrower gaps.
 */
function contentWidths<T extends object>(
  columns: TableColumn<T>[],
): TableColumn<T>[] {
  return columns.map(column => ({
    width: 'auto',
    cellStyle: CELL_PADDING,
    headerStyle: CELL_PADDING,
    ...column,
  }));
}

/** One list, no paging; a header click toggles ascending and descending, never back to unsorted. */
const TABLE_OPTIONS = {
  paging: false,
  search: false,
  padding: 'dense',
  thirdSortClick: false,
} as const;

/** Rows without a figure sort below every figure, whichever the direction asked. */
const byNumber =
  <T,>(pick: (row: T) => number | undefined) =>
  (a: T, b: T) =>
    (pick(a) ?? -1) - (pick(b) ?? -1);

/**
 * Seven columns, so the table fits a 1280 px screen (nine cut the last two
 * off): a pool with its GPU (model and mode) under its name, what is
 * allocated beside the limit, busy beside idle, its cost over what of it
 * is unallocated.
 */
const poolColumns: TableColumn<PoolRow>[] = contentWidths<PoolRow>([
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

/** The share of a team's attributed cost its idle requests pay, for display and sorting only. */
const idleShare = (r: TeamRow) =>
  r.measured === 0 || r.usdPerMonth === 0
    ? undefined
    : r.idleUsdPerMonth / r.usdPerMonth;

function quotaText(use: QuotaUse | Error | undefined, cluster: string) {
  if (use === undefined) return `${cluster}: ${dash}`;
  if (use instanceof Error)
    return `${cluster}: quota unavailable (${use.message})`;
  return use.quota === undefined
    ? `${cluster}: ${use.used} GPUs held (no quota set)`
    : `${cluster}: ${use.used} of ${use.quota} GPUs`;
}

/** Each owner's quota use on each cluster it runs on, as `GET /quota` says (the actions' check). */
async function quotasOf(
  api: GpuApi,
  teams: TeamRow[],
): Promise<Map<string, QuotaUse | Error>> {
  const out = new Map<string, QuotaUse | Error>();
  await Promise.all(
    teams.flatMap(t =>
      t.owner
        ? t.clusters.map(async cluster => {
            const key = `${t.owner}|${cluster}`;
            try {
              out.set(key, await api.getQuota({ owner: t.owner!, cluster }));
            } catch (error) {
              out.set(key, error as Error);
            }
          })
        : [],
    ),
  );
  return out;
}

/**
 * The GPU page: every pool of every cluster with its capacity, allocation,
 * live use and cost, and what each team's requests cost, how much of its
 * quota they hold and which share of their cost pays for idle requests. The
 * figures are `GET /pools`'s, the ones the entity card and tab show.
 *
 * @public
 */
export function GpuOverview() {
  const api = useApi(gpuApiRef);
  const pools = useAsync(() => api.getPools(), [api]);
  // Kept across renders: the tables keep their sort while quotas load.
  const teams = useMemo(
    () => (pools.value ? teamRows(pools.value.pools) : []),
    [pools.value],
  );
  const rows = useMemo(
    () => (pools.value ? poolRows(pools.value) : []),
    [pools.value],
  );
  const quotas = useAsync(() => quotasOf(api, teams), [api, teams]);

  const teamColumns: TableColumn<TeamRow>[] = contentWidths<TeamRow>([
    { title: 'Team', field: 'label', defaultSort: 'asc' },
    { title: 'Requests', field: 'requests', type: 'numeric' },
    {
      title: 'Attributed cost',
      field: 'usdPerMonth',
      type: 'numeric',
      render: r => <Parts parts={[formatUsd(r.usdPerMonth)]} />,
    },
    {
      title: 'Quota use',
      field: 'owner',
      sorting: false,
      render: r =>
        r.owner ? (
          <Parts
            parts={r.clusters.map(
              (c, i) =>
                `${i > 0 ? '· ' : ''}${quotaText(quotas.value?.get(`${r.owner}|${c}`), c)}`,
            )}
          />
        ) : (
          dash
        ),
    },
    {
      title: 'Idle share',
      field: 'idleUsdPerMonth',
      type: 'numeric',
      customSort: byNumber(idleShare),
      render: r => {
        const share = idleShare(r);
        return share === undefined ? (
          dash
        ) : (
          <Parts
            parts={[
              formatUsd(r.idleUsdPerMonth),
              `(${(share * 100).toFixed(1)} %)`,
            ]}
          />
        );
      },
    },
  ]);

  return (
    <Page themeId="tool">
      <Header
        title="GPUs"
        subtitle="Every GPU pool of every cluster, and what each team's requests cost"
      />
      <Content>
        <Box mb={2}>
          <Typography variant="body2">
            Counted here: what is merged. Asked for, not merged yet:{' '}
            <Link to={GPU_PULL_REQUESTS_PATH}>GPU pull requests</Link>.
          </Typography>
        </Box>
        {pools.loading && <Progress />}
        {pools.error && (
          <ResponseErrorPanel
            error={pools.error}
            title="Could not load GPU pools"
          />
        )}
        {pools.value && (
          <PoolsSection
            rows={rows}
            live={pools.value.live}
            notInGit={pools.value.notInGit}
          />
        )}
        {pools.value && (
          <Box mt={3} data-testid="gpu-overview-teams">
            <Table<TeamRow>
              title="Teams"
              subtitle="Attributed cost by the owner of each request's catalog entity; quota use in physical GPUs on each cluster (GET /quota); idle share: the cost of its requests whose GPUs were idle (engine under 5 %)"
              options={TABLE_OPTIONS}
              columns={teamColumns}
              data={teams}
            />
          </Box>
        )}
      </Content>
    </Page>
  );
}

function PoolsSection(props: {
  rows: PoolRow[];
  live?: LiveDataStatus[];
  notInGit?: PoolsResponse['notInGit'];
}) {
  const totals = poolTotals(props.rows);
  return (
    <>
      <Typography variant="body1" data-testid="gpu-overview-totals">
        All pools: {formatUsd(totals.usdPerMonth)} per month, of which{' '}
        {formatUsd(totals.unallocatedUsdPerMonth)} unallocated;{' '}
        {totals.idleGpus === 1
          ? '1 idle GPU costs'
          : `${totals.idleGpus} idle GPUs cost`}{' '}
        {formatUsd(totals.idleUsdPerMonth)} per month.
      </Typography>
      {(props.live ?? [])
        .filter(s => !s.available)
        .map(s => (
          <Typography
            key={`${s.cluster}:${s.source}`}
            variant="body2"
            color="textSecondary"
            data-testid="gpu-overview-no-live-data"
          >
            {noLiveDataText(s)}
          </Typography>
        ))}
      <Typography variant="caption" color="textSecondary" component="p">
        Allocated of what the pool's nodes offer, and the NodePool's limit, in
        units of each pool's resource; used and idle in physical GPUs over the
        live-data window (idle: engine under 5 %); unallocated cost: the
        capacity no request holds; idle cost: the idle GPUs at the node's price
        per GPU. {UNATTRIBUTED_GPUS_NOTE}
      </Typography>
      {(props.notInGit ?? []).flatMap(({ cluster, findings }) =>
        findings.map(f => (
          <Typography
            key={`${cluster}:${f.object}`}
            variant="body2"
            color="error"
            data-testid="gpu-overview-not-in-git"
          >
            {cluster}: {f.message}
          </Typography>
        )),
      )}
      <Box data-testid="gpu-overview-pools">
        <Table<PoolRow>
          title="Pools"
          options={TABLE_OPTIONS}
          columns={poolColumns}
          data={props.rows}
        />
      </Box>
    </>
  );
}

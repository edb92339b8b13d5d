import { Table } from '@backstage/core-components';
import type {
  LiveDataStatus,
  PoolsResponse,
} from '@gpu-gitops/plugin-gpu-common';
import { Box, Typography } from '@material-ui/core';
import { formatUsd } from '../format/format';
import { noLiveDataText } from '../format/noLiveDataText';
import { UNATTRIBUTED_GPUS_NOTE } from '../GpuPoolsContent/PoolFigures';
import { poolTotals, type PoolRow } from './overviewRows';
import { TABLE_OPTIONS } from './overviewTable';
import { poolColumns } from './poolColumns';

/**
 * The page's pools: the totals, the clusters without live data, what the
 * figures mean, the pool objects a cluster has and Git does not, and the
 * table of every pool.
 */
export function PoolsSection(props: {
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

import type {
  LiveDataStatus,
  PoolSummary,
} from '@gpu-gitops/plugin-gpu-common';
import {
  Table,
  TableBody,
  TableCell,
  TableRow,
  Typography,
} from '@material-ui/core';
import { formatGiB, formatUsd } from '../format/format';
import { noLiveDataText } from '../format/noLiveDataText';

/** Why a pool's GPUs may be missing from its live figures: the page says it too. */
export const UNATTRIBUTED_GPUS_NOTE =
  'GPUs count for a pool when a pod of the pool ran on them in the window: the exporter does not label a GPU with its node pool, so GPUs nobody ran on are not counted.';

/**
 * A pool's capacity and allocation (intent, in units of its resource) beside
 * what its GPUs did (live, in physical GPUs): the figures of `GET /pools`
 * as they are, so the GPU page shows the same numbers.
 */
export function PoolFigures(props: {
  pool: PoolSummary;
  /** Its cluster's live status, when live data is configured for it. */
  live?: LiveDataStatus;
}) {
  const { pool, live } = props;
  const u = pool.utilization;
  // Without live data configured for its cluster the card's bar says it
  // all (allocated of capacity): no table of dashes.
  if (!u && !live) return null;
  const dash = '—';
  const figures: [string, string | number][] = [
    ['NodePool limit', pool.capacity ?? 'none'],
    ['Allocated', pool.allocated],
    ['Used', u ? `${u.busyGpus} of ${u.gpusSeen} GPUs busy` : dash],
    ['Idle GPUs', u ? u.idleGpus : dash],
    ['Idle cost', u ? `${formatUsd(u.idleUsdPerMonth)} per month` : dash],
  ];
  return (
    <>
      {/* One figure per row: a card in a two-column grid is narrow. */}
      <Table size="small" aria-label="Pool figures" data-testid="pool-figures">
        <TableBody>
          {figures.map(([label, value]) => (
            <TableRow key={label}>
              <TableCell component="th" scope="row">
                {label}
              </TableCell>
              <TableCell>{value}</TableCell>
            </TableRow>
          ))}
        </TableBody>
      </Table>
      {u && (
        <Typography
          variant="caption"
          color="textSecondary"
          component="p"
          data-testid="pool-live-note"
        >
          NodePool limit and allocated in {pool.resourceName}; used and idle in
          physical GPUs over {u.window} (idle: engine under 5 %), idle cost at
          the node's price per GPU
          {u.vramUsedMiB !== undefined && u.vramTotalMiB !== undefined
            ? `; VRAM peak ${formatGiB(u.vramUsedMiB)} of ${formatGiB(
                u.vramTotalMiB,
              )}`
            : ''}
          . {UNATTRIBUTED_GPUS_NOTE}
        </Typography>
      )}
      {live && !live.available && (
        <Typography
          variant="caption"
          color="textSecondary"
          component="p"
          data-testid="pool-no-live-data"
        >
          {noLiveDataText(live)}
        </Typography>
      )}
    </>
  );
}

import { InfoCard } from '@backstage/core-components';
import type { AllocationResponse } from '@gpu-gitops/plugin-gpu-common';
import {
  Table,
  TableBody,
  TableCell,
  TableHead,
  TableRow,
  Typography,
} from '@material-ui/core';
import { GpuOpenPullRequests } from '../GpuOpenPullRequests';
import { formatUsd } from '../format/format';
import { noLiveDataText } from '../format/noLiveDataText';
import { AllocationRow } from './AllocationRow';
import { NO_WRAP, useAllocationCardStyles } from './allocationCardStyles';
import { CostNote } from './CostNote';
import { useRightSizes } from './useRightSizes';

/** The card of an entity with GPU requests: one row each, how cost is shared, live data's gaps. */
export function AllocationTable(props: { response: AllocationResponse }) {
  const { allocations, totals, revision, entityRef } = props.response;
  const classes = useAllocationCardStyles();
  const suggestionOf = useRightSizes(entityRef, allocations);
  return (
    <InfoCard
      title="GPU allocation"
      cardClassName={classes.scroll}
      subheader={`${totals.physicalGpus} GPU equivalents, ${formatUsd(
        totals.usdPerMonth,
      )} per month${revision ? ` (GitOps ${revision.slice(0, 7)})` : ''}`}
    >
      <Table size="small" aria-label="GPU requests" className={classes.table}>
        <TableHead>
          <TableRow>
            {/* A header never breaks inside a word. */}
            <TableCell style={NO_WRAP}>Request</TableCell>
            <TableCell style={NO_WRAP}>Per replica</TableCell>
            <TableCell align="right" style={NO_WRAP}>
              Replicas
            </TableCell>
            <TableCell align="right" style={NO_WRAP}>
              Cost / month
            </TableCell>
          </TableRow>
        </TableHead>
        <TableBody>
          {allocations.map(allocation => (
            <AllocationRow
              key={allocation.id}
              allocation={allocation}
              rightSize={suggestionOf(allocation)}
            />
          ))}
        </TableBody>
      </Table>
      <CostNote allocations={allocations} />
      {(props.response.live ?? [])
        .filter(status => !status.available)
        .map(status => (
          <Typography
            key={`${status.cluster}:${status.source}`}
            variant="caption"
            color="textSecondary"
            component="p"
            data-testid="gpu-allocation-no-live-data"
          >
            {noLiveDataText(status)}
          </Typography>
        ))}
      <GpuOpenPullRequests entityRef={entityRef} />
    </InfoCard>
  );
}

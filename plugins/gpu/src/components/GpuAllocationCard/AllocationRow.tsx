import {
  builtinCatalog,
  findModel,
  type GpuAllocation,
  type GpuModel,
  type RightSizeSuggestion,
} from '@gpu-gitops/plugin-gpu-common';
import { TableCell, TableRow, Typography } from '@material-ui/core';
import { ShareBar } from '../bars/ShareBar';
import { UsedBar } from '../bars/UsedBar';
import { VramBar } from '../bars/VramBar';
import { DriftBadge } from '../DriftBadge';
import { formatUsd } from '../format/format';
import { NO_WRAP, useAllocationCardStyles } from './allocationCardStyles';
import { RequestCell } from './RequestCell';
import { RightSizeLink } from './RightSizeLink';

/** One request of the card: what it is, what a replica holds, how many, what it costs. */
export function AllocationRow(props: {
  allocation: GpuAllocation;
  rightSize?: RightSizeSuggestion;
}) {
  const a = props.allocation;
  const model = findModel(builtinCatalog, a.gpuModel);
  return (
    <TableRow data-testid={`gpu-allocation-${a.id}`}>
      <RequestCell allocation={a} model={model} />
      <PerReplicaCell
        allocation={a}
        model={model}
        rightSize={props.rightSize}
      />
      <TableCell align="right">{a.replicas}</TableCell>
      <CostCell allocation={a} />
    </TableRow>
  );
}

/** What a replica holds and uses, with the right-size suggestion and drift. */
function PerReplicaCell(props: {
  allocation: GpuAllocation;
  model?: GpuModel;
  rightSize?: RightSizeSuggestion;
}) {
  const { allocation: a, model } = props;
  const classes = useAllocationCardStyles();
  return (
    <TableCell className={classes.bars}>
      <ShareBar
        share={a.gpuSharePerReplica}
        computeShare={a.computeSharePerReplica}
      />
      <VramBar
        vramMiB={a.vramMiBPerReplica}
        guaranteed={a.vramGuaranteed}
        gpuMemoryMiB={model?.memoryMiB}
      />
      {a.utilization && <UsedBar utilization={a.utilization} />}
      {props.rightSize && (
        <RightSizeLink allocation={a} suggestion={props.rightSize} />
      )}
      {a.drift && <DriftBadge findings={a.drift} />}
    </TableCell>
  );
}

/** The request's cost a month, and its part of its pool's. */
function CostCell({ allocation: a }: { allocation: GpuAllocation }) {
  return (
    <TableCell align="right" data-testid="gpu-allocation-cost">
      <Typography variant="body2" style={NO_WRAP}>
        {formatUsd(a.usdPerMonth)}
      </Typography>
      {a.poolCost && (
        // It may break before the pool's price, never inside an amount.
        <Typography variant="caption" color="textSecondary" display="block">
          {a.unitsHeld}/{a.poolCost.capacityUnits} of{' '}
          <span style={NO_WRAP}>{formatUsd(a.poolCost.usdPerMonth)}</span>
        </Typography>
      )}
    </TableCell>
  );
}

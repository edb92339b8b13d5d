import type {
  GpuAllocation,
  PoolCostSummary,
} from '@gpu-gitops/plugin-gpu-common';
import { Typography } from '@material-ui/core';
import { Fragment } from 'react';
import { formatUsd } from '../format/format';
import { useAllocationCardStyles } from './allocationCardStyles';

/** The pools of these allocations, once each, in the order they appear. */
function poolsOf(allocations: GpuAllocation[]): PoolCostSummary[] {
  const seen = new Map<string, PoolCostSummary>();
  for (const a of allocations) {
    if (a.poolCost) seen.set(`${a.cluster}/${a.pool}`, a.poolCost);
  }
  return [...seen.values()];
}

/** How the card's cost is shared out, with each pool's nodes, price and unallocated part. */
export function CostNote({ allocations }: { allocations: GpuAllocation[] }) {
  const pools = poolsOf(allocations);
  const classes = useAllocationCardStyles();
  return (
    <Typography
      variant="caption"
      color="textSecondary"
      component="p"
      data-testid="gpu-allocation-cost-note"
    >
      Cost per month: each request's share of its pool's nodes, by the part of
      their capacity it holds (on-demand list price, 730 h a month); the
      capacity nobody holds is the pool's unallocated cost:{' '}
      {pools.map((p, i) => (
        <Fragment key={p.name}>
          {i > 0 && '; '}
          <span className={classes.name}>{p.name}</span> {p.nodes} ×{' '}
          {p.instanceType ?? 'node'} = {formatUsd(p.usdPerMonth)},{' '}
          {formatUsd(p.idleUsdPerMonth)} unallocated ({p.idleUnits} of{' '}
          {p.capacityUnits} free)
        </Fragment>
      ))}
      .
    </Typography>
  );
}

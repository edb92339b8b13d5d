import { InfoCard } from '@backstage/core-components';
import {
  builtinCatalog,
  findModel,
  poolUsage,
  type GpuAllocation,
  type LiveDataStatus,
  type PoolSummary,
} from '@gpu-gitops/plugin-gpu-common';
import { Box, Chip, Typography, useTheme } from '@material-ui/core';
import { Bar } from '../bars/Bar';
import { formatUsd } from '../format/format';
import { MigLayoutPicture } from './MigLayoutPicture';
import { DriftBadge } from '../DriftBadge';
import { PoolFigures } from './PoolFigures';

/**
 * What the component holds of the pool, by its allocations' figures (the
 * card's): the units its pool's ledger gives it and their cost, or, when
 * the ledger gives it none (a workload placed there by its selector), what
 * its pods use and that nothing is priced.
 */
function componentShareText(
  allocations: readonly GpuAllocation[],
  resourceName: string,
): string {
  const held = allocations.reduce((sum, a) => sum + a.unitsHeld, 0);
  const cents = allocations.reduce(
    (sum, a) => sum + Math.round(a.usdPerMonth * 100),
    0,
  );
  if (held > 0) {
    return `This component: ${held} ${resourceName}, ${formatUsd(cents / 100)} per month`;
  }
  const used = allocations.reduce(
    (sum, a) => sum + a.replicas * a.perReplica,
    0,
  );
  return `This component: ${used} ${resourceName} in use, none held in the pool’s ledger: ${formatUsd(cents / 100)} per month`;
}

/**
 * Capacity vs allocated of one pool, what its GPUs did (live), its nodes'
 * cost, its consumers and its MIG layout.
 */
export function PoolCard(props: {
  pool: PoolSummary;
  entityRef: string;
  /** The component's allocations on the pool (the card's rows): what "This component" says. */
  allocations: readonly GpuAllocation[];
  /** Its cluster's live status, when live data is configured for it. */
  live?: LiveDataStatus;
}) {
  const { pool, entityRef, allocations, live } = props;
  const theme = useTheme();
  const model = pool.gpuModel
    ? findModel(builtinCatalog, pool.gpuModel)
    : undefined;
  const usage = poolUsage(pool);
  const { cost } = pool;
  return (
    <InfoCard
      title={pool.name}
      subheader={`${pool.cluster} · ${
        model?.displayName ?? pool.gpuModel ?? 'any GPU'
      } · ${pool.sharingMode} · ${pool.unitsPerGpu} per GPU · ${pool.instanceTypes.join(
        ', ',
      )}`}
    >
      <Box data-testid={`gpu-pool-${pool.name}`}>
        <Bar
          fraction={usage.fraction}
          color={
            usage.overLimit
              ? theme.palette.error.main
              : theme.palette.primary.main
          }
          label={`Pool usage: ${usage.text}`}
        />
        <Typography variant="body2" data-testid="pool-usage">
          {usage.text}
        </Typography>
        <PoolFigures pool={pool} live={live} />
        {pool.drift && <DriftBadge findings={pool.drift} />}
        <Typography variant="body2" data-testid="pool-nodes-cost">
          {cost.nodes === 0
            ? 'No nodes needed: $0.00 per month'
            : `${cost.nodes} × ${cost.instanceType ?? 'node'} = ${formatUsd(
                cost.usdPerMonth,
              )} per month, of which ${formatUsd(cost.idleUsdPerMonth)} unallocated (${
                cost.idleUnits
              } of ${cost.capacityUnits} ${pool.resourceName} free)`}
        </Typography>
        {allocations.length > 0 && (
          <Typography variant="body2" color="textSecondary">
            {componentShareText(allocations, pool.resourceName)}
          </Typography>
        )}
        <Box mt={1} mb={1} aria-label="Who pays for the pool's nodes">
          {pool.consumers.map(c => (
            <Chip
              key={c.id}
              size="small"
              label={`${c.id}: ${c.units} · ${formatUsd(c.usdPerMonth)}`}
              color={c.entityRef === entityRef ? 'primary' : 'default'}
              style={{ marginRight: 4, marginBottom: 4 }}
            />
          ))}
          {pool.otherConsumers && (
            <Chip
              size="small"
              variant="outlined"
              label={`${pool.otherConsumers.count} other request(s): ${
                pool.otherConsumers.units
              } · ${formatUsd(pool.otherConsumers.usdPerMonth)}`}
              style={{ marginRight: 4, marginBottom: 4 }}
            />
          )}
          {cost.idleUnits > 0 && (
            <Chip
              size="small"
              variant="outlined"
              label={`unallocated: ${cost.idleUnits} · ${formatUsd(
                cost.idleUsdPerMonth,
              )}`}
              style={{ marginRight: 4, marginBottom: 4 }}
            />
          )}
        </Box>
        {pool.migLayout && <MigLayoutPicture layout={pool.migLayout} />}
      </Box>
    </InfoCard>
  );
}

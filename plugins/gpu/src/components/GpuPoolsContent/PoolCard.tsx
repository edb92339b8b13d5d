import { InfoCard } from '@backstage/core-components';
import {
  builtinCatalog,
  findModel,
  poolUsage,
  type GpuAllocation,
  type LiveDataStatus,
  type PoolSummary,
} from '@gpu-gitops/plugin-gpu-common';
import { Box, Typography, useTheme } from '@material-ui/core';
import { Bar } from '../bars/Bar';
import { MigLayoutPicture } from './MigLayoutPicture';
import { DriftBadge } from '../DriftBadge';
import { PoolConsumerChips } from './PoolConsumerChips';
import { PoolFigures } from './PoolFigures';
import {
  componentShareText,
  poolNodesCostText,
  poolSubheader,
} from './poolCardText';

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
  return (
    <InfoCard title={pool.name} subheader={poolSubheader(pool, model)}>
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
          {poolNodesCostText(pool)}
        </Typography>
        {allocations.length > 0 && (
          <Typography variant="body2" color="textSecondary">
            {componentShareText(allocations, pool.resourceName)}
          </Typography>
        )}
        <PoolConsumerChips pool={pool} entityRef={entityRef} />
        {pool.migLayout && <MigLayoutPicture layout={pool.migLayout} />}
      </Box>
    </InfoCard>
  );
}

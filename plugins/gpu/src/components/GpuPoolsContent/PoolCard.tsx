import { InfoCard } from '@backstage/core-components';
import {
  builtinCatalog,
  findModel,
  type PoolSummary,
} from '@gpu-gitops/plugin-gpu-common';
import { Box, Chip, Typography, useTheme } from '@material-ui/core';
import { Bar } from '../bars/Bar';
import { MigLayoutPicture } from './MigLayoutPicture';

/** Capacity vs allocated of one pool, its consumers and its MIG layout. */
export function PoolCard(props: { pool: PoolSummary; entityRef: string }) {
  const { pool, entityRef } = props;
  const theme = useTheme();
  const model = pool.gpuModel
    ? findModel(builtinCatalog, pool.gpuModel)
    : undefined;
  const over = pool.capacity !== undefined && pool.allocated > pool.capacity;
  const usage =
    pool.capacity === undefined
      ? `${pool.allocated} ${pool.resourceName} allocated, no capacity limit`
      : `${pool.allocated} of ${pool.capacity} ${pool.resourceName} allocated`;
  const mine = pool.consumers
    .filter(c => c.entityRef === entityRef)
    .reduce((sum, c) => sum + c.units, 0);
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
          fraction={usedFraction(pool)}
          color={over ? theme.palette.error.main : theme.palette.primary.main}
          label={`Pool usage: ${usage}`}
        />
        <Typography variant="body2">
          {usage}
          {over ? ' — over capacity: new pods stay pending' : ''}
        </Typography>
        {mine > 0 && (
          <Typography variant="body2" color="textSecondary">
            This component: {mine} {pool.resourceName}
          </Typography>
        )}
        <Box mt={1} mb={1}>
          {pool.consumers.map(c => (
            <Chip
              key={c.id}
              size="small"
              label={`${c.id}: ${c.units}`}
              color={c.entityRef === entityRef ? 'primary' : 'default'}
              style={{ marginRight: 4, marginBottom: 4 }}
            />
          ))}
        </Box>
        {pool.migLayout && <MigLayoutPicture layout={pool.migLayout} />}
      </Box>
    </InfoCard>
  );
}

/** Allocated over capacity; an unlimited pool in use shows a full bar. */
function usedFraction(pool: PoolSummary): number {
  if (pool.capacity) return pool.allocated / pool.capacity;
  return pool.allocated > 0 ? 1 : 0;
}

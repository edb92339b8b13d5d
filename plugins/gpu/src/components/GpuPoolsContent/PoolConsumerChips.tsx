import type { PoolSummary } from '@gpu-gitops/plugin-gpu-common';
import { Box, Chip } from '@material-ui/core';
import { formatUsd } from '../format/format';

const CHIP_SPACING = { marginRight: 4, marginBottom: 4 };

/**
 * Who pays for the pool's nodes: each consumer (the component's own
 * highlighted), the other requests together, and the unallocated part.
 */
export function PoolConsumerChips(props: {
  pool: PoolSummary;
  entityRef: string;
}) {
  const { pool, entityRef } = props;
  const { cost } = pool;
  return (
    <Box mt={1} mb={1} aria-label="Who pays for the pool's nodes">
      {pool.consumers.map(c => (
        <Chip
          key={c.id}
          size="small"
          label={`${c.id}: ${c.units} · ${formatUsd(c.usdPerMonth)}`}
          color={c.entityRef === entityRef ? 'primary' : 'default'}
          style={CHIP_SPACING}
        />
      ))}
      {pool.otherConsumers && (
        <Chip
          size="small"
          variant="outlined"
          label={`${pool.otherConsumers.count} other request(s): ${
            pool.otherConsumers.units
          } · ${formatUsd(pool.otherConsumers.usdPerMonth)}`}
          style={CHIP_SPACING}
        />
      )}
      {cost.idleUnits > 0 && (
        <Chip
          size="small"
          variant="outlined"
          label={`unallocated: ${cost.idleUnits} · ${formatUsd(
            cost.idleUsdPerMonth,
          )}`}
          style={CHIP_SPACING}
        />
      )}
    </Box>
  );
}

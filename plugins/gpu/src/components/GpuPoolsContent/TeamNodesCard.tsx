import { InfoCard } from '@backstage/core-components';
import { allocationPoolLabel } from '@gpu-gitops/plugin-gpu-common';
import { Box, Typography } from '@material-ui/core';
import { formatUsd } from '../format/format';
import type { ComponentTeamNodes } from './componentPlaces';

/**
 * The team's own GPU nodes a component's workloads land on (a hand-written
 * NodePool, NFD-labelled servers): named as the card names them, with what
 * each workload runs there and the card's cost — no pool of the product's
 * sizes or prices these nodes, so the GPU page lists them nowhere.
 */
export function TeamNodesCard(props: { place: ComponentTeamNodes }) {
  const { cluster, allocations } = props.place;
  const nodes = allocations[0].teamNodes ?? [];
  return (
    <InfoCard
      title={nodes.join(', ')}
      subheader={`${cluster} · the team's own GPU nodes`}
    >
      <Box data-testid={`gpu-team-nodes-${cluster}-${nodes.join('-')}`}>
        <Typography variant="body2" color="textSecondary">
          {allocationPoolLabel(allocations[0])}
        </Typography>
        {allocations.map(a => (
          <Typography key={a.id} variant="body2">
            {`${a.id}: ${a.replicas} × ${a.perReplica} ${a.resourceName}, ${formatUsd(a.usdPerMonth)} per month`}
          </Typography>
        ))}
        <Typography
          variant="caption"
          color="textSecondary"
          component="p"
          data-testid="team-nodes-note"
        >
          Nothing is counted or priced on these nodes: no pool of the product’s
          sizes them, so the GPU page lists them under no pool.
        </Typography>
      </Box>
    </InfoCard>
  );
}

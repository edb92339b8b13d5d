import { Box, Chip, Tooltip, Typography } from '@material-ui/core';
import type { DriftFinding } from '@gpu-gitops/plugin-gpu-common';

/**
 * Where the cluster differs from Git for a request: a badge with the first
 * finding in words (what a reviewer needs to act), and every finding with
 * its pods' scheduling events in the tooltip.
 */
export function DriftBadge(props: { findings: DriftFinding[] }) {
  const { findings } = props;
  if (findings.length === 0) return null;
  const details = (
    <>
      {findings.map(f => (
        <Box key={`${f.kind}:${f.object}`} mb={0.5}>
          <Typography variant="caption" display="block">
            {f.object}: {f.message}
          </Typography>
          {(f.events ?? []).map(event => (
            <Typography key={event} variant="caption" display="block">
              · {event}
            </Typography>
          ))}
        </Box>
      ))}
    </>
  );
  return (
    <Box data-testid="gpu-allocation-drift" mt={0.5}>
      <Tooltip title={details}>
        <Chip
          size="small"
          label={findings.length === 1 ? 'drift' : `drift ×${findings.length}`}
          color="secondary"
          style={{ height: 18 }}
        />
      </Tooltip>{' '}
      <Typography variant="caption">{findings[0].message}</Typography>
    </Box>
  );
}

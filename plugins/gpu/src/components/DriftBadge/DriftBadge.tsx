import { Box, Chip, Tooltip, Typography } from '@material-ui/core';
import type { DriftFinding } from '@gpu-gitops/plugin-gpu-common';

/**
 * Where the cluster differs from Git for a request or a pool: a badge with
 * the first finding in words (what a platform engineer needs to act; not
 * with `compact`, in a table cell), and every finding with its pods'
 * scheduling events in the tooltip.
 */
export function DriftBadge(props: {
  findings: DriftFinding[];
  compact?: boolean;
}) {
  const { findings, compact } = props;
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
    <Box data-testid="gpu-drift" mt={compact ? 0 : 0.5}>
      <Tooltip title={details}>
        <Chip
          size="small"
          label={findings.length === 1 ? 'drift' : `drift ×${findings.length}`}
          color="secondary"
          style={{ height: 18 }}
        />
      </Tooltip>
      {!compact && (
        <Typography variant="caption"> {findings[0].message}</Typography>
      )}
    </Box>
  );
}

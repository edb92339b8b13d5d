import { Box, Chip, Tooltip, Typography, useTheme } from '@material-ui/core';
import type { AllocationUtilization } from '@gpu-gitops/plugin-gpu-common';
import { formatGiB } from '../format/format';
import { Bar } from './Bar';

/**
 * What a replica's GPU really used over the live-data window (p95 of VRAM
 * against what it was given), its engine activity, and a badge when it
 * idles or uses more than it holds. Figures of a shared GPU are the whole
 * GPU's, and say so: the exporter cannot split them per replica.
 */
export function UsedBar(props: { utilization: AllocationUtilization }) {
  const theme = useTheme();
  const u = props.utilization;
  if (u.attribution === 'none') {
    return (
      <Typography
        variant="caption"
        color="textSecondary"
        display="block"
        data-testid="gpu-allocation-used"
        title={u.reason}
      >
        no measured use ({u.window})
      </Typography>
    );
  }
  const used = u.vramP95MiB ?? 0;
  const perGpu = u.attribution === 'per-gpu';
  const text = `used ${formatGiB(used)} p95${
    u.vramPeakMiB !== undefined ? `, peak ${formatGiB(u.vramPeakMiB)}` : ''
  }${perGpu ? ' per GPU (shared)' : ''}${
    u.active !== undefined ? ` · ${Math.round(u.active * 100)} % busy` : ''
  }${u.smActive !== undefined ? ` · SM ${Math.round(u.smActive * 100)} %` : ''}`;
  const badge =
    u.status === 'idle' || u.status === 'oversubscribed' ? u.status : undefined;
  return (
    <Box data-testid="gpu-allocation-used">
      <Bar
        fraction={perGpu ? 1 : used / u.vramAllottedMiB}
        color={
          u.status === 'oversubscribed'
            ? theme.palette.error.main
            : theme.palette.info.main
        }
        striped={perGpu}
        label={`VRAM used over ${u.window}: ${text}; ${u.reason}`}
      />
      <Typography variant="caption">{text}</Typography>
      {badge && (
        <Tooltip title={u.reason}>
          <Chip
            size="small"
            label={badge}
            color={badge === 'oversubscribed' ? 'secondary' : 'default'}
            data-testid="gpu-allocation-badge"
            style={{ marginLeft: 4, height: 18 }}
          />
        </Tooltip>
      )}
    </Box>
  );
}

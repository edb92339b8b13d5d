import { Box, Typography, useTheme } from '@material-ui/core';
import { Bar } from './Bar';
import { formatReplicaGpuShare } from '../format/format';

/**
 * What a replica holds of one physical GPU (a full bar for one GPU or
 * more), and for MIG the compute its instance runs on, in words beside it.
 */
export function ShareBar(props: { share: number; computeShare?: number }) {
  const theme = useTheme();
  const text = formatReplicaGpuShare({
    gpuShare: props.share,
    computeShare: props.computeShare,
  });
  return (
    <Box>
      <Bar
        fraction={props.share}
        color={theme.palette.primary.main}
        label={`GPU per replica: ${text}`}
      />
      <Typography variant="caption">{text}</Typography>
    </Box>
  );
}

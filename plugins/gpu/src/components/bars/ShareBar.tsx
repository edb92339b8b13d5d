import { Box, Typography, useTheme } from '@material-ui/core';
import { Bar } from './Bar';
import { formatGpuShare } from '../format/format';

/** A replica's share of one physical GPU (a full bar for one GPU or more). */
export function ShareBar(props: { share: number }) {
  const theme = useTheme();
  const text = formatGpuShare(props.share);
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

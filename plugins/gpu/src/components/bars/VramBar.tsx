import { Box, Typography, useTheme } from '@material-ui/core';
import { formatGiB } from '../format/format';
import { Bar } from './Bar';

/**
 * VRAM a replica may use, against the memory of the whole GPU. Solid green
 * when the sharing mode isolates it (exclusive, MIG, MPS pinned limit),
 * striped orange when it does not (time-slicing: other replicas can take it).
 */
export function VramBar(props: {
  vramMiB: number;
  guaranteed: boolean;
  /** Memory of one GPU of the model; unknown models show a full bar. */
  gpuMemoryMiB?: number;
}) {
  const theme = useTheme();
  const amount = formatGiB(props.vramMiB);
  const text = props.guaranteed
    ? `${amount} guaranteed`
    : `${amount} not guaranteed`;
  const of = props.gpuMemoryMiB ? ` of ${formatGiB(props.gpuMemoryMiB)}` : '';
  return (
    <Box>
      <Bar
        fraction={props.gpuMemoryMiB ? props.vramMiB / props.gpuMemoryMiB : 1}
        color={
          props.guaranteed
            ? theme.palette.success.main
            : theme.palette.warning.main
        }
        striped={!props.guaranteed}
        label={`VRAM per replica: ${text}${of}`}
      />
      <Typography variant="caption">{text}</Typography>
    </Box>
  );
}

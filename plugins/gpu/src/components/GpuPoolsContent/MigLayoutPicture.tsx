import type { MigGpuPicture } from '@gpu-gitops/plugin-gpu-common';
import { Box, makeStyles, Typography } from '@material-ui/core';

const useStyles = makeStyles(theme => ({
  gpu: {
    display: 'grid',
    gap: 2,
    padding: 2,
    border: `1px solid ${theme.palette.divider}`,
    borderRadius: 4,
    minHeight: 36,
  },
  slice: {
    gridRow: 1,
    background: theme.palette.action.hover,
    borderRadius: 2,
  },
  instance: {
    gridRow: 1,
    display: 'flex',
    alignItems: 'center',
    justifyContent: 'center',
    background: theme.palette.primary.main,
    color: theme.palette.primary.contrastText,
    borderRadius: 2,
    fontSize: 12,
    padding: theme.spacing(0.5),
  },
}));

/**
 * One MIG-partitioned GPU drawn as its memory slices, each GPU instance a
 * block over the slices it occupies (`[start, start + memorySlices)`), so a
 * reader sees which profile sits where and which slices stay free.
 */
export function MigLayoutPicture(props: { layout: MigGpuPicture }) {
  const classes = useStyles();
  const { memorySlices, instances } = props.layout;
  const used = new Set<number>();
  for (const i of instances) {
    for (let s = i.start; s < i.start + i.memorySlices; s++) used.add(s);
  }
  const free = Array.from({ length: memorySlices }, (_, s) => s).filter(
    s => !used.has(s),
  );
  return (
    <Box>
      <Typography variant="caption" color="textSecondary">
        MIG layout of each GPU ({memorySlices} memory slices
        {free.length > 0 ? `, ${free.length} free` : ''})
      </Typography>
      <div
        className={classes.gpu}
        style={{ gridTemplateColumns: `repeat(${memorySlices}, 1fr)` }}
        aria-label="MIG layout"
        role="list"
      >
        {free.map(s => (
          <div
            key={`free-${s}`}
            className={classes.slice}
            style={{ gridColumn: `${s + 1} / span 1` }}
            role="listitem"
            aria-label={`free slice ${s}`}
          />
        ))}
        {instances.map(i => (
          <div
            key={`${i.profile}-${i.start}`}
            className={classes.instance}
            style={{ gridColumn: `${i.start + 1} / span ${i.memorySlices}` }}
            role="listitem"
            aria-label={`${i.profile} on slices ${i.start}-${
              i.start + i.memorySlices - 1
            }`}
          >
            {i.profile}
          </div>
        ))}
      </div>
    </Box>
  );
}

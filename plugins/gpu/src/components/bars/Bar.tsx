import { makeStyles } from '@material-ui/core';

const useStyles = makeStyles(theme => ({
  track: {
    position: 'relative',
    height: 10,
    minWidth: 80,
    borderRadius: 5,
    background: theme.palette.action.hover,
    overflow: 'hidden',
  },
  fill: {
    height: '100%',
    borderRadius: 5,
  },
  striped: {
    // Stripes say "not isolated": another tenant can take this memory.
    backgroundImage:
      'repeating-linear-gradient(45deg, rgba(255,255,255,.35) 0 4px, transparent 4px 8px)',
  },
}));

/**
 * A horizontal bar. `fraction` is clamped to [0, 1]; the label is what a
 * screen reader (and a test) reads, the bar is only its picture.
 */
export function Bar(props: {
  fraction: number;
  label: string;
  color: string;
  striped?: boolean;
}) {
  const classes = useStyles();
  const width = `${Math.max(0, Math.min(1, props.fraction)) * 100}%`;
  return (
    <div className={classes.track} role="img" aria-label={props.label}>
      <div
        className={`${classes.fill} ${props.striped ? classes.striped : ''}`}
        style={{ width, background: props.color }}
      />
    </div>
  );
}

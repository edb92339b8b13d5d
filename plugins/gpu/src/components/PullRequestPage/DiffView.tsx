import { makeStyles } from '@material-ui/core';

const useStyles = makeStyles(theme => ({
  diff: {
    fontFamily: 'monospace',
    fontSize: 12,
    lineHeight: 1.5,
    overflowX: 'auto',
    margin: 0,
    padding: theme.spacing(1),
    background: theme.palette.background.default,
    border: `1px solid ${theme.palette.divider}`,
  },
  added: { background: 'rgba(46, 160, 67, 0.18)', display: 'block' },
  removed: { background: 'rgba(248, 81, 73, 0.18)', display: 'block' },
  file: { fontWeight: 'bold', display: 'block', marginTop: theme.spacing(1) },
  hunk: { color: theme.palette.text.secondary, display: 'block' },
  line: { display: 'block' },
}));

/** A unified diff as git prints it, lines coloured by what they do. */
export function DiffView(props: { diff: string }) {
  const classes = useStyles();
  const lines = props.diff.replace(/\n$/, '').split('\n');
  const classOf = (line: string) => {
    if (line.startsWith('diff --git ')) return classes.file;
    if (line.startsWith('+++') || line.startsWith('---')) return classes.hunk;
    if (line.startsWith('@@')) return classes.hunk;
    if (line.startsWith('+')) return classes.added;
    if (line.startsWith('-')) return classes.removed;
    return classes.line;
  };
  return (
    <pre className={classes.diff} aria-label="Diff">
      {lines.map((line, index) => (
        <span key={index} className={classOf(line)}>
          {line || ' '}
        </span>
      ))}
    </pre>
  );
}

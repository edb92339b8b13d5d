import { makeStyles } from '@material-ui/core';

/** An amount of money, or a header, reads badly broken over two lines. */
export const NO_WRAP = { whiteSpace: 'nowrap' } as const;

/**
 * Four columns, so the card reads whole in a half-width overview column
 * (1280 px screens and up) and the cost is never scrolled out of sight:
 * the pool goes under the request, the two per-replica bars stack.
 * Lines break between words only: Backstage's theme gives table cells
 * `word-break: break-word`, which split "Replicas" into "Rep lica s"; a
 * pool or cluster name never breaks at its hyphens. A table still wider
 * than its card (a phone) scrolls.
 */
export const useAllocationCardStyles = makeStyles(theme => ({
  scroll: { overflowX: 'auto' },
  table: {
    '& th, & td': {
      wordBreak: 'normal',
      // Half MUI's horizontal cell padding: the columns' content, not their
      // gutters, gets the width of a half-width card.
      padding: theme.spacing(0.75, 1),
    },
    '& th:first-child, & td:first-child': { paddingLeft: theme.spacing(2) },
  },
  name: { whiteSpace: 'nowrap' },
  bars: {
    minWidth: 96,
    '& > * + *': { marginTop: theme.spacing(1) },
  },
}));

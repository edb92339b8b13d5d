import { ResponseErrorPanel } from '@backstage/core-components';
import {
  describeCost,
  describeExistingWorkload,
  describeIssue,
  formatGiB,
  formatRequestedGiB,
  type InputIssue,
  type PlanPreviewResponse,
  type QuotaUse,
} from '@gpu-gitops/plugin-gpu-common';
import { Box, makeStyles, Typography } from '@material-ui/core';
import { GpuPlanRejectedError } from '../api/GpuPlanRejectedError';
import { formatReplicaGpuShare } from '../components/format/format';
import { quotaText } from './quotaText';

const useStyles = makeStyles(theme => ({
  box: {
    border: `1px solid ${theme.palette.divider}`,
    borderRadius: 4,
    padding: theme.spacing(1.5),
    marginTop: theme.spacing(2),
  },
  fits: { color: theme.palette.success.main, fontWeight: 600 },
  noFit: { color: theme.palette.error.main, fontWeight: 600 },
  warning: { color: theme.palette.warning.dark },
  quota: { marginTop: theme.spacing(1) },
  overQuota: { marginTop: theme.spacing(1), color: theme.palette.error.main },
  facts: {
    display: 'grid',
    gridTemplateColumns: 'max-content 1fr',
    columnGap: theme.spacing(2),
    margin: 0,
    '& dt': { color: theme.palette.text.secondary },
    '& dd': { margin: 0 },
  },
}));

/** Policy refusals (`policy-model`, `policy-sharing`, `policy-quota`) are the team's rules, not the hardware's. */
const isPolicyIssue = (issue: InputIssue) => issue.rule.startsWith('policy-');

/** Why Review is blocked: the scaffolder's field validation refuses the same request. */
const BLOCKED = 'Review and Create stay blocked until this is fixed.';

type Classes = ReturnType<typeof useStyles>;

/** The request cannot be planned yet: what it still lacks. */
function incompleteContent(problems: string[], classes: Classes) {
  return (
    <>
      <Typography className={classes.noFit}>Incomplete request</Typography>
      {problems.map(p => (
        <Typography key={p} variant="body2">
          {p}
        </Typography>
      ))}
      <Typography variant="body2" color="textSecondary">
        {BLOCKED}
      </Typography>
    </>
  );
}

/** The plan refused the request: the team's policy or the hardware, and each issue. */
function rejectedContent(error: GpuPlanRejectedError, classes: Classes) {
  return (
    <>
      <Typography className={classes.noFit}>
        {error.issues.some(isPolicyIssue)
          ? 'Not allowed by the team policy'
          : 'Does not fit'}
      </Typography>
      {/* The message repeats the issues; show it only when there are none. */}
      {error.issues.length === 0 ? (
        <Typography variant="body2">{error.message}</Typography>
      ) : (
        <ul aria-label="Plan issues">
          {error.issues.map(issue => (
            <li key={`${issue.path}-${issue.rule}`}>
              <Typography variant="body2">{describeIssue(issue)}</Typography>
            </li>
          ))}
        </ul>
      )}
      <Typography variant="body2" color="textSecondary">
        {BLOCKED}
      </Typography>
    </>
  );
}

/** The facts of the existing workload the request patches, and where it runs now. */
function existingWorkloadFacts(
  existing: NonNullable<PlanPreviewResponse['existing']>,
  replicas: number,
  classes: Classes,
) {
  return (
    <>
      <dt>Workload</dt>
      <dd>
        {describeExistingWorkload(existing, replicas, existing.gpuContainer)}
      </dd>
      {existing.placementWarning && (
        <>
          <dt>Where it runs now</dt>
          <dd className={classes.warning}>⚠ {existing.placementWarning}</dd>
        </>
      )}
    </>
  );
}

/** The sharing of the plan in words: mode, MIG profile, slices per GPU. */
function sharingText(sharing: PlanPreviewResponse['plan']['sharing']) {
  return [
    sharing.mode,
    sharing.migProfile,
    sharing.slicesPerGpu ? `${sharing.slicesPerGpu} per GPU` : '',
  ]
    .filter(Boolean)
    .join(', ');
}

/** The request fits: the plan's facts, the pools considered and its warnings. */
function plannedContent(preview: PlanPreviewResponse, classes: Classes) {
  const { plan, existing } = preview;
  const cost = describeCost(
    plan.cost,
    `${plan.request.namespace}/${plan.request.name}`,
    plan.resourceName,
  );
  return (
    <>
      <Typography className={classes.fits}>
        Fits: {plan.replicas} × {plan.resourcePerReplica} {plan.resourceName}
      </Typography>
      <dl className={classes.facts} aria-label="Plan preview">
        {existing && existingWorkloadFacts(existing, plan.replicas, classes)}
        <dt>Pool</dt>
        <dd>
          {plan.pool.name} ({plan.pool.reused ? 'existing' : 'new'},{' '}
          {plan.pool.gpuModel})
        </dd>
        <dt>Sharing</dt>
        <dd>{sharingText(plan.sharing)}</dd>
        <dt>GPU per replica</dt>
        <dd>{formatReplicaGpuShare(plan.perReplica)}</dd>
        <dt>VRAM per replica</dt>
        <dd>
          {formatRequestedGiB(plan.perReplica.vramGiB)} asked:{' '}
          {formatGiB(plan.perReplica.memoryMiB)}{' '}
          {plan.perReplica.vramGuaranteed ? 'guaranteed' : 'NOT guaranteed'}
        </dd>
        <dt>Why this pool</dt>
        <dd data-testid="gpu-plan-why-pool">{plan.decisions.pool.reason}</dd>
        <dt>Why this slicing</dt>
        <dd>{plan.decisions.sharing.reason}</dd>
        <dt>Cost</dt>
        <dd>{cost.attributed}</dd>
        <dt>Added to the bill</dt>
        <dd>{cost.marginal}</dd>
        <dt>Pool nodes</dt>
        <dd>{cost.pool}</dd>
      </dl>
      <ul aria-label="Pools considered">
        {plan.decisions.pool.considered.map(c => (
          <li key={c.option}>
            <Typography variant="body2">
              {c.chosen ? '✓' : '✗'} {c.option}: {c.reason}
            </Typography>
          </li>
        ))}
      </ul>
      {plan.warnings.map(w => (
        <Typography key={w} variant="body2" className={classes.warning}>
          ⚠ {w}
        </Typography>
      ))}
    </>
  );
}

/**
 * The live plan of the request being typed: fits or not (and why not, in the
 * form's words), what it costs, and the team's quota with it. It shows what
 * the actions will do: the backend plans with the same policy and quota.
 */
export function PlanPreview(props: {
  loading: boolean;
  preview?: PlanPreviewResponse;
  error?: Error;
  problems: string[];
  /** The owner's quota use on the cluster (with this request, once planned). */
  quota?: QuotaUse;
}) {
  const classes = useStyles();
  const { preview, error, problems, quota } = props;

  let content: JSX.Element;
  if (problems.length > 0) {
    content = incompleteContent(problems, classes);
  } else if (props.loading && !preview && !error) {
    content = <Typography variant="body2">Planning…</Typography>;
  } else if (error instanceof GpuPlanRejectedError) {
    content = rejectedContent(error, classes);
  } else if (error) {
    content = (
      <ResponseErrorPanel error={error} title="Could not preview the plan" />
    );
  } else if (preview) {
    content = plannedContent(preview, classes);
  } else {
    content = <Typography variant="body2">No plan yet.</Typography>;
  }

  return (
    <Box
      className={classes.box}
      aria-live="polite"
      data-testid="gpu-plan-preview"
    >
      <Typography variant="subtitle2">Plan preview</Typography>
      {content}
      {quota && (
        <Typography
          variant="body2"
          data-testid="gpu-quota"
          className={
            quota.quota !== undefined &&
            quota.used + quota.requested > quota.quota + 1e-9
              ? classes.overQuota
              : classes.quota
          }
        >
          {quotaText(quota)}
        </Typography>
      )}
    </Box>
  );
}

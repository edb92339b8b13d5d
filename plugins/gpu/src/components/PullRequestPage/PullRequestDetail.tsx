import { Fragment, useState } from 'react';
import { stringifyEntityRef } from '@backstage/catalog-model';
import { EntityRefLink } from '@backstage/plugin-catalog-react';
import {
  InfoCard,
  Link,
  MarkdownContent,
  Progress,
  ResponseErrorPanel,
  WarningPanel,
} from '@backstage/core-components';
import { useApi } from '@backstage/core-plugin-api';
import { usePermission } from '@backstage/plugin-permission-react';
import {
  GPU_PULL_REQUESTS_PATH,
  gpuPullRequestClosePermission,
  gpuPullRequestMergePermission,
  type GpuPullRequestDetail,
} from '@gpu-gitops/plugin-gpu-common';
import { Box, Button, Grid, Typography } from '@material-ui/core';
import useAsyncRetry from 'react-use/esm/useAsyncRetry';
import { backendReason } from '../../api/backendReason';
import { gpuApiRef } from '../../api/GpuApi';
import { DiffView } from './DiffView';
import { MergeabilityChip } from './MergeabilityChip';
import { useRequestComponents } from './requestComponents';

type Outcome =
  | { kind: 'merged'; commit: string; baseBranch: string; indexed: boolean }
  | { kind: 'closed' }
  | { kind: 'failed'; action: 'merged' | 'closed'; message: string };

/**
 * One pull request of the local forge: its description (the same the
 * product wrote), the files and the diff, and Merge / Close for those the
 * permission policy allows (`gpu.pullRequest.merge` / `gpu.pullRequest.close`;
 * the backend checks again). Merge and close name the head shown here, so a
 * newer push is never merged unseen.
 */
export function PullRequestDetail(props: { id: string }) {
  const gpuApi = useApi(gpuApiRef);
  const { value, loading, error, retry } = useAsyncRetry(
    () => gpuApi.getPullRequest(props.id),
    [gpuApi, props.id],
  );
  const merge = usePermission({ permission: gpuPullRequestMergePermission });
  const close = usePermission({ permission: gpuPullRequestClosePermission });
  const { busy, outcome, onMerge, onClose } = usePullRequestDecision(
    props.id,
    value,
    retry,
  );

  if (outcome && outcome.kind !== 'failed') {
    return <Decided id={props.id} outcome={outcome} request={value?.request} />;
  }
  if (loading) return <Progress />;
  if (error || !value) {
    return (
      <ResponseErrorPanel
        error={error ?? new Error('not found')}
        title="Could not load the pull request"
      />
    );
  }

  const conflicts = value.mergeable && !value.mergeable.clean;
  return (
    <Grid container spacing={3}>
      <Grid item xs={12}>
        <Header pr={value} />
      </Grid>
      {outcome?.kind === 'failed' && (
        <Grid item xs={12}>
          <WarningPanel
            severity="error"
            title={`Not ${outcome.action}`}
            message={outcome.message}
            defaultExpanded
          />
        </Grid>
      )}
      <Grid item xs={12}>
        <DecisionButtons
          baseBranch={value.baseBranch}
          busy={busy}
          merge={merge}
          close={close}
          conflicts={!!conflicts}
          onMerge={onMerge}
          onClose={onClose}
        />
      </Grid>
      <Grid item xs={12}>
        <Description body={value.body} />
      </Grid>
      <Grid item xs={12}>
        <InfoCard
          title={`Changes (${value.files?.length ?? 0} files)`}
          subheader={
            value.diffTruncated
              ? 'The diff is cut at 512 KiB; the branch holds all of it.'
              : undefined
          }
        >
          <DiffView diff={value.diff} />
        </InfoCard>
      </Grid>
    </Grid>
  );
}

/**
 * Merging or closing the pull request: busy while the backend decides, then
 * the outcome; a refusal keeps the backend's reason and reloads the pull
 * request (what changed is what the reason is about).
 */
function usePullRequestDecision(
  id: string,
  pr: { head: string } | undefined,
  retry: () => void,
) {
  const gpuApi = useApi(gpuApiRef);
  const [busy, setBusy] = useState(false);
  const [outcome, setOutcome] = useState<Outcome | undefined>();
  const decide = async (
    attempted: 'merged' | 'closed',
    action: () => Promise<Outcome>,
  ) => {
    setBusy(true);
    try {
      setOutcome(await action());
    } catch (e) {
      setOutcome({
        kind: 'failed',
        action: attempted,
        message: backendReason(e),
      });
      retry();
    } finally {
      setBusy(false);
    }
  };
  const onMerge = () =>
    decide('merged', async () => {
      const merged = await gpuApi.mergePullRequest(id, pr!.head);
      return {
        kind: 'merged',
        commit: merged.commit,
        baseBranch: merged.baseBranch,
        indexed: merged.indexed,
      };
    });
  const onClose = () =>
    decide('closed', async () => {
      await gpuApi.closePullRequest(id, pr!.head);
      return { kind: 'closed' };
    });

  return { busy, outcome, onMerge, onClose };
}

/** Merge and Close, each disabled with the reason next to them (permission, conflicts, a decision under way). */
function DecisionButtons(props: {
  baseBranch: string;
  busy: boolean;
  merge: { allowed: boolean; loading: boolean };
  close: { allowed: boolean; loading: boolean };
  conflicts: boolean;
  onMerge: () => void;
  onClose: () => void;
}) {
  const { busy, merge, close, conflicts } = props;
  return (
    <Box display="flex" alignItems="center" flexWrap="wrap">
      <Box mr={1}>
        <Button
          variant="contained"
          color="primary"
          disabled={busy || !merge.allowed || conflicts}
          onClick={props.onMerge}
        >
          Merge into {props.baseBranch}
        </Button>
      </Box>
      <Box mr={2}>
        <Button
          variant="outlined"
          disabled={busy || !close.allowed}
          onClick={props.onClose}
        >
          Close
        </Button>
      </Box>
      <Typography variant="body2" color="textSecondary">
        {whyNot(merge, close, conflicts)}
      </Typography>
    </Box>
  );
}

/**
 * The pull request's body. A labelled region so a reader (and a test) can
 * wait for it: MarkdownContent renders lazily, after the heading and the diff.
 */
function Description(props: { body: string }) {
  return (
    <InfoCard title="Description">
      <Box component="section" aria-label="Description">
        <MarkdownContent content={props.body} dialect="gfm" />
      </Box>
    </InfoCard>
  );
}

function whyNot(
  merge: { loading: boolean; allowed: boolean },
  close: { loading: boolean; allowed: boolean },
  conflicts: boolean | undefined,
): string {
  if (merge.loading || close.loading) return '';
  if (!merge.allowed && !close.allowed) {
    return 'You may not merge or close GPU pull requests (permissions gpu.pullRequest.merge, gpu.pullRequest.close).';
  }
  if (!merge.allowed) {
    return 'You may not merge GPU pull requests (permission gpu.pullRequest.merge).';
  }
  if (conflicts) {
    return 'It does not merge cleanly: the gpu backend re-renders it on the new base within a minute; reload then.';
  }
  return '';
}

function Header(props: { pr: GpuPullRequestDetail }) {
  const { pr } = props;
  return (
    <>
      <Typography variant="h5" component="h2">
        {pr.title}
      </Typography>
      <Box display="flex" alignItems="center" flexWrap="wrap" mt={1}>
        <Typography variant="body2" color="textSecondary">
          {pr.branch} → {pr.baseBranch} · head {pr.head.slice(0, 7)}
          {pr.updatedAt
            ? ` · updated ${new Date(pr.updatedAt).toLocaleString()}`
            : ''}
        </Typography>
        <Box ml={1}>
          <MergeabilityChip
            mergeable={pr.mergeable}
            baseBranch={pr.baseBranch}
          />
        </Box>
      </Box>
    </>
  );
}

/** Whether the cards show the merge yet: the backend answers once its index has read it, or says it is still reading. */
function mergedIndexText(merged: { baseBranch: string; indexed: boolean }) {
  return merged.indexed
    ? 'The GPU allocation cards show it now.'
    : `The gpu backend is still reading ${merged.baseBranch}: the GPU allocation cards show it once it has.`;
}

function Decided(props: {
  id: string;
  outcome: Outcome;
  request?: GpuPullRequestDetail['request'];
}) {
  const { outcome } = props;
  const components = useRequestComponents(props.request);
  return (
    <Box role="status" p={2} border={1} borderColor="success.main">
      {outcome.kind === 'merged'
        ? `Merged into ${outcome.baseBranch} as ${outcome.commit.slice(0, 7)}. ${mergedIndexText(outcome)}`
        : `Closed: gpu/${props.id} is deleted, nothing was merged.`}{' '}
      {outcome.kind === 'merged' &&
        components.map(entity => (
          <Fragment key={stringifyEntityRef(entity)}>
            Its component: <EntityRefLink entityRef={entity} />.{' '}
          </Fragment>
        ))}
      <Link to={GPU_PULL_REQUESTS_PATH}>Open GPU pull requests</Link>
    </Box>
  );
}

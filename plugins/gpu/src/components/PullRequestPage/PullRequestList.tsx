import {
  EmptyState,
  InfoCard,
  Link,
  Progress,
  ResponseErrorPanel,
} from '@backstage/core-components';
import { useApi } from '@backstage/core-plugin-api';
import {
  pullRequestPageUrl,
  type GpuPullRequest,
} from '@gpu-gitops/plugin-gpu-common';
import {
  Table,
  TableBody,
  TableCell,
  TableHead,
  TableRow,
  Typography,
} from '@material-ui/core';
import useAsync from 'react-use/esm/useAsync';
import { gpuApiRef } from '../../api/GpuApi';
import { MergeabilityChip } from './MergeabilityChip';

const NO_WRAP = { whiteSpace: 'nowrap' } as const;

/** Every open GPU pull request of the GitOps repository. */
export function PullRequestList() {
  const gpuApi = useApi(gpuApiRef);
  const { value, loading, error } = useAsync(
    () => gpuApi.listPullRequests(),
    [gpuApi],
  );
  if (loading) return <Progress />;
  if (error) {
    return (
      <ResponseErrorPanel
        error={error}
        title="Could not load the GPU pull requests"
      />
    );
  }
  if (!value || value.pullRequests.length === 0) {
    return (
      <EmptyState
        missing="data"
        title="No open GPU pull requests"
        description="Every GPU request of the GitOps repository is merged or closed."
      />
    );
  }
  const linkOf = (pr: GpuPullRequest) =>
    value.reviewInApp ? pullRequestPageUrl(pr.branch) : pr.url;
  return (
    <InfoCard
      title="Open GPU pull requests"
      subheader={
        value.reviewInApp
          ? 'The local GitOps repository: review, merge or close them here.'
          : `Reviewed on ${value.forge}: each links to its pull request there.`
      }
    >
      <Table size="small" aria-label="Open GPU pull requests">
        <TableHead>
          <TableRow>
            <TableCell>Pull request</TableCell>
            <TableCell style={NO_WRAP}>Branch</TableCell>
            <TableCell style={NO_WRAP}>Files</TableCell>
            <TableCell style={NO_WRAP}>Merge</TableCell>
            <TableCell style={NO_WRAP}>Updated</TableCell>
          </TableRow>
        </TableHead>
        <TableBody>
          {value.pullRequests.map(pr => (
            <TableRow key={pr.branch} data-testid={`gpu-pr-${pr.branch}`}>
              <TableCell>
                <Link to={linkOf(pr)}>{pr.title}</Link>
              </TableCell>
              <TableCell style={NO_WRAP}>
                <Typography variant="body2">{pr.branch}</Typography>
              </TableCell>
              <TableCell>{pr.files?.length ?? ''}</TableCell>
              <TableCell>
                <MergeabilityChip
                  mergeable={pr.mergeable}
                  baseBranch={pr.baseBranch}
                />
              </TableCell>
              <TableCell style={NO_WRAP}>
                {pr.updatedAt ? new Date(pr.updatedAt).toLocaleString() : ''}
              </TableCell>
            </TableRow>
          ))}
        </TableBody>
      </Table>
    </InfoCard>
  );
}

import { Link } from '@backstage/core-components';
import { useApi } from '@backstage/core-plugin-api';
import {
  GPU_PULL_REQUESTS_PATH,
  pullRequestPageUrl,
  type GpuPullRequest,
} from '@gpu-gitops/plugin-gpu-common';
import { Box, Typography } from '@material-ui/core';
import useAsync from 'react-use/esm/useAsync';
import { gpuApiRef } from '../../api/GpuApi';

/**
 * The entity's open GPU pull requests, under its allocation: what is asked
 * for but not merged yet, each linked to where it is reviewed (the app's
 * review page on the local forge, the forge's page otherwise), and on the
 * local forge the way to every GPU pull request, open ones or not.
 */
export function GpuOpenPullRequests(props: { entityRef: string }) {
  const gpuApi = useApi(gpuApiRef);
  const { value, error } = useAsync(
    () => gpuApi.listPullRequests({ entityRef: props.entityRef }),
    [gpuApi, props.entityRef],
  );
  if (error) {
    return (
      <Typography variant="caption" color="error" display="block">
        Open GPU pull requests could not be loaded: {error.message}
      </Typography>
    );
  }
  if (!value) return null;
  const all = value.reviewInApp && (
    <Typography variant="body2" data-testid="gpu-all-pull-requests">
      <Link to={GPU_PULL_REQUESTS_PATH}>All GPU pull requests</Link>
    </Typography>
  );
  if (value.pullRequests.length === 0) {
    return all ? <Box mt={2}>{all}</Box> : null;
  }
  const linkOf = (pr: GpuPullRequest) =>
    // In-app route for the review page, so it opens in the same tab.
    value.reviewInApp ? pullRequestPageUrl(pr.branch) : pr.url;
  return (
    <Box mt={2} data-testid="gpu-open-pull-requests">
      <Typography variant="subtitle2">
        Open GPU pull requests ({value.pullRequests.length}): not in the
        allocation until merged
      </Typography>
      <ul aria-label="Open GPU pull requests" style={{ margin: 0 }}>
        {value.pullRequests.map(pr => (
          <li key={pr.branch}>
            <Link to={linkOf(pr)}>{pr.title}</Link>{' '}
            <Typography variant="caption" color="textSecondary">
              {pr.branch}
              {pr.mergeable && !pr.mergeable.clean
                ? ' · conflicts with the base'
                : ''}
            </Typography>
          </li>
        ))}
      </ul>
      {all}
    </Box>
  );
}

import {
  Content,
  Header,
  Link,
  Page,
  Progress,
  ResponseErrorPanel,
} from '@backstage/core-components';
import { useApi } from '@backstage/core-plugin-api';
import { GPU_PULL_REQUESTS_PATH } from '@gpu-gitops/plugin-gpu-common';
import { Box, Typography } from '@material-ui/core';
import { useMemo } from 'react';
import useAsync from 'react-use/esm/useAsync';
import { gpuApiRef } from '../../api/GpuApi';
import { poolRows, teamRows } from './overviewRows';
import { PoolsSection } from './PoolsSection';
import { TeamsTable } from './TeamsTable';

/**
 * The GPU page: every pool of every cluster with its capacity, allocation,
 * live use and cost, and what each team's requests cost, how much of its
 * quota they hold and which share of their cost pays for idle requests. The
 * figures are `GET /pools`'s, the ones the entity card and tab show.
 *
 * @public
 */
export function GpuOverview() {
  const api = useApi(gpuApiRef);
  const pools = useAsync(() => api.getPools(), [api]);
  // Kept across renders: the tables keep their sort while quotas load.
  const teams = useMemo(
    () => (pools.value ? teamRows(pools.value.pools) : []),
    [pools.value],
  );
  const rows = useMemo(
    () => (pools.value ? poolRows(pools.value) : []),
    [pools.value],
  );

  return (
    <Page themeId="tool">
      <Header
        title="GPUs"
        subtitle="Every GPU pool of every cluster, and what each team's requests cost"
      />
      <Content>
        <Box mb={2}>
          <Typography variant="body2">
            Counted here: what is merged. Asked for, not merged yet:{' '}
            <Link to={GPU_PULL_REQUESTS_PATH}>GPU pull requests</Link>.
          </Typography>
        </Box>
        {pools.loading && <Progress />}
        {pools.error && (
          <ResponseErrorPanel
            error={pools.error}
            title="Could not load GPU pools"
          />
        )}
        {pools.value && (
          <PoolsSection
            rows={rows}
            live={pools.value.live}
            notInGit={pools.value.notInGit}
          />
        )}
        {pools.value && <TeamsTable teams={teams} />}
      </Content>
    </Page>
  );
}

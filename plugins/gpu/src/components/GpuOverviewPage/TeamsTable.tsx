import { Table, type TableColumn } from '@backstage/core-components';
import { useApi } from '@backstage/core-plugin-api';
import type { QuotaUse } from '@gpu-gitops/plugin-gpu-common';
import { Box } from '@material-ui/core';
import useAsync from 'react-use/esm/useAsync';
import { gpuApiRef } from '../../api/GpuApi';
import { formatUsd } from '../format/format';
import type { TeamRow } from './overviewRows';
import {
  byNumber,
  contentWidths,
  dash,
  Parts,
  TABLE_OPTIONS,
} from './overviewTable';
import { quotaKey, quotasOf, quotaText } from './teamQuotas';

/** The share of a team's attributed cost its idle requests pay, for display and sorting only. */
const idleShare = (r: TeamRow) =>
  r.measured === 0 || r.usdPerMonth === 0
    ? undefined
    : r.idleUsdPerMonth / r.usdPerMonth;

/** The teams' columns, quota use as far as `quotas` has come. */
function teamColumns(
  quotas: Map<string, QuotaUse | Error> | undefined,
): TableColumn<TeamRow>[] {
  return contentWidths<TeamRow>([
    { title: 'Team', field: 'label', defaultSort: 'asc' },
    { title: 'Requests', field: 'requests', type: 'numeric' },
    {
      title: 'Attributed cost',
      field: 'usdPerMonth',
      type: 'numeric',
      render: r => <Parts parts={[formatUsd(r.usdPerMonth)]} />,
    },
    {
      title: 'Quota use',
      field: 'owner',
      sorting: false,
      render: r =>
        r.owner ? (
          <Parts
            parts={r.clusters.map(
              (c, i) =>
                `${i > 0 ? '· ' : ''}${quotaText(quotas?.get(quotaKey(r.owner!, c)), c)}`,
            )}
          />
        ) : (
          dash
        ),
    },
    {
      title: 'Idle share',
      field: 'idleUsdPerMonth',
      type: 'numeric',
      customSort: byNumber(idleShare),
      render: r => {
        const share = idleShare(r);
        return share === undefined ? (
          dash
        ) : (
          <Parts
            parts={[
              formatUsd(r.idleUsdPerMonth),
              `(${(share * 100).toFixed(1)} %)`,
            ]}
          />
        );
      },
    },
  ]);
}

/**
 * What each team's requests cost, how much of its quota they hold and which
 * share of their cost pays for idle requests; quotas are asked once the
 * teams are known and filled in as they come.
 */
export function TeamsTable(props: { teams: TeamRow[] }) {
  const api = useApi(gpuApiRef);
  const quotas = useAsync(() => quotasOf(api, props.teams), [api, props.teams]);
  return (
    <Box mt={3} data-testid="gpu-overview-teams">
      <Table<TeamRow>
        title="Teams"
        subtitle="Attributed cost by the owner of each request's catalog entity; quota use in physical GPUs on each cluster (GET /quota); idle share: the cost of its requests whose GPUs were idle (engine under 5 %)"
        options={TABLE_OPTIONS}
        columns={teamColumns(quotas.value)}
        data={props.teams}
      />
    </Box>
  );
}

import {
  EmptyState,
  InfoCard,
  Link,
  Progress,
  ResponseErrorPanel,
} from '@backstage/core-components';
import { useApi } from '@backstage/core-plugin-api';
import { stringifyEntityRef } from '@backstage/catalog-model';
import { useEntity } from '@backstage/plugin-catalog-react';
import {
  allocationPoolLabel,
  builtinCatalog,
  daysUntilExpiry,
  expiryLabel,
  findModel,
  type AllocationResponse,
  type GpuAllocation,
  type PoolCostSummary,
  type RightSizeSuggestion,
} from '@gpu-gitops/plugin-gpu-common';
import {
  Table,
  TableBody,
  TableCell,
  TableHead,
  TableRow,
  Typography,
  makeStyles,
} from '@material-ui/core';
import { Fragment } from 'react';
import useAsync from 'react-use/esm/useAsync';
import { gpuApiRef } from '../../api/GpuApi';
import { ShareBar } from '../bars/ShareBar';
import { UsedBar } from '../bars/UsedBar';
import { VramBar } from '../bars/VramBar';
import { GpuOpenPullRequests } from '../GpuOpenPullRequests';
import { RequestGpusButton } from '../RequestGpus';
import { changeGpusFormData } from '../RequestGpus/changeGpusFormData';
import { requestGpusUrl } from '../RequestGpus/requestGpusFormData';
import { formatGiB, formatUsd } from '../format/format';
import { noLiveDataText } from '../format/noLiveDataText';
import { DriftBadge } from '../DriftBadge';

/** An amount of money, or a header, reads badly broken over two lines. */
const NO_WRAP = { whiteSpace: 'nowrap' } as const;
/**
 * Four columns, so the card reads whole in a half-width overview column
 * (1280 px screens and up) and the cost is never scrolled out of sight:
 * the pool goes under the request, the two per-replica bars stack.
 * Lines break between words only: Backstage's theme gives table cells
 * `word-break: break-word`, which split "Replicas" into "Rep lica s"; a
 * pool or cluster name never breaks at its hyphens. A table still wider
 * than its card (a phone) scrolls.
 */
const useStyles = makeStyles(theme => ({
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

/**
 *  Where a developer asks for GPUs: the scaffolder template of this project.
 *
 * @public
 */
export const GPU_TEMPLATE_PATH = '/create/templates/default/gpu-workload';
/** The "Release GPUs" template (scaffolder-backend-module-gpu templates/gpu-release). */
export const GPU_RELEASE_TEMPLATE_PATH =
  '/create/templates/default/gpu-release';

/**
 *  The GPU requests of the current catalog entity, as the GitOps repository holds them.
 *
 * @public
 */
export function GpuAllocationCard() {
  const { entity } = useEntity();
  const entityRef = stringifyEntityRef(entity);
  const gpuApi = useApi(gpuApiRef);
  const { value, loading, error } = useAsync(
    () => gpuApi.getAllocation(entityRef),
    [gpuApi, entityRef],
  );

  if (loading) {
    return (
      <InfoCard title="GPU allocation">
        <Progress />
      </InfoCard>
    );
  }
  if (error) {
    return (
      <InfoCard title="GPU allocation">
        <ResponseErrorPanel
          error={error}
          title="Could not load GPU allocation"
        />
      </InfoCard>
    );
  }
  if (!value || value.allocations.length === 0) {
    return (
      <InfoCard title="GPU allocation">
        <EmptyState
          missing="data"
          title="No GPUs requested"
          description="This component has no GPU request in the GitOps repository yet."
          action={
            <RequestGpusButton
              entity={entity}
              templatePath={GPU_TEMPLATE_PATH}
            />
          }
        />
        <GpuOpenPullRequests entityRef={entityRef} />
      </InfoCard>
    );
  }
  return <AllocationTable response={value} />;
}

/** The pools of these allocations, once each, in the order they appear. */
function poolsOf(allocations: GpuAllocation[]): PoolCostSummary[] {
  const seen = new Map<string, PoolCostSummary>();
  for (const a of allocations) {
    if (a.poolCost) seen.set(`${a.cluster}/${a.pool}`, a.poolCost);
  }
  return [...seen.values()];
}

function AllocationTable(props: { response: AllocationResponse }) {
  const { allocations, totals, revision, entityRef } = props.response;
  const pools = poolsOf(allocations);
  const classes = useStyles();
  const gpuApi = useApi(gpuApiRef);
  // Suggestions run the planner: asked after the allocation is shown, only
  // when a request's own pods were measured, and shown when they come.
  const measured = allocations.some(
    a => a.utilization?.attribution === 'per-pod',
  );
  const { value: rightSizes } = useAsync(
    async () => (measured ? gpuApi.getRightSize(entityRef) : undefined),
    [gpuApi, entityRef, measured],
  );
  const suggestionOf = (a: GpuAllocation) =>
    rightSizes?.suggestions.find(s => s.id === a.id && s.cluster === a.cluster)
      ?.suggestion;
  return (
    <InfoCard
      title="GPU allocation"
      cardClassName={classes.scroll}
      subheader={`${totals.physicalGpus} GPU equivalents, ${formatUsd(
        totals.usdPerMonth,
      )} per month${revision ? ` (GitOps ${revision.slice(0, 7)})` : ''}`}
    >
      <Table size="small" aria-label="GPU requests" className={classes.table}>
        <TableHead>
          <TableRow>
            {/* A header never breaks inside a word. */}
            <TableCell style={NO_WRAP}>Request</TableCell>
            <TableCell style={NO_WRAP}>Per replica</TableCell>
            <TableCell align="right" style={NO_WRAP}>
              Replicas
            </TableCell>
            <TableCell align="right" style={NO_WRAP}>
              Cost / month
            </TableCell>
          </TableRow>
        </TableHead>
        <TableBody>
          {allocations.map(allocation => (
            <AllocationRow
              key={allocation.id}
              allocation={allocation}
              rightSize={suggestionOf(allocation)}
            />
          ))}
        </TableBody>
      </Table>
      <Typography
        variant="caption"
        color="textSecondary"
        component="p"
        data-testid="gpu-allocation-cost-note"
      >
        Cost per month: each request's share of its pool's nodes, by the part of
        their capacity it holds (on-demand list price, 730 h a month); the
        capacity nobody holds is the pool's unallocated cost:{' '}
        {pools.map((p, i) => (
          <Fragment key={p.name}>
            {i > 0 && '; '}
            <span className={classes.name}>{p.name}</span> {p.nodes} ×{' '}
            {p.instanceType ?? 'node'} = {formatUsd(p.usdPerMonth)},{' '}
            {formatUsd(p.idleUsdPerMonth)} unallocated ({p.idleUnits} of{' '}
            {p.capacityUnits} free)
          </Fragment>
        ))}
        .
      </Typography>
      {(props.response.live ?? [])
        .filter(status => !status.available)
        .map(status => (
          <Typography
            key={`${status.cluster}:${status.source}`}
            variant="caption"
            color="textSecondary"
            component="p"
            data-testid="gpu-allocation-no-live-data"
          >
            {noLiveDataText(status)}
          </Typography>
        ))}
      <GpuOpenPullRequests entityRef={props.response.entityRef} />
    </InfoCard>
  );
}

function AllocationRow(props: {
  allocation: GpuAllocation;
  rightSize?: RightSizeSuggestion;
}) {
  const a = props.allocation;
  const model = findModel(builtinCatalog, a.gpuModel);
  const classes = useStyles();
  // The form the request was sent with; a re-run updates the same request.
  const changeForm = changeGpusFormData(a);
  const daysLeft = a.requestSpec
    ? daysUntilExpiry({ spec: a.requestSpec }, new Date())
    : undefined;
  return (
    <TableRow data-testid={`gpu-allocation-${a.id}`}>
      <TableCell>
        <Typography variant="body2">{a.id}</Typography>
        <Typography variant="caption" color="textSecondary" display="block">
          {model?.displayName ?? a.gpuModel} · {a.sharingMode}
          {a.migProfile ? ` ${a.migProfile}` : ''} · {a.perReplica}×{' '}
          {a.resourceName}
        </Typography>
        <Typography variant="caption" color="textSecondary" display="block">
          pool{' '}
          <span className={classes.name} data-testid="gpu-allocation-pool">
            {allocationPoolLabel(a)}
          </span>{' '}
          on <span className={classes.name}>{a.cluster}</span>
        </Typography>
        {daysLeft !== undefined && (
          <Typography
            variant="caption"
            color={daysLeft <= 0 ? 'error' : 'textSecondary'}
            display="block"
            data-testid="gpu-allocation-expiry"
            title={a.requestSpec?.expiresAt}
          >
            {expiryLabel(daysLeft)}
          </Typography>
        )}
        {changeForm && (
          <Link
            to={requestGpusUrl(GPU_TEMPLATE_PATH, changeForm)}
            variant="caption"
            data-testid="gpu-allocation-change"
          >
            Change GPUs
          </Link>
        )}
        {changeForm && (
          <>
            {' · '}
            <Link
              to={requestGpusUrl(GPU_RELEASE_TEMPLATE_PATH, {
                name: changeForm.name,
                namespace: changeForm.namespace,
              })}
              variant="caption"
              data-testid="gpu-allocation-release"
            >
              Release
            </Link>
          </>
        )}
      </TableCell>
      <TableCell className={classes.bars}>
        <ShareBar
          share={a.gpuSharePerReplica}
          computeShare={a.computeSharePerReplica}
        />
        <VramBar
          vramMiB={a.vramMiBPerReplica}
          guaranteed={a.vramGuaranteed}
          gpuMemoryMiB={model?.memoryMiB}
        />
        {a.utilization && <UsedBar utilization={a.utilization} />}
        {props.rightSize && (
          <RightSizeLink allocation={a} suggestion={props.rightSize} />
        )}
        {a.drift && <DriftBadge findings={a.drift} />}
      </TableCell>
      <TableCell align="right">{a.replicas}</TableCell>
      <TableCell align="right" data-testid="gpu-allocation-cost">
        <Typography variant="body2" style={NO_WRAP}>
          {formatUsd(a.usdPerMonth)}
        </Typography>
        {a.poolCost && (
          // It may break before the pool's price, never inside an amount.
          <Typography variant="caption" color="textSecondary" display="block">
            {a.unitsHeld}/{a.poolCost.capacityUnits} of{' '}
            <span style={NO_WRAP}>{formatUsd(a.poolCost.usdPerMonth)}</span>
          </Typography>
        )}
      </TableCell>
    </TableRow>
  );
}

/**
 * The planner's cheaper (or roomier) fit for what the request really used,
 * with "Change GPUs" opening the form filled in with it.
 */
function RightSizeLink(props: {
  allocation: GpuAllocation;
  suggestion: RightSizeSuggestion;
}) {
  const { allocation: a, suggestion } = props;
  const form = changeGpusFormData({
    ...a,
    requestSpec: suggestion.requestSpec,
  });
  let detail = '';
  if (suggestion.migProfile) detail = ` ${suggestion.migProfile}`;
  else if (suggestion.slicesPerGpu) {
    detail = ` ${suggestion.slicesPerGpu} per GPU`;
  }
  const money =
    suggestion.savedUsdPerMonth > 0
      ? `saves ${formatUsd(suggestion.savedUsdPerMonth)}/month`
      : `${formatUsd(-suggestion.savedUsdPerMonth)}/month more`;
  return (
    <Typography
      variant="caption"
      display="block"
      data-testid="gpu-allocation-right-size"
      title={suggestion.reason}
    >
      Right-size: {suggestion.sharingMode}
      {detail}, {formatGiB(suggestion.vramMiBPerReplica)} per replica on{' '}
      {suggestion.pool} — {money}
      {form && (
        <>
          {' · '}
          <Link to={requestGpusUrl(GPU_TEMPLATE_PATH, form)}>Change GPUs</Link>
        </>
      )}
    </Typography>
  );
}

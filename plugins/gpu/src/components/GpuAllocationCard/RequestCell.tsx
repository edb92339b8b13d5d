import { Link } from '@backstage/core-components';
import {
  allocationPoolLabel,
  daysUntilExpiry,
  expiryLabel,
  type GpuAllocation,
  type GpuModel,
} from '@gpu-gitops/plugin-gpu-common';
import { TableCell, Typography } from '@material-ui/core';
import { changeGpusFormData } from '../RequestGpus/changeGpusFormData';
import { requestGpusUrl } from '../RequestGpus/requestGpusFormData';
import { useAllocationCardStyles } from './allocationCardStyles';
import { GPU_RELEASE_TEMPLATE_PATH, GPU_TEMPLATE_PATH } from './templatePaths';

/** The row's first cell: the request, its GPUs, its pool, its expiry and what to do with it. */
export function RequestCell(props: {
  allocation: GpuAllocation;
  model?: GpuModel;
}) {
  const { allocation: a, model } = props;
  const classes = useAllocationCardStyles();
  return (
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
      <ExpiryLine allocation={a} />
      <ChangeLinks allocation={a} />
    </TableCell>
  );
}

/** When the request expires (red once it has), for a request with an end date. */
function ExpiryLine({ allocation: a }: { allocation: GpuAllocation }) {
  const daysLeft = a.requestSpec
    ? daysUntilExpiry({ spec: a.requestSpec }, new Date())
    : undefined;
  if (daysLeft === undefined) return null;
  return (
    <Typography
      variant="caption"
      color={daysLeft <= 0 ? 'error' : 'textSecondary'}
      display="block"
      data-testid="gpu-allocation-expiry"
      title={a.requestSpec?.expiresAt}
    >
      {expiryLabel(daysLeft)}
    </Typography>
  );
}

/** "Change GPUs · Release": the forms the request was sent with; a re-run updates the same request. */
function ChangeLinks({ allocation: a }: { allocation: GpuAllocation }) {
  const changeForm = changeGpusFormData(a);
  if (!changeForm) return null;
  return (
    <>
      <Link
        to={requestGpusUrl(GPU_TEMPLATE_PATH, changeForm)}
        variant="caption"
        data-testid="gpu-allocation-change"
      >
        Change GPUs
      </Link>
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
  );
}

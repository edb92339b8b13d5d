import { MenuItem, TextField } from '@material-ui/core';
import type { ClustersResponse } from '@gpu-gitops/plugin-gpu-common';
import { Choice } from './Choice';

/**
 * The configured clusters as one select, each named with its provider and
 * region (`dev — AWS (Karpenter), us-east-1`: `GET /clusters`), for every
 * form that asks where something goes. Disabled until the clusters are read.
 */
export function ClusterSelect(props: {
  id: string;
  label?: string;
  /** The chosen cluster's name; the default cluster's while none is chosen. */
  value: string | undefined;
  clusters: { value?: ClustersResponse; error?: Error };
  onChange: (cluster: string) => void;
  helperText?: string;
}) {
  const { clusters } = props;
  return (
    <TextField
      select
      id={props.id}
      label={props.label}
      value={props.value ?? ''}
      disabled={!clusters.value}
      helperText={
        clusters.error
          ? `Could not read the clusters: ${clusters.error.message}`
          : props.helperText
      }
      onChange={e => props.onChange(e.target.value as string)}
      SelectProps={{
        renderValue: v =>
          clusters.value?.clusters.find(c => c.name === v)?.label ?? String(v),
      }}
    >
      {(clusters.value?.clusters ?? []).map(c => (
        <MenuItem key={c.name} value={c.name}>
          <Choice label={c.label} />
        </MenuItem>
      ))}
    </TextField>
  );
}

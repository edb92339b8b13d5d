import { MenuItem, TextField } from '@material-ui/core';
import { Choice } from './Choice';

/**
 * A select whose choices the cluster or the owner's policy may refuse: each
 * refused one is offered disabled with its reason, so the user sees why
 * rather than a shorter list. The GPU model and sharing-mode selects.
 */
export function ReasonedSelect<T extends string>(props: {
  id: string;
  label: string | undefined;
  value: T;
  choices: ReadonlyArray<{ value: T; label: string }>;
  /** Why a choice cannot be made, or undefined when it can. */
  reason: (value: T) => string | undefined;
  disabled: boolean;
  onChange: (value: T) => void;
}) {
  const { choices, reason } = props;
  return (
    <TextField
      select
      id={props.id}
      label={props.label}
      value={props.value}
      disabled={props.disabled}
      onChange={e => props.onChange(e.target.value as T)}
      SelectProps={{
        renderValue: v => choices.find(c => c.value === v)?.label ?? String(v),
      }}
    >
      {choices.map(c => (
        <MenuItem key={c.value} value={c.value} disabled={!!reason(c.value)}>
          <Choice label={c.label} reason={reason(c.value)} />
        </MenuItem>
      ))}
    </TextField>
  );
}

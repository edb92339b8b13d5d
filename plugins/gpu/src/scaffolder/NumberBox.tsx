import { TextField } from '@material-ui/core';
import { useState } from 'react';

/** A number box's value: a blank box is `null` (required, never a default). */
function toNumber(typed: string): number | null {
  return typed.trim() === '' ? null : Number(typed);
}

function numberText(n: number | null | undefined): string {
  return n === null || n === undefined || Number.isNaN(n) ? '' : String(n);
}

/**
 * A number box of the GPU request. It keeps the text as typed ("", "1.", …)
 * while the value it reports keeps numbers, so a half-typed number is not
 * rewritten under the user's cursor and a blank box stays blank (`null`).
 */
export function NumberBox(props: {
  id: string;
  label: string | undefined;
  /** The value when the box first renders. */
  initial: number | null | undefined;
  /** The template schema's error for this box (blank, out of range). */
  error: string | undefined;
  min: number;
  step: number | 'any';
  onChange: (value: number | null) => void;
}) {
  const [typed, setTyped] = useState(numberText(props.initial));
  return (
    <TextField
      id={props.id}
      error={!!props.error}
      helperText={props.error}
      label={props.label}
      type="number"
      inputProps={{ min: props.min, step: props.step }}
      value={typed}
      onChange={e => {
        setTyped(e.target.value);
        props.onChange(toNumber(e.target.value));
      }}
    />
  );
}

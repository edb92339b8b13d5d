import { useRef } from 'react';

/** The value at `path` in `data` (objects and arrays), undefined where it is missing. */
export function valueAt(data: unknown, path: string[]): unknown {
  let value = data;
  for (const key of path) {
    value =
      value && typeof value === 'object'
        ? (value as Record<string, unknown>)[key]
        : undefined;
  }
  return value;
}

/**
 * The refusals whose value is still the one refused. rjsf 5.24 keeps the
 * last Review's schema errors and the Stepper's field-validation errors
 * (`extraErrors`) until Review is pressed again (`@rjsf/core` 5.24.13
 * `lib/components/Form.js` lines 132-136 and 173; `@backstage/plugin-scaffolder-react`
 * 3.0.0 `Stepper.esm.js` lines 137, 148 and 224), so each refusal keeps the
 * value it was first shown with (`refusedValueOf` when first seen), and is
 * dropped once that value changes. A refusal gone from `refusals` is
 * forgotten: the next Review's judges its own value. The one rule for the
 * list at the top of the step and the text under each field.
 */
export function useStandingRefusals<T>(
  refusals: T[],
  keyOf: (refusal: T) => string,
  refusedValueOf: (refusal: T) => unknown,
): T[] {
  const refusedValues = useRef(new Map<string, string | undefined>());
  const shown = new Set(refusals.map(keyOf));
  for (const key of [...refusedValues.current.keys()]) {
    if (!shown.has(key)) refusedValues.current.delete(key);
  }
  const now = (refusal: T) => JSON.stringify(refusedValueOf(refusal));
  for (const refusal of refusals) {
    if (!refusedValues.current.has(keyOf(refusal))) {
      refusedValues.current.set(keyOf(refusal), now(refusal));
    }
  }
  return refusals.filter(
    refusal => refusedValues.current.get(keyOf(refusal)) === now(refusal),
  );
}

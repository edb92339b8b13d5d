import type { ComponentType } from 'react';
import { useStandingRefusals, valueAt } from './standingRefusals';

/**
 * Props rjsf gives a `FieldErrorTemplate` (`@rjsf/utils` 5.24 `FieldErrorProps`), those read here.
 *
 * @public
 */
export type FieldRefusalsProps = {
  /** The field's refusals: its schema errors and its field validation's (the Stepper's `extraErrors`). */
  errors?: Array<string | JSX.Element>;
  idSchema: { $id: string };
  registry: {
    /** The scaffolder's Stepper puts the step's current values here (`formContext.formData`). */
    formContext?: { formData?: unknown };
    rootSchema?: object;
    /** The theme's templates: its own `FieldErrorTemplate` draws what stands. */
    templates: { FieldErrorTemplate: ComponentType<any> };
  };
};

type SchemaNode = {
  properties?: Record<string, SchemaNode>;
  items?: SchemaNode;
};

// rjsf's ids: `root`, then each key after `_` (`@rjsf/utils` 5.24.13
// `lib/schema/toIdSchema.js`, the Stepper's defaults).
const ID_PREFIX = 'root';
const ID_SEPARATOR = '_';

/**
 * A field's path from its id (`root_gpu_replicas` → `['gpu', 'replicas']`).
 * A key may hold the separator (`model_name`), so the keys are the
 * schema's and the values' own, tried in turn; undefined when none fits.
 */
function pathOfId(
  rest: string,
  node: SchemaNode | undefined,
  data: unknown,
): string[] | undefined {
  if (rest === '') return [];
  const keys = new Set([
    ...Object.keys(node?.properties ?? {}),
    ...(data && typeof data === 'object' ? Object.keys(data) : []),
  ]);
  for (const key of keys) {
    const head = `${ID_SEPARATOR}${key}`;
    if (rest !== head && !rest.startsWith(`${head}${ID_SEPARATOR}`)) continue;
    const child = node?.properties?.[key] ?? node?.items;
    const path = pathOfId(rest.slice(head.length), child, valueAt(data, [key]));
    if (path) return [key, ...path];
  }
  return undefined;
}

/**
 * The text under a field, for the form's `uiSchema`
 * (`'ui:globalOptions': { FieldErrorTemplate: FieldRefusals }`): the
 * field's refusals while the value they were shown with stands, drawn by
 * the theme's own template. rjsf keeps a field validation's refusal (the
 * GPU request's quota, a blank box) under the field until the next Review
 * (`@rjsf/core` 5.24.13 `lib/components/Form.js` line 173); here it goes
 * once the field's value changes, as it leaves `StepRefusalList`.
 *
 * @public
 */
export function FieldRefusals(props: FieldRefusalsProps) {
  const { registry } = props;
  const formData = registry.formContext?.formData;
  const id = props.idSchema.$id;
  const path = id.startsWith(ID_PREFIX)
    ? pathOfId(id.slice(ID_PREFIX.length), registry.rootSchema, formData)
    : undefined;
  const errors = useStandingRefusals(
    props.errors ?? [],
    error => (typeof error === 'string' ? error : String(error.key)),
    () => (path ? valueAt(formData, path) : id),
  );
  const ThemeFieldErrors = registry.templates.FieldErrorTemplate;
  return <ThemeFieldErrors {...props} errors={errors} />;
}

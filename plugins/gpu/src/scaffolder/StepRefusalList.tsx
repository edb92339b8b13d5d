import {
  List,
  ListItem,
  ListItemText,
  Paper,
  Typography,
} from '@material-ui/core';
import { useStandingRefusals, valueAt } from './standingRefusals';

/**
 * One refusal as rjsf lists it (`@rjsf/utils` 5.24 `RJSFValidationError`).
 *
 * @public
 */
export type StepRefusal = {
  /** Where it applies, `.gpu.replicas`; none for the whole step. */
  property?: string;
  message?: string;
  /** The whole text, shown when the refusal has no property. */
  stack: string;
};

type SchemaNode = {
  title?: string;
  properties?: Record<string, SchemaNode>;
  items?: SchemaNode;
};

type UiNode = { 'ui:title'?: string } & Record<string, unknown>;

/**
 * Props rjsf gives an `ErrorListTemplate` (`@rjsf/utils` 5.24 `ErrorListProps`), those read here.
 *
 * @public
 */
export type StepRefusalListProps = {
  errors: StepRefusal[];
  /** The same refusals by path (`{ gpu: { replicas: { __errors: [...] } } }`), as the boxes show them. */
  errorSchema?: object;
  schema: object;
  uiSchema?: object;
  /** The scaffolder's Stepper puts the step's current values here (`formContext.formData`). */
  formContext?: { formData?: unknown };
};

/** `.gpu.replicas` → `['gpu', 'replicas']`. */
function pathOf(property: string): string[] {
  return property.split('.').filter(segment => segment !== '');
}

function childOf(node: SchemaNode | undefined, key: string) {
  if (!node) return undefined;
  return node.properties?.[key] ?? (/^\d+$/.test(key) ? node.items : undefined);
}

/**
 * The words the form shows for a property: its `ui:title`, else its schema
 * `title`, found by its whole path (`gpu.vramGiB` → `GPU memory per replica
 * (GiB)`, the box's own label); the path itself when neither says.
 */
export function refusalTitle(
  property: string,
  schema: object,
  uiSchema: object | undefined,
): string {
  let node = schema as SchemaNode | undefined;
  let ui = uiSchema as UiNode | undefined;
  for (const key of pathOf(property)) {
    node = childOf(node, key);
    ui = ui?.[key] as UiNode | undefined;
  }
  return ui?.['ui:title'] ?? node?.title ?? pathOf(property).join('.');
}

/**
 * Whether the form still holds the refusal at its path: rjsf clears a
 * changed field's schema errors there, though not from its list
 * (`@rjsf/core` 5.24.13 `lib/components/Form.js` lines 162-171).
 */
function heldAtPath(refusal: StepRefusal, errorSchema: object | undefined) {
  if (!refusal.property || !refusal.message || !errorSchema) return true;
  const held = valueAt(errorSchema, [...pathOf(refusal.property), '__errors']);
  return Array.isArray(held) && held.includes(refusal.message);
}

const keyOf = (refusal: StepRefusal) =>
  `${refusal.property ?? ''}\n${refusal.stack}`;

/**
 * The list of a step's refusals at the top of the scaffolder form, for the
 * form's `uiSchema` (`'ui:ErrorListTemplate'`): each names its box by the
 * form's label, nested ones included (`'Replicas' must be …`, where
 * Backstage's own list says `'Gpu Replicas'`: it titles only top-level
 * properties, `@backstage/plugin-scaffolder-react` 3.0.0
 * `errorListTemplate.esm.js` line 32), and a refusal leaves the list once
 * its value changes, without another Review: a schema refusal when rjsf
 * clears it from its path, a field's `validation` refusal (which the
 * Stepper keeps at its path too) when the value it was listed with changes.
 *
 * @public
 */
export function StepRefusalList(props: StepRefusalListProps) {
  // A refusal of the whole step (no property) stands until the next Review.
  const refusals = useStandingRefusals(
    props.errors.filter(refusal => heldAtPath(refusal, props.errorSchema)),
    keyOf,
    refusal =>
      refusal.property
        ? valueAt(props.formContext?.formData, pathOf(refusal.property))
        : undefined,
  );
  if (refusals.length === 0) return null;
  return (
    <Paper>
      <List dense aria-label="Refusals">
        {refusals.map(refusal => (
          <ListItem key={keyOf(refusal)}>
            <ListItemText
              disableTypography
              primary={
                <Typography variant="body2" color="error">
                  {refusal.property && refusal.message
                    ? `'${refusalTitle(refusal.property, props.schema, props.uiSchema)}' ${refusal.message}`
                    : refusal.stack}
                </Typography>
              }
            />
          </ListItem>
        ))}
      </List>
    </Paper>
  );
}

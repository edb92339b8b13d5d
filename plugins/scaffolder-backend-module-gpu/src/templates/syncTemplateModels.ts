import { isMap, parseDocument, type YAMLMap } from 'yaml';
import type { GpuCatalog } from '@gpu-gitops/plugin-gpu-common';
import { gpuModelChoices } from './gpuModelChoices';

export const AUTO_MODEL_LABEL = 'Automatic — the cheapest model that fits';

/**
 * Rewrites the `model` parameter's enum / enumNames of a gpu-workload
 * template from the catalog, keeping everything else (comments included).
 * Run after catalog changes:
 *   npx sucrase-node plugins/scaffolder-backend-module-gpu/scripts/syncTemplateModels.ts
 *   npx prettier --write templates/gpu-workload/template.yaml
 */
export function syncTemplateModels(
  templateText: string,
  catalog: GpuCatalog,
): string {
  const doc = parseDocument(templateText);
  const pages = doc.getIn(['spec', 'parameters']) as { items: unknown[] };
  const page = pages.items.find(
    p => isMap(p) && (p as YAMLMap).hasIn(['properties', 'model']),
  ) as YAMLMap | undefined;
  if (!page) throw new Error('template has no `model` parameter');
  const choices = gpuModelChoices(catalog);
  page.setIn(
    ['properties', 'model', 'enum'],
    doc.createNode(['auto', ...choices.map(c => c.id)]),
  );
  page.setIn(
    ['properties', 'model', 'enumNames'],
    doc.createNode([AUTO_MODEL_LABEL, ...choices.map(c => c.label)]),
  );
  return doc.toString();
}

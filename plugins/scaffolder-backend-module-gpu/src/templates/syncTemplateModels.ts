import { isMap, parseDocument, type YAMLMap } from 'yaml';
import type { GpuCatalog } from '@gpu-gitops/plugin-gpu-common';
import { gpuModelChoices } from '@gpu-gitops/plugin-gpu-common';

export const AUTO_MODEL_LABEL = 'Automatic — the cheapest model that fits';

/**
 * Rewrites the `model` parameter's enum / enumNames of a gpu-workload
 * template from the catalog, keeping everything else (comments included).
 * Run after catalog changes:
 *   npx sucrase-node plugins/scaffolder-backend-module-gpu/scripts/syncTemplateModels.ts
 *   npx prettier --write plugins/scaffolder-backend-module-gpu/templates/gpu-workload/template.yaml
 */
export function syncTemplateModels(
  templateText: string,
  catalog: GpuCatalog,
): string {
  const doc = parseDocument(templateText);
  const pages = doc.getIn(['spec', 'parameters']) as { items: unknown[] };
  // `model` is a page property, or (gpu-workload) a property of the `gpu`
  // object that the GpuRequestPicker field fills.
  const modelPaths = [
    ['properties', 'model'],
    ['properties', 'gpu', 'properties', 'model'],
  ];
  let page: YAMLMap | undefined;
  let modelPath: string[] | undefined;
  for (const p of pages.items) {
    if (!isMap(p)) continue;
    modelPath = modelPaths.find(path => (p as YAMLMap).hasIn(path));
    if (modelPath) {
      page = p as YAMLMap;
      break;
    }
  }
  if (!page || !modelPath) throw new Error('template has no `model` parameter');
  const choices = gpuModelChoices(catalog);
  page.setIn(
    [...modelPath, 'enum'],
    doc.createNode(['auto', ...choices.map(c => c.id)]),
  );
  page.setIn(
    [...modelPath, 'enumNames'],
    doc.createNode([AUTO_MODEL_LABEL, ...choices.map(c => c.label)]),
  );
  return doc.toString();
}

/**
 * Regenerates the GPU model choices of this package's
 * templates/gpu-workload/template.yaml from the built-in catalog. Usage (from the repository root):
 *   npx sucrase-node plugins/scaffolder-backend-module-gpu/scripts/syncTemplateModels.ts
 *   npx prettier --write plugins/scaffolder-backend-module-gpu/templates/gpu-workload/template.yaml
 */
import fs from 'node:fs';
import path from 'node:path';
import { builtinCatalog } from '@gpu-gitops/plugin-gpu-common';
import { syncTemplateModels } from '../src/templates/syncTemplateModels';

const file = path.resolve(__dirname, '../templates/gpu-workload/template.yaml');
fs.writeFileSync(
  file,
  syncTemplateModels(fs.readFileSync(file, 'utf8'), builtinCatalog),
);

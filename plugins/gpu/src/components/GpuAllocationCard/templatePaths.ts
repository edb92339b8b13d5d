/**
 *  Where a developer asks for GPUs: the scaffolder template of this project.
 *
 * @public
 */
export const GPU_TEMPLATE_PATH = '/create/templates/default/gpu-workload';
/** The "Release GPUs" template (scaffolder-backend-module-gpu templates/gpu-release). */
export const GPU_RELEASE_TEMPLATE_PATH =
  '/create/templates/default/gpu-release';

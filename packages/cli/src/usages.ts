/**
 * Each command's usage line, apart from the commands themselves: `--help`
 * and a usage error print them without loading what a command needs to run
 * (the GPU libraries take a second or more to load; `gpu-gitops --help`
 * must answer at once).
 */

export const planUsage =
  'gpu-gitops plan --request req.yaml [--repo URL|DIR [--base main] [--forge KIND] [--cache-dir DIR] [--timeout SECONDS]] ' +
  '[--cluster cluster.yaml] [--catalog catalog.yaml] [--json]';

export const renderUsage =
  'gpu-gitops render --request req.yaml [--cluster cluster.yaml] [--catalog catalog.yaml] (--out DIR | --stdout)';

export const migFitUsage =
  'gpu-gitops mig fit --gpu a100-40gb --profiles 3g.20gb=1,2g.10gb=2 [--json]';

export const prUsage =
  'gpu-gitops pr --request req.yaml --repo URL [--base main] [--forge local|github|gitlab|gitea] ' +
  '[--api-url URL] [--cluster cluster.yaml] [--catalog catalog.yaml] [--cache-dir DIR] [--timeout SECONDS] ' +
  '[--draft] [--dry-run] [--json]';

export const releaseUsage =
  'gpu-gitops release (--request req.yaml | --name NAMESPACE/NAME) --repo URL [--base main] ' +
  '[--forge local|github|gitlab|gitea] [--api-url URL] [--cluster cluster.yaml] [--catalog catalog.yaml] ' +
  '[--cache-dir DIR] [--timeout SECONDS] [--dry-run] [--json]';

export const importUsage =
  'gpu-gitops import (--cluster cluster.yaml | --cluster-name NAME) --owner OWNER [--catalog catalog.yaml] ' +
  '(--dir DIR | --repo URL [--base main] [--forge local|github|gitlab|gitea] [--api-url URL] [--cache-dir DIR] [--timeout SECONDS]) ' +
  '[--dry-run] [--json]';

export const bootstrapUsage =
  'gpu-gitops bootstrap (--cluster cluster.yaml | --cluster-name NAME) [--operator-chart-version VERSION] [--bin-packing] ' +
  '(--dir DIR | --repo URL [--base main] [--forge local|github|gitlab|gitea] [--api-url URL] [--cache-dir DIR] [--timeout SECONDS]) ' +
  '[--dry-run] [--json]';

export const updateUsage =
  'gpu-gitops update --repo URL [--base main] [--forge local|github|gitlab|gitea] [--api-url URL] ' +
  '[--cluster cluster.yaml] [--catalog catalog.yaml] [--cache-dir DIR] [--timeout SECONDS] [--json]';

export const validateUsage =
  'gpu-gitops validate DIR [--cluster cluster.yaml] [--catalog catalog.yaml] [--enable-helm] [--json]';

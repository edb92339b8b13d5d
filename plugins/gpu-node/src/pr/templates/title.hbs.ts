/** Default PR title (handlebars). Variables: see PullRequestView in ../view.ts. */
export const DEFAULT_TITLE_TEMPLATE =
  'GPU: {{request.namespace}}/{{request.name}} — {{plan.holding}}';

/**
 * Default title, body and commit message of a release pull request
 * (handlebars, rendered with noEscape: markdown of validated names and
 * numbers, redacted after). Variables: see ReleasePullRequestView in
 * ../releaseView.ts.
 */
export const DEFAULT_RELEASE_TITLE_TEMPLATE =
  'GPU release: {{request.namespace}}/{{request.name}} — {{#if savesNothing}}frees capacity, saves no money (its pools keep their nodes){{else}}saves {{saved}}/month{{/if}}';

export const DEFAULT_RELEASE_COMMIT_MESSAGE_TEMPLATE = `gpu({{request.namespace}}/{{request.name}}): release

Releases {{request.namespace}}/{{request.name}}{{#if reason}} ({{reason}}){{/if}}: {{#each pools}}pool {{name}} {{#if removed}}removed{{else}}{{nodesBefore}} -> {{nodesAfter}} node(s){{/if}}{{#unless @last}}, {{/unless}}{{/each}}; saves {{saved}}/month.
`;

export const DEFAULT_RELEASE_BODY_TEMPLATE = `{{#if reason}}
> {{reason}}

{{/if}}
## Release GPUs of \`{{request.namespace}}/{{request.name}}\`

Owner \`{{request.owner}}\`. This pull request takes the request out of the repository: its workload's GPUs, its share of {{#if pools.length}}each pool it held{{else}}no pool (none holds it){{/if}}, and what only it used.

| Pool | Released | Nodes | Cost per month |
|---|---|---|---|
{{#each pools}}
| \`{{name}}\`{{#if removed}} — **removed**{{/if}} | {{releasedUnits}} × \`{{resourceName}}\` | {{nodesBefore}} → {{nodesAfter}} | {{before}} → {{after}} |
{{/each}}

**It {{savings}}**{{#unless priceKnown}} (a machine price is unknown: its cost counts 0){{/unless}} (on-demand list price).

### What goes
{{#each removes}}
- {{this}}
{{/each}}
{{#if keeps.length}}

### What stays
{{#each keeps}}
- {{this}}
{{/each}}
{{/if}}
{{#if warnings.length}}

### Warnings
{{#each warnings}}
- {{this}}
{{/each}}
{{/if}}

### Files
{{#each files}}
- {{action}} \`{{path}}\`
{{/each}}
`;

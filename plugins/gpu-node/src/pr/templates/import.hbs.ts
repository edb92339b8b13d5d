/**
 * Default title, commit message, body (markdown) and plain-text report of an
 * import (handlebars, rendered with noEscape, redacted after). The body is
 * the pull request's description and the action's output; the text is what
 * `gpu-gitops import` prints. Variables: see ImportReportView in
 * ../importView.ts.
 */
export const DEFAULT_IMPORT_TITLE_TEMPLATE =
  'GPU import: cluster {{cluster}} — {{#unless opensPullRequest}}nothing to import{{else}}{{converted.length}} object(s) converted to Karpenter v1, {{adoptedPools.length}} GPU pool(s) adopted, {{records.length}} request record(s){{/unless}}';

export const DEFAULT_IMPORT_COMMIT_MESSAGE_TEMPLATE = `gpu(import/{{cluster}}): adopt the existing GPU setup

Converts {{converted.length}} Karpenter object(s) of {{clusterFolder}} to v1, adopts {{adoptedPools.length}} GPU pool(s){{#each adoptedPools}}{{#if @first}} ({{/if}}{{name}}{{#if @last}}){{else}}, {{/if}}{{/each}}, writes {{records.length}} request record(s).
`;

export const DEFAULT_IMPORT_BODY_TEMPLATE = `## Import of the GPU setup of cluster \`{{cluster}}\`

{{#if opensPullRequest}}
This pull request adopts what \`{{clusterFolder}}/\` and the workloads already run: legacy Karpenter objects are converted to \`v1\` in place (comments and other documents kept), GPU NodePools get the product's annotations only (never template labels, which would replace their nodes), a team's GPU MachineDeployment (Cluster API) gets them too and refers to a copy of its bootstrap template that gives its nodes the pool label (Cluster API replaces its nodes to apply it; see the notes), and each GPU workload found on them gets a request record. Every touched kustomization root was built with the real kustomize before and after: only the converted objects and the adopted pools change.
{{else}}
Nothing to import: no file of the repository would change (no legacy Karpenter object to convert, no GPU pool or workload left to adopt), so no pull request is opened. What was found is below.
{{/if}}

### Converted to Karpenter v1
{{#if converted.length}}
| File | Before | After |
|---|---|---|
{{#each converted}}
| \`{{path}}\` | {{from}} | {{to}} |
{{/each}}
{{else}}
Nothing: no legacy Karpenter object.
{{/if}}
{{#if conversionNotes.length}}

For the reviewer (moved, old defaults written out, behaviour the upgrade changes):
{{#each conversionNotes}}
- \`{{path}}\` — {{object}}{{#if field}}, \`{{field}}\`{{/if}}{{#if value}} = \`{{value}}\`{{/if}}: {{message}}
{{/each}}
{{/if}}

### Reported, with its value (no v1 equivalent)
{{#if reported.length}}
The converted objects go without these fields; decide whether anything must replace them.
{{#each reported}}
- \`{{path}}\` — {{object}}{{#if field}}, \`{{field}}\`{{/if}}{{#if value}} = \`{{value}}\`{{/if}}: {{message}}
{{/each}}
{{else}}
Nothing.
{{/if}}

### Left untouched
{{#if untouched.length}}
{{#each untouched}}
- \`{{path}}\` — {{object}}{{#if field}}, \`{{field}}\`{{/if}}: {{message}}
{{/each}}
{{else}}
Nothing: every Karpenter object of the folder was understood.
{{/if}}

### GPU pools adopted
{{#if adoptedPools.length}}
| Pool | File | GPU | Sharing | Resource | Ledger |
|---|---|---|---|---|---|
{{#each adoptedPools}}
| \`{{name}}\` | \`{{path}}\` | \`{{gpuModel}}\` | {{sharingMode}} | \`{{resourceName}}\` | {{ledger}} |
{{/each}}

{{#each adoptedPools}}
{{#if sharingSource}}
- \`{{name}}\`: sharing from {{sharingSource}}
{{/if}}
{{#each counts}}
- \`{{../name}}\`: {{this}}
{{/each}}
{{/each}}
{{else}}
None: no GPU NodePool that the product does not manage already.
{{/if}}

### Request records written
{{#if records.length}}
| Request | Record | Pool | Workload |
|---|---|---|---|
{{#each records}}
| \`{{id}}\` | \`{{path}}\` | \`{{pool}}\` | \`{{workloadPath}}\` |
{{/each}}
{{else}}
None.
{{/if}}

### Workloads
{{#if workloads.length}}
The import never changes a workload; these need their owners:
{{#each workloads}}
- \`{{path}}\` — {{object}}{{#if field}}, \`{{field}}\`{{/if}}{{#if value}} = \`{{value}}\`{{/if}}: {{message}}
{{/each}}
{{else}}
Nothing to report.
{{/if}}

### Files
{{#each files}}
- {{action}} \`{{path}}\`
{{/each}}
`;

export const DEFAULT_IMPORT_TEXT_TEMPLATE = `Import of cluster {{cluster}} ({{clusterFolder}}/){{#if empty}}: nothing to change, the repository is adopted already{{/if}}

Converted to Karpenter v1:{{#unless converted.length}} nothing{{/unless}}
{{#each converted}}
  {{path}}: {{from}} -> {{to}}
{{/each}}
{{#each conversionNotes}}
  note {{path}}: {{object}}{{#if field}} {{field}}{{/if}}{{#if value}} = {{value}}{{/if}}: {{message}}
{{/each}}
Reported, with its value (no v1 equivalent):{{#unless reported.length}} nothing{{/unless}}
{{#each reported}}
  {{path}}: {{object}}{{#if field}} {{field}}{{/if}}{{#if value}} = {{value}}{{/if}}: {{message}}
{{/each}}
Left untouched:{{#unless untouched.length}} nothing{{/unless}}
{{#each untouched}}
  {{path}}: {{object}}{{#if field}} {{field}}{{/if}}: {{message}}
{{/each}}
GPU pools adopted:{{#unless adoptedPools.length}} none{{/unless}}
{{#each adoptedPools}}
  {{name}} ({{path}}): {{gpuModel}}, {{sharingMode}}, {{resourceName}}, ledger {{ledger}}
{{#if sharingSource}}
    sharing from {{sharingSource}}
{{/if}}
{{#each counts}}
    {{this}}
{{/each}}
{{/each}}
Request records written:{{#unless records.length}} none{{/unless}}
{{#each records}}
  {{id}} -> {{path}} (pool {{pool}}, workload {{workloadPath}})
{{/each}}
Workloads:{{#unless workloads.length}} nothing to report{{/unless}}
{{#each workloads}}
  {{path}}: {{object}}{{#if field}} {{field}}{{/if}}{{#if value}} = {{value}}{{/if}}: {{message}}
{{/each}}
Files:{{#unless files.length}} none{{/unless}}
{{#each files}}
  {{action}} {{path}}
{{/each}}
`;

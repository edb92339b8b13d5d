/**
 * Default PR body (handlebars, rendered with noEscape: it is markdown; every
 * value is a validated name or a number, and the result is redacted).
 * Variables: see PullRequestView in ../view.ts.
 */
export const DEFAULT_BODY_TEMPLATE = `{{#if updateNote}}
> {{updateNote}}

{{/if}}
## GPU request \`{{request.namespace}}/{{request.name}}\`

| | |
|---|---|
| Name | \`{{request.name}}\` |
| Namespace | \`{{request.namespace}}\` |
| Owner | \`{{request.owner}}\` |
| Model | \`{{request.model}}\`{{#if request.modelAuto}} → \`{{plan.model}}\`{{/if}} |
| Sharing mode | {{request.mode}} |
| Replicas | {{#if existing}}{{#if existing.changes}}**{{existing.replicasField}} {{existing.current}} → {{existing.requested}}**{{else}}{{existing.requested}} ({{existing.replicasField}} unchanged){{/if}}{{else}}{{request.replicas}}{{/if}} |
| VRAM per replica | {{request.vramGiB}} GiB |
| Workload | {{request.workload}} |
{{#if existing}}
| GPU container | \`{{existing.container}}\` (containers: {{#each existing.containers}}\`{{this}}\`{{#unless @last}}, {{/unless}}{{/each}}; the others are unchanged) |
{{/if}}

## Plan

| | |
|---|---|
| GPU model | {{plan.modelName}} (\`{{plan.model}}\`) |
| Instance types | {{#each plan.instanceTypes}}\`{{this}}\`{{#unless @last}}, {{/unless}}{{/each}} |
| Sharing | {{plan.sharing}} |
| Resource per replica | {{plan.resourcePerReplica}} × \`{{plan.resourceName}}\` |
| Expected nodes | {{plan.expectedNodes}} × \`{{plan.instanceType}}\` ({{plan.slicesPerNode}} \`{{plan.resourceName}}\` per node) |
| NodePool | \`{{plan.poolName}}\` — {{#if plan.poolReused}}**reused**{{else}}**new**{{/if}} |
| NodePool limits | {{#each plan.limits}}\`{{name}}: {{value}}\`{{#unless @last}}, {{/unless}}{{/each}}{{#if plan.ledger}} — whole nodes for the pool's requests: {{plan.ledger}}{{/if}} |
| Capacity | {{plan.capacityTypes}} |
| Physical GPUs held | {{plan.physicalGpus}} |

### VRAM fit

{{vram.summary}}

### Cost

**{{cost.perMonth}} per month** ({{cost.perHour}} per hour, on-demand list price of the expected nodes).

### Isolation trade-off ({{request.mode}})

{{#each isolation}}
- {{this}}
{{/each}}
{{#if migLayout}}

### MIG layout (each GPU, by memory slice)

\`\`\`
{{migLayout}}
\`\`\`
{{/if}}
{{#if warnings.length}}

### Warnings

{{#each warnings}}
- ⚠️ {{this}}
{{/each}}
{{/if}}

## Files changed

{{#each files}}
- \`{{path}}\` ({{action}})
{{/each}}

## Rollout checklist

{{#each checklist}}
- [ ] {{this}}
{{/each}}
{{#if explanation.length}}

<details><summary>How this plan was decided</summary>

{{#each explanation}}
- {{this}}
{{/each}}

</details>
{{/if}}
`;

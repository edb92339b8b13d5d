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
| VRAM per replica | {{vram.asked}} |
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
| Pool nodes | {{plan.expectedNodes}} × \`{{plan.instanceType}}\` ({{plan.slicesPerNode}} \`{{plan.resourceName}}\` per node){{#if plan.nodesChange}}, {{plan.nodesBefore}} before{{else}}, unchanged{{/if}} |
| NodePool | \`{{plan.poolName}}\` — {{#if plan.poolReused}}**reused**{{else}}**new**{{/if}} |
| NodePool limits | {{#each plan.limits}}\`{{name}}: {{value}}\`{{#unless @last}}, {{/unless}}{{/each}}{{#if plan.ledger}} — whole nodes for the pool's requests: {{plan.ledger}}{{/if}} |
| Capacity | {{plan.capacityTypes}} |
| Physical GPUs held | {{plan.physicalGpus}} |

{{#if change}}
### Before → after

This request is in the repository already; this pull request changes it.

| | Before | After |
|---|---|---|
| Held | {{change.heldBefore}} | {{change.heldAfter}} |
| Nodes of \`{{plan.poolName}}\` | {{change.nodesBefore}} | {{change.nodesAfter}} |
| Attributed per month | {{change.attributedBefore}} | {{change.attributedAfter}} |

Added to the bill: **{{change.marginal}} per month** (marginal).{{#if change.frees}} The change frees {{change.frees}}.{{/if}}

{{/if}}
### Why this plan

{{#each decisions}}
- **{{title}}: {{choice}}** — {{reason}}
{{#each considered}}
  - {{#if chosen}}✅{{else}}✗{{/if}} {{option}}: {{reason}}
{{/each}}
{{/each}}

### VRAM fit

{{vram.summary}}

### Cost

| | |
|---|---|
| This request (attributed) | **{{cost.attributedText}}** |
| Added to the bill (marginal) | **{{cost.marginalText}}** |
| Pool \`{{cost.pool.name}}\` | {{cost.poolText}} |

| Request on \`{{cost.pool.name}}\` | Units | Per month |
|---|---|---|
{{#each cost.shares}}
| \`{{request}}\`{{#if thisRequest}} (this request){{/if}} | {{units}} | {{perMonth}} |
{{/each}}
| unallocated | {{cost.pool.idleUnits}} | {{cost.pool.idlePerMonth}} |
| **the pool's nodes** | {{cost.pool.capacityUnits}} | **{{cost.pool.perMonth}}** |

On-demand list prices, 730 hours a month{{#unless cost.priceKnown}} (**the machine's price is unknown: every figure shows $0.00**){{/unless}}. Attributed: a request's share of its pool's nodes by the units it holds; unallocated: the units nobody holds.

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

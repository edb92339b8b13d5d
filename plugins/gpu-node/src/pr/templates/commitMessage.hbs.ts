/** Default commit message (handlebars). Variables: see PullRequestView in ../view.ts. */
export const DEFAULT_COMMIT_MESSAGE_TEMPLATE = `gpu({{request.namespace}}/{{request.name}}): {{request.replicas}}x {{plan.model}} {{request.mode}}

{{request.replicas}} replica(s) of {{request.namespace}}/{{request.name}} on pool {{plan.poolName}} ({{#if plan.poolReused}}reused{{else}}new{{/if}}),
{{plan.resourcePerReplica}}x {{plan.resourceName}} per replica, {{plan.expectedNodes}} node(s) of {{plan.instanceType}}, ~{{cost.perMonth}}/month.
Requested by {{request.owner}}.
`;

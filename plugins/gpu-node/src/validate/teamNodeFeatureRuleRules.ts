/**
 * A static pool's NodeFeatureRule and the team's own: both label the same
 * GPU nodes (the team's by the GPUs' PCI ids, gpu-common
 * `nfdRulesOnModelNodes`), and where both set one label to different values
 * only one holds — NFD applies NodeFeatureRule objects in alphabetical
 * order of their names (node-feature-discovery v0.18.3
 * `docs/usage/customization-guide.md`), so the one whose name sorts last
 * decides. Either the pool's nodes lose what the product set (its pool,
 * device-plugin or MIG config label) or the team's rule silently stops
 * holding there: reported, naming the winner.
 */
import {
  nfdRulesOnModelNodes,
  type GpuCatalog,
} from '@gpu-gitops/plugin-gpu-common';
import type { BuiltObject } from '../kustomize/build';
import {
  isGpuNodeFeatureRule,
  NODE_FEATURE_RULE,
  ruleNodeLabels,
} from '../repo/nodeFeatureRulePools';
import { findOurLabel } from '../repo/poolLabels';
import { getIn, stringRecord } from '../repo/yamlObjects';
import type { BuiltRoot } from './builtRoots';
import type { Finding } from './findings';
import { sourceFileOf } from './sourceLocator';
import type { SourceTree } from './sourceTree';

function contradiction(
  pool: BuiltObject,
  team: string,
  key: string,
  values: { ours: string; theirs: string },
): string {
  const poolName = pool.metadata.name;
  const teamWins = team > poolName;
  return `NodeFeatureRule ${team} sets ${key}=${values.theirs} on the GPU nodes of pool ${poolName}, whose own rule sets ${key}=${values.ours}; NFD applies NodeFeatureRules in alphabetical order of their names, so ${teamWins ? team : poolName} decides it: ${
    teamWins
      ? `the pool's nodes carry ${values.theirs}, not what the pool needs`
      : `${team}'s label does not hold on those nodes`
  }. Make the two rules agree, or keep ${team} off the pool's nodes.`;
}

/** The contradictions between each built static pool and the team's NodeFeatureRules. */
export function checkTeamNodeFeatureRules(
  roots: readonly BuiltRoot[],
  source: Pick<SourceTree, 'docs' | 'patchFiles'>,
  catalog: GpuCatalog,
  findings: Finding[],
): void {
  const reported = new Set<string>();
  for (const root of roots) {
    const rules = root.objects.filter(o => o.kind === NODE_FEATURE_RULE);
    for (const pool of rules.filter(isGpuNodeFeatureRule)) {
      const modelId = findOurLabel(
        stringRecord(getIn(pool, 'metadata', 'annotations')),
        ['gpu-model'],
      );
      const model = catalog.models.find(m => m.id === modelId);
      if (!model) continue;
      const ours = ruleNodeLabels(pool);
      for (const team of nfdRulesOnModelNodes(rules, model)) {
        for (const [key, theirs] of Object.entries(team.labels)) {
          const id = `${pool.metadata.name}/${team.rule}/${key}`;
          if (ours[key] === undefined || ours[key] === theirs) continue;
          if (reported.has(id)) continue;
          reported.add(id);
          const teamObject = rules.find(r => r.metadata.name === team.rule)!;
          findings.push({
            file: sourceFileOf(source, root, teamObject),
            object: `${NODE_FEATURE_RULE}/${team.rule}`,
            rule: 'contradicting-node-feature-rule',
            message: contradiction(pool, team.rule, key, {
              ours: ours[key],
              theirs,
            }),
          });
        }
      }
    }
  }
}

/**
 * Converts a cluster's Karpenter objects together with the kustomize patches
 * that patch them: an object is converted only when every patch of it can be
 * converted too (else kustomize no longer finds the patch's target, or
 * applies old field paths to a v1 object), and a patch shared by several
 * objects is converted only when all of them are. What stays is reported,
 * with the patch and the reason.
 */
import type { PlainObject } from '../repo/yamlObjects';
import {
  convertKarpenterObjects,
  type KarpenterInput,
  type KarpenterOutput,
} from './convert/convertKarpenterObjects';
import {
  apiKey,
  convertJsonPatch,
  convertStrategicMergePatch,
} from './convert/legacyPatches';
import type { NodeClassContext } from './convert/nodeClassRef';
import type { PatchContent } from '../kustomize/patchContent';
import type { PatchSite } from './legacyPatchSites';

/** A patch to write in its v1 form. */
export interface ConvertedPatch {
  site: PatchSite;
  content: PatchContent;
  /** The new target, when its version changes. */
  target?: PlainObject;
}

type SiteConversion =
  { unchanged: true } | { converted: ConvertedPatch } | { refused: string };

function convertSite(
  site: PatchSite,
  objects: Map<string, PlainObject>,
): SiteConversion {
  if (site.content.form === 'strategic-merge') {
    const documents: PlainObject[] = [];
    let changed = false;
    for (const document of site.content.documents) {
      const result = convertStrategicMergePatch(document);
      if (result === undefined) {
        documents.push(document);
      } else if ('refused' in result) {
        return result;
      } else {
        documents.push(result.converted);
        changed = true;
      }
    }
    return changed
      ? {
          converted: {
            site,
            content: { form: 'strategic-merge', documents },
          },
        }
      : { unchanged: true };
  }
  const apis = new Set(
    site.targets.map(key => {
      const o = objects.get(key)!;
      return apiKey(o.apiVersion, o.kind);
    }),
  );
  if (apis.size > 1) {
    return {
      refused: `its target selects objects of several APIs (${[...apis].join(', ')}), which one JSON6902 patch cannot follow into v1`,
    };
  }
  const result = convertJsonPatch(
    { target: site.target ?? {}, operations: site.content.operations },
    [...apis][0],
  );
  if (result === undefined) return { unchanged: true };
  if ('refused' in result) return result;
  return {
    converted: {
      site,
      content: { form: 'json6902', operations: result.converted.operations },
      ...(site.target?.version !== undefined
        ? { target: result.converted.target }
        : {}),
    },
  };
}

/**
 * `writable(path)`: whether the import may rewrite a patch file (one in the
 * cluster's folder); a patch kept elsewhere keeps its objects as they are.
 */
export function convertWithPatches(
  inputs: KarpenterInput[],
  sites: PatchSite[],
  writable: (path: string) => boolean,
  nodeClasses: NodeClassContext,
): { outputs: KarpenterOutput[]; patches: ConvertedPatch[] } {
  const objects = new Map(inputs.map(i => [i.key, i.value]));
  const keep = new Map<string, string>();
  const pending: ConvertedPatch[] = [];
  for (const site of sites) {
    const result =
      site.file !== undefined && !writable(site.file)
        ? {
            refused: `its file is outside the cluster's folder, which the import does not rewrite (other clusters may use it)`,
          }
        : convertSite(site, objects);
    if ('refused' in result) {
      for (const key of site.targets) {
        keep.set(
          key,
          `it is patched by ${site.label}, and ${result.refused}: it stays as it is, with its patches (convert them together by hand)`,
        );
      }
    } else if ('converted' in result) {
      pending.push(result.converted);
    }
  }
  // A patch follows its objects: where some of them stay (a class that
  // stays keeps its pools), the others stay too, until nothing changes.
  for (;;) {
    const outputs = convertKarpenterObjects(inputs, keep, nodeClasses);
    const converted = new Set(
      outputs.filter(o => o.status === 'converted').map(o => o.key),
    );
    let settled = true;
    for (const { site } of pending) {
      const staying = site.targets.filter(key => !converted.has(key));
      if (staying.length === 0 || staying.length === site.targets.length) {
        continue;
      }
      for (const key of site.targets.filter(k => converted.has(k))) {
        keep.set(
          key,
          `it shares the patch ${site.label} with an object that stays as it is: it stays too, with the patch`,
        );
        settled = false;
      }
    }
    if (settled) {
      return {
        outputs,
        patches: pending.filter(p =>
          p.site.targets.every(key => converted.has(key)),
        ),
      };
    }
  }
}

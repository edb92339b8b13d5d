/**
 * A string built by concatenation is held by V8 as a tree of its parts (a
 * "cons string"); reading it with a regular expression makes V8 copy it
 * into one flat string in place, and the parts become garbage. The index
 * keeps a placement warning of ~250 characters per workload that cannot
 * land, built from ~20 parts: 100k such warnings held 70 MiB as trees and
 * 28 MiB flat (Node 20). The text itself is left as it is.
 */
const FLATTEN = /^/;

export function flattened(text: string): string {
  FLATTEN.test(text);
  return text;
}

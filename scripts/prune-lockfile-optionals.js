#!/usr/bin/env node
/*
 * Keeps package-lock.json installable with `npm ci` on registries that lack
 * some platform-specific optional packages (e.g. @swc/core-darwin-arm64 is
 * missing from the mirror this project is built against). npm silently skips
 * an optional dependency it cannot fetch, so the lock records the optional
 * dependency but no package for it, and `npm ci` then refuses the lock as
 * "out of sync". This drops exactly those dangling optional references.
 * Run it after `npm install` changed the lockfile: `npm run fix-lockfile`.
 */
const fs = require('node:fs');
const path = require('node:path');

const lockPath = path.resolve(__dirname, '..', 'package-lock.json');
const lock = JSON.parse(fs.readFileSync(lockPath, 'utf8'));
const packages = lock.packages ?? {};

/** Where Node would resolve `name` from the package at `location`. */
function resolves(location, name) {
  let dir = location;
  for (;;) {
    const candidate = dir
      ? `${dir}/node_modules/${name}`
      : `node_modules/${name}`;
    if (packages[candidate]) return true;
    if (!dir) return false;
    const parent = dir.lastIndexOf('/node_modules/');
    dir = parent === -1 ? '' : dir.slice(0, parent);
  }
}

let pruned = 0;
for (const [location, entry] of Object.entries(packages)) {
  const optional = entry.optionalDependencies;
  if (!optional) continue;
  for (const name of Object.keys(optional)) {
    if (!resolves(location, name)) {
      delete optional[name];
      pruned++;
    }
  }
  if (Object.keys(optional).length === 0) delete entry.optionalDependencies;
}

fs.writeFileSync(lockPath, `${JSON.stringify(lock, null, 2)}\n`);
console.log(
  `package-lock.json: pruned ${pruned} optional dependencies the registry does not serve`,
);

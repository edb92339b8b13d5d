/**
 * Builds saved across processes in a cache folder (the publisher's clone
 * cache): one JSON file of built objects per key, the key being a digest of
 * everything the build read, so a new CLI process or backend pod does not
 * run kustomize again on inputs built before. The folder is bounded to its
 * newest saves.
 */
import { randomUUID } from 'node:crypto';
import { promises as fs } from 'node:fs';
import path from 'node:path';
import type { BuiltObject } from './build';

/** The build saved under `key` in `cacheDir`, if any. */
export async function readSavedBuild(
  cacheDir: string | undefined,
  key: string,
): Promise<BuiltObject[] | undefined> {
  if (!cacheDir) return undefined;
  try {
    return JSON.parse(
      await fs.readFile(path.join(cacheDir, `${key}.json`), 'utf8'),
    );
  } catch {
    return undefined; // not saved, or half written by a killed run
  }
}

/** Saves a build; keeps the folder to the newest `maxSaved` builds. */
export async function saveBuild(
  cacheDir: string | undefined,
  key: string,
  objects: BuiltObject[],
  maxSaved: number,
): Promise<void> {
  if (!cacheDir) return;
  await fs.mkdir(cacheDir, { recursive: true });
  const file = path.join(cacheDir, `${key}.json`);
  // Unique per write: builds now run side by side in one process too.
  const temp = `${file}.${process.pid}.${randomUUID()}.tmp`;
  await fs.writeFile(temp, JSON.stringify(objects));
  await fs.rename(temp, file);
  const saved = (await fs.readdir(cacheDir)).filter(f => f.endsWith('.json'));
  if (saved.length <= maxSaved) return;
  const ages = await Promise.all(
    saved.map(async f => ({
      f,
      mtime:
        (await fs.stat(path.join(cacheDir, f)).catch(() => undefined))
          ?.mtimeMs ?? 0,
    })),
  );
  ages.sort((a, b) => a.mtime - b.mtime);
  for (const { f } of ages.slice(0, ages.length - maxSaved)) {
    await fs.rm(path.join(cacheDir, f), { force: true });
  }
}

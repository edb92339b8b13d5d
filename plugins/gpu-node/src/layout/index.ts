export * from './layout';
export * from './names';
export {
  compileRepoLayout,
  type CompiledRepoLayout,
  type LayoutPlace,
} from './compileRepoLayout';
export type { EntryPattern } from './layoutPattern';

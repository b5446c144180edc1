/**
 * The layers of docs/architecture.md as data: the wings of the harness, its entries and the folders of
 * the scripts, read from .dependency-cruiser.mjs, which makes its rules from the same data
 * (npm run check:layers draws them; npm run check:imports keeps each script in its folder).
 */
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { IConfiguration } from 'dependency-cruiser';
import { REPO_ROOT } from './repo-root.ts';

const CONFIG_FILE = join(REPO_ROOT, '.dependency-cruiser.mjs');

export interface Layer {
  wings: string[];
  name: string;
}

export interface ScriptKind {
  folder: string;
  name: string;
}

export interface LayerConfig {
  default: IConfiguration;
  LAYERS: Layer[];
  ENTRIES: string[];
  SCRIPT_KINDS: ScriptKind[];
  SCRIPT_LIB: string;
}

export async function layerConfig(): Promise<LayerConfig> {
  return (await import(pathToFileURL(CONFIG_FILE).href)) as LayerConfig;
}

/** The layers and the folders of the scripts, as .dependency-cruiser.mjs states them. */
export type Layout = Pick<LayerConfig, 'LAYERS' | 'ENTRIES' | 'SCRIPT_KINDS' | 'SCRIPT_LIB'>;

/**
 * Tool manifests: files of the package, beside the code, that name and
 * describe each tool and point at the module that implements it.
 *
 *   # manifests/tools/get_app_bundle_id.yaml (XcodeBuildMCP)
 *   id: get_app_bundle_id
 *   module: mcp/tools/project-discovery/get_app_bundle_id
 *   names:
 *     mcp: get_app_bundle_id
 *   description: Extract bundle id from .app.
 *
 * The harness loads the module the manifest names and registers its
 * exported `schema` and `handler` under the manifest's name and
 * description, so that is the contract the model sees. YAML (the top-level
 * keys a manifest uses, block scalars included) and JSON objects are read;
 * the package's manifests are listed (as its source files are, at most
 * `MAX_PACKAGE_FILES`) and read once per process.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';

import { listPackageFiles, packageRootOf } from './package-files.js';

/** What a manifest states for the module it names. */
export interface ToolManifest {
  name: string | undefined;
  description: string | undefined;
}

const MANIFEST_FILE = /\.(?:ya?ml|json)$/;
/** A manifest is small; a bigger YAML or JSON file is data, not a tool's manifest. */
const MAX_MANIFEST_BYTES = 64 * 1024;

function unquote(value: string): string {
  const trimmed = value.trim();
  if ((trimmed.startsWith('"') && trimmed.endsWith('"')) || (trimmed.startsWith("'") && trimmed.endsWith("'"))) {
    return trimmed.slice(1, -1);
  }
  return trimmed;
}

/** The top-level keys of a YAML mapping, with one level of nested keys (`names.mcp`) and block scalars (`description: >-`). */
function readYaml(text: string): Map<string, string> {
  const values = new Map<string, string>();
  const lines = text.split(/\r?\n/);
  for (let index = 0; index < lines.length; index += 1) {
    const top = /^([A-Za-z_][\w-]*):\s*(.*)$/.exec(lines[index]!);
    if (!top) continue;
    const [, key, rest] = top as unknown as [string, string, string];
    const block: string[] = [];
    while (index + 1 < lines.length && (/^\s+\S/.test(lines[index + 1]!) || lines[index + 1]!.trim() === '')) {
      index += 1;
      block.push(lines[index]!);
    }
    if (/^[>|][+-]?\s*$/.test(rest)) {
      values.set(
        key,
        block
          .map((line) => line.trim())
          .join(rest.startsWith('>') ? ' ' : '\n')
          .trim(),
      );
    } else if (rest.trim() !== '') {
      values.set(key, unquote(rest));
    } else {
      for (const line of block) {
        const nested = /^\s+([A-Za-z_][\w-]*):\s*(\S.*)$/.exec(line);
        if (nested) values.set(`${key}.${nested[1]}`, unquote(nested[2]!));
      }
    }
  }
  return values;
}

function readJson(text: string): Map<string, string> {
  const values = new Map<string, string>();
  try {
    const parsed: unknown = JSON.parse(text);
    if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed)) return values;
    for (const [key, value] of Object.entries(parsed)) if (typeof value === 'string') values.set(key, value);
  } catch {
    // Not JSON after all: no manifest.
  }
  return values;
}

/** The manifests of a package, by the module each names (as written: `mcp/tools/x/y`). */
const manifestsByRoot = new Map<string, Map<string, ToolManifest>>();

function listManifests(root: string): Map<string, ToolManifest> {
  const manifests = new Map<string, ToolManifest>();
  for (const file of listPackageFiles(root, (name) => MANIFEST_FILE.test(name) && name !== 'package.json')) {
    let text: string;
    try {
      text = readFileSync(file, 'utf8');
    } catch {
      continue;
    }
    if (text.length > MAX_MANIFEST_BYTES || !/\bmodule\b/.test(text)) continue;
    const values = file.endsWith('.json') ? readJson(text) : readYaml(text);
    const module = values.get('module');
    if (module === undefined) continue;
    manifests.set(module.replace(/^\.\//, '').replace(/\.[cm]?[jt]s$/, ''), {
      name: values.get('names.mcp') ?? values.get('name') ?? values.get('id'),
      description: values.get('description'),
    });
  }
  return manifests;
}

/** The manifest of the package that names the module at `filePath`, if one does. */
export function manifestOfModule(filePath: string): ToolManifest | undefined {
  const root = packageRootOf(filePath);
  if (root === undefined) return undefined;
  let manifests = manifestsByRoot.get(root);
  if (!manifests) manifestsByRoot.set(root, (manifests = listManifests(root)));
  if (manifests.size === 0) return undefined;
  const withoutExtension = path
    .relative(root, filePath)
    .split(path.sep)
    .join('/')
    .replace(/\.[cm]?[jt]sx?$/, '');
  for (const [module, manifest] of manifests) {
    if (withoutExtension === module || withoutExtension.endsWith(`/${module}`)) return manifest;
  }
  return undefined;
}

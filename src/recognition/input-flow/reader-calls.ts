/**
 * Reader calls: what counts as reading a location, and the `ReadFinding`
 * that records one. A call reads when it is a reader of readers.ts
 * (`fs.readFile`, `fetch`, a configured reader) or a content search process
 * given the model's location, or when it is a method of a service or executor
 * we cannot see into whose name says it reads what its argument names
 * (`backend.read(filePath)`, `session.viewImage({ path })`). Such a read of a
 * model-chosen location is the first half of circular persistence: the tool
 * can be pointed at a persisted result, and if it returns what it read, the
 * result comes back whole. Requests to page-fetching APIs are api-requests.ts.
 */
import { AST_NODE_TYPES, type TSESTree } from '@typescript-eslint/utils';

import { declaredAround, getCalleeLastName, getMemberPath, getStaticKeyName, skipTypeWrappers } from '../ast.js';
import { SERVICE_READER_NAME, matchReader, matchSearchProcess, navigatedReceiver, opensWithWriteFlags } from '../readers.js';
import type { NormalizedReaderSpec } from '../settings.js';
import {
  type OriginScope,
  hasFixedOrigin,
  isConfinedToShippedFolder,
  joinsOntoShippedFolder,
  namesEntryById,
  namesFixedFile,
  queriesFetchingEndpoint,
} from './fixed-locations.js';
import type { Taint } from './propagation.js';
import type { FlowEnvironment } from './type-services.js';

/** One helper a read passes through on its way to the reader. */
export interface ReadStep {
  /** The function called at this step. */
  name: string;
  filePath: string;
}

/** A read of a model-chosen location found in a function: the call, and the reader it reaches. */
export interface ReadFinding {
  /** The call in the analysed function that reads, itself or through helpers. */
  call: TSESTree.CallExpression | TSESTree.NewExpression;
  /** That call's callee as written: `processSingleFileContent`, `fs.readFile`. */
  callName: string;
  /** The reader at the end of the chain: `fs.promises.readFile`. */
  reader: string;
  readerKind: NormalizedReaderSpec['kind'];
  /** Helpers passed through, outermost first (empty when `call` is the reader). */
  via: ReadStep[];
}

/** A read of a folder's listing (`readDirectoryWithTreeOutput`, `loadFolder`): it answers with names, not what is in them. */
const LISTING_READER_NAME = /^(?:read|load|open|view|fetch)(?:Dir|Directory|Directories|Folder|Folders|Tree)(?:[A-Z_\d]|$)/;
/**
 * A read of what is known about a location (`fetchVideoInfo(url)`, `readFileMetadata(path)`,
 * `fetchHeaders(url)`): it answers with facts about the thing there (a title, a size, a status), not
 * with what is in it.
 */
const FACTS_READER_NAME = /(?:Info|Infos|Metadata|Meta|Stats|Stat|Status|Headers|Exists|Size)$/;
const URL_SERVICE_READER_NAME = /^(?:fetch|scrape|crawl|download|extract)/;
/** `extract` also unpacks archives: it reads a page only when what it is given is a URL. */
const URL_ONLY_SERVICE_READER_NAME = /^extract/;
/** Names of values and fields that hold a location, not an id or a query. */
const LOCATION_NAME = /path|url|uri|file|dir|folder|location|href|link|src|notebook|document|image/i;
/** Names of values and fields that hold a URL. */
export const URL_NAME = /url|uri|href|link/i;

/**
 * `String(url)`, `encodeURI(url)`, `new URL(url)`: the same location, converted.
 * (Not `url.toString()`: fastmcp's OpenAPI tools build `url` on a base the
 * taint cannot tell fixed, and would be taken for model-chosen.)
 */
export function unwrapConversion(node: TSESTree.Node): TSESTree.Node {
  let target = skipTypeWrappers(node);
  for (let depth = 0; depth < 4; depth += 1) {
    if (target.type === AST_NODE_TYPES.AwaitExpression) {
      target = skipTypeWrappers(target.argument);
      continue;
    }
    if (target.type !== AST_NODE_TYPES.CallExpression && target.type !== AST_NODE_TYPES.NewExpression) break;
    const callee = skipTypeWrappers(target.callee);
    const [first] = target.arguments;
    if (
      callee.type === AST_NODE_TYPES.Identifier &&
      /^(?:String|URL|encodeURI|encodeURIComponent|decodeURI|decodeURIComponent)$/.test(callee.name) &&
      first
    ) {
      target = skipTypeWrappers(first);
      continue;
    }
    break;
  }
  return target;
}

export function namesLocation(node: TSESTree.Node, name = LOCATION_NAME): boolean {
  const target = unwrapConversion(node);
  if (target.type === AST_NODE_TYPES.ObjectExpression) {
    return target.properties.some(
      (property) => property.type === AST_NODE_TYPES.Property && name.test(getStaticKeyName(property.key, property.computed) ?? ''),
    );
  }
  const path = getMemberPath(target);
  return path !== undefined && name.test(path[path.length - 1]!);
}

/**
 * Where a search looks: a folder or file path (`path`, `rootPath`, `dir`), not
 * a URL, an image option or a domain filter of a web search API.
 */
const SEARCH_LOCATION_NAME = /path|dir|folder/i;
const SEARCH_SERVICE_NAME = /^(?:grep|ripgrep|search)(?:[A-Z_\d]|$)|^[a-z]+(?:Grep|Search)$/;

/** A search given a model-chosen folder or path: the argument itself, or a field of an options object that carries input. */
function searchesInputLocation(argument: TSESTree.Node, taint: Taint): boolean {
  const target = skipTypeWrappers(argument);
  if (target.type !== AST_NODE_TYPES.ObjectExpression) return taint.has(target) && namesLocation(target, SEARCH_LOCATION_NAME);
  return target.properties.some(
    (property) =>
      property.type === AST_NODE_TYPES.Property &&
      SEARCH_LOCATION_NAME.test(getStaticKeyName(property.key, property.computed) ?? '') &&
      taint.has(property.value),
  );
}

/** A method call on a service whose name reads, given a model-chosen location: the kind of read, else undefined. */
export function namedServiceRead(
  call: TSESTree.CallExpression | TSESTree.NewExpression,
  scope: OriginScope,
  environment: FlowEnvironment,
): 'file' | 'url' | undefined {
  const callee = skipTypeWrappers(call.callee);
  if (call.type !== AST_NODE_TYPES.CallExpression || callee.type !== AST_NODE_TYPES.MemberExpression) return undefined;
  const path = getMemberPath(callee);
  const method = path?.[path.length - 1];
  if (method === undefined || !SERVICE_READER_NAME.test(method) || LISTING_READER_NAME.test(method) || FACTS_READER_NAME.test(method)) {
    return undefined;
  }
  if (method.startsWith('open') && opensWithWriteFlags(call)) return undefined;
  if (SEARCH_SERVICE_NAME.test(method))
    return call.arguments.some((argument) => searchesInputLocation(argument, scope.taint)) ? 'file' : undefined;
  const locationName = URL_ONLY_SERVICE_READER_NAME.test(method) ? URL_NAME : LOCATION_NAME;
  const location = call.arguments.find((argument) => scope.taint.has(argument) && namesLocation(argument, locationName));
  if (!location) return undefined;
  if (!URL_SERVICE_READER_NAME.test(method)) return 'file';
  // `fetchJson({ url: 'https://api…/' + id })`: the location field decides.
  const target = unwrapConversion(location);
  const value =
    target.type === AST_NODE_TYPES.ObjectExpression
      ? target.properties.find(
          (property): property is TSESTree.Property =>
            property.type === AST_NODE_TYPES.Property && locationName.test(getStaticKeyName(property.key, property.computed) ?? ''),
        )?.value
      : target;
  return value && hasFixedOrigin(value, scope, environment) ? undefined : 'url';
}

/** A read a call makes itself, as a reader of readers.ts or a content search process. */
export interface ReaderCallRead {
  finding: ReadFinding;
  /** The object the read loaded the location into (`page.goto(url)`), when it is one. */
  navigated: TSESTree.Expression | undefined;
}

/**
 * Whether a call is itself a reader or a content search, and reads a
 * location the model chose: `undefined` when it is neither (look further: a
 * request, a helper, a service), `null` when it is one but its location is
 * not the model's, else the read.
 */
/** The last name of a call that writes a file: `fs.writeFile`, `writeFileSync`, `sandbox.writeFile`, `ctx.fs.writeEditableText`, `atomicWrite`. */
const FILE_WRITER = /^(?:write|save|output|atomicWrite)(?:[A-Z]\w*|File\w*)?$/;

/** `validatedPath`, `this.file`, `args.path`: the same location spelled the same way. */
function sameLocation(a: TSESTree.Node, b: TSESTree.Node): boolean {
  const left = getMemberPath(skipTypeWrappers(a));
  const right = getMemberPath(skipTypeWrappers(b));
  return left !== undefined && right !== undefined && left.join('.') === right.join('.');
}

/**
 * Does the function write the location it reads (`readFile(p)` … `writeFile(p,
 * next)`)? Then the read is its own edit's: what it hands back (the diff of
 * the edit, the text before and after) is the edit, which a write or edit
 * tool reports, not a read the model asked for.
 */
function writesBack(location: TSESTree.Node, scope: OriginScope): boolean {
  // `case 'info': { const fullPath = …; readFile(fullPath) }` beside `case 'create': { const fullPath = …; writeFile(fullPath, …) }`:
  // a name declared in a block is that block's location; a write elsewhere writes another one.
  const root = skipTypeWrappers(location);
  const declarator =
    root.type === AST_NODE_TYPES.Identifier
      ? scope.unit.declarators.find(
          (candidate) =>
            candidate.id.type === AST_NODE_TYPES.Identifier && candidate.id.name === root.name && declaredAround(candidate, root),
        )
      : undefined;
  return scope.unit.calls.some((call) => {
    const name = getCalleeLastName(call);
    const target = call.arguments[0];
    return (
      name !== undefined &&
      FILE_WRITER.test(name) &&
      target !== undefined &&
      sameLocation(target, location) &&
      (declarator === undefined || declaredAround(declarator, call))
    );
  });
}

/**
 * Does the code fix which file a path names, though the model's input is in it: a shipped folder it
 * is confined to or joined onto, a file name the code writes, an entry named by its id?
 */
function codeFixesFile(location: TSESTree.Node, scope: OriginScope): boolean {
  return (
    isConfinedToShippedFolder(location, scope) ||
    joinsOntoShippedFolder(location, scope) ||
    namesFixedFile(location, scope) ||
    namesEntryById(location, scope)
  );
}

/** Reader calls handed the model's input whose location the code fixes (see `readerCallRead`). */
const fixedLocationReads = new WeakSet<TSESTree.CallExpression | TSESTree.NewExpression>();

/**
 * Is this a reader the flow analysis judged, and found the location it reads fixed by the code
 * though the model's input is in it? Then handing it the input is no escape: the analysis saw
 * where it reads.
 */
export function readsFixedLocation(call: TSESTree.CallExpression | TSESTree.NewExpression): boolean {
  return fixedLocationReads.has(call);
}

export function readerCallRead(
  call: TSESTree.CallExpression | TSESTree.NewExpression,
  scope: OriginScope,
  environment: FlowEnvironment,
): ReaderCallRead | null | undefined {
  const { taint, file } = scope;
  const reader = matchReader(call, file, environment.settings);
  if (reader) {
    const argument = reader.pathArgument;
    if (!argument || !taint.has(argument)) return null;
    // The model's input is in the location, but the code fixes where it is (a shipped folder, an entry named by its id).
    const fixed =
      // (a reader proxy asked by query, `${base}/read?url=${url}`, reads the model's URL all the same)
      (reader.spec.kind === 'url' && hasFixedOrigin(argument, scope, environment) && !queriesFetchingEndpoint(argument, scope)) ||
      (reader.spec.kind === 'file' && codeFixesFile(argument, scope));
    if (fixed) {
      fixedLocationReads.add(call);
      return null;
    }
    // The location it then writes: its own edit's read (only a finding's absence, never a fixed location).
    if (reader.spec.kind === 'file' && writesBack(argument, scope)) return null;
    return {
      finding: { call, callName: reader.displayName, reader: reader.displayName, readerKind: reader.spec.kind, via: [] },
      navigated: navigatedReceiver(call, reader),
    };
  }
  const search = matchSearchProcess(call);
  if (search) {
    // `spawn(rg, ['-n', pattern, dir])`: a content search prints the lines it matched in the model's path.
    // `` execCommand(`cat "${metadataPath}"`) `` of a file the code names (`${dir}/${id}.meta.json`) reads no model-chosen file.
    const modelChosen = (location: TSESTree.Node): boolean => {
      const target = skipTypeWrappers(location);
      const parts = target.type === AST_NODE_TYPES.TemplateLiteral ? target.expressions : [target];
      return parts.some((part) => taint.has(part) && !codeFixesFile(part, scope));
    };
    if (search.locations.some(modelChosen)) {
      return {
        finding: { call, callName: search.displayName, reader: search.displayName, readerKind: 'file', via: [] },
        navigated: undefined,
      };
    }
    return null;
  }
  return undefined;
}

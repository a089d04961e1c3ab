/**
 * Locations the code fixes, so the model did not choose them even when
 * input is in them: a URL whose scheme and host are written in code (an API
 * call, not an arbitrary read; request options whose target fields are
 * fixed), and a path confined to a folder the package ships. Circular
 * persistence needs a tool that reads a model-chosen location and returns
 * what it read: the model can point such a tool at a persisted result, but
 * never an API endpoint or a shipped docs folder at one. A file path merely
 * joined onto a root stays model-chosen: the persisted output may live
 * under that root. `OriginScope` is what these checks, and the reader
 * recognition after them, know about the function they look in.
 */
import { AST_NODE_TYPES, type TSESTree } from '@typescript-eslint/utils';

import {
  type ClassNode,
  type FunctionNode,
  containsNode,
  declaredAround,
  declaredInScopeOf,
  getMemberPath,
  getStaticKeyName,
  getStringValue,
  isFunctionNode,
  isNullOrUndefined,
  lastNameOf,
  mentionsName,
  moduleDeclarators,
  parameterOwner,
  skipTypeWrappers,
  walk,
} from '../ast.js';
import type { FileIndex } from '../file-index.js';
import { returnedExpressions } from '../output-flow.js';
import { resolveClassName, resolveLocalName } from '../module-graph.js';
import { getClassMethod } from '../tool-shapes/vocabulary.js';
import { resolveCallee } from './callees.js';
import { type FunctionUnit, Taint, propagate, unitOf } from './propagation.js';
import { taintParameters } from './taint-sources.js';
import type { FlowEnvironment } from './type-services.js';

/** A URL head that writes scheme and host in full: `https://api.example.com/…`. */
const FIXED_ORIGIN = /^[a-z][a-z\d+.-]*:\/\/[^/?#\s$]+[/?#]/i;
/**
 * A root-relative path (`/threads/posts/${postId}`): a location on whatever origin it is resolved against,
 * never one the path chooses (not `//host/…`, which names a host). Handed to a client that resolves it on
 * its own base (`new URL(path, API_URL)`), it stays on that base.
 */
const ROOT_RELATIVE = /^\/(?![/\\])/;
/**
 * A relative path (`projects/${project}/databases/…`, `repos/${owner}/contents/…`): no scheme, no host, a
 * first segment that cannot be a host name (no dot, not `localhost`). Resolved on the base of the client it
 * is handed to, it stays there, whatever the model puts in its later segments.
 */
const RELATIVE_PATH = /^(?!localhost\/)[\w-]+\//;
/** A URL head that writes scheme and host and leaves only the port to an expression: `http://localhost:`. */
const HOST_BEFORE_PORT = /^[a-z][a-z\d+.-]*:\/\/[^/?#\s$:@]+:$/i;
/** An instance field that holds the endpoint a tool was configured with: `this.url`, `this.apiBase`, `this.baseURL`. */
const CONFIGURED_ENDPOINT = /^(?:url|base_?url|api_?(?:base|url|endpoint)|endpoint|server_?url|instance_?url|host)$/i;
/** What the fixed-origin check needs to know about the function it looks in. */
export interface OriginScope {
  taint: Taint;
  unit: FunctionUnit;
  file: FileIndex;
  classNode: ClassNode | undefined;
  /** Parameters that carry input inside a URL whose origin the caller fixed. */
  fixedOriginNames: ReadonlySet<string>;
  /** Parameters the caller filled with a folder the package ships (`getDocumentationStructure(paths.docsPath, section)`). */
  shippedNames?: ReadonlySet<string>;
}

const MAX_ORIGIN_DEPTH = 6;

/** The literal text a string expression starts with: `'/items/' + id` → `/items/`. */
function stringHead(node: TSESTree.Node): string | undefined {
  let target = skipTypeWrappers(node);
  while (target.type === AST_NODE_TYPES.BinaryExpression && target.operator === '+') target = skipTypeWrappers(target.left);
  if (target.type === AST_NODE_TYPES.TemplateLiteral) return target.quasis[0]?.value.cooked ?? undefined;
  if (target.type === AST_NODE_TYPES.Literal && typeof target.value === 'string') return target.value;
  return undefined;
}

/**
 * A URL whose scheme and host are written in code — a literal
 * `https://host/…` head, or a head that comes from code rather than input
 * (`${this.baseUrl}…`, a helper that builds `https://api…` URLs): an API
 * call, not an arbitrary read. `property` asks about `value.<property>`
 * (`request.url` of a returned `{ url, headers }`).
 */
export function hasFixedOrigin(
  node: TSESTree.Node,
  scope: OriginScope,
  environment: FlowEnvironment,
  depth = 0,
  property?: string,
  assumed: ReadonlySet<string> = new Set(),
): boolean {
  if (depth > MAX_ORIGIN_DEPTH) return false;
  const target = skipTypeWrappers(node);
  const { taint, unit, file } = scope;
  switch (target.type) {
    case AST_NODE_TYPES.Literal:
      return property === undefined;
    case AST_NODE_TYPES.TemplateLiteral: {
      const head = target.quasis[0]?.value.cooked ?? '';
      if (FIXED_ORIGIN.test(head) || ROOT_RELATIVE.test(head) || RELATIVE_PATH.test(head)) return true;
      // `http://localhost:${serverInfo.httpPort}/api/…`: the host is written in code; a port, whoever picks it, only
      // fills a slot of that host (a service there, never a location a persisted result is at).
      if (HOST_BEFORE_PORT.test(head) && target.expressions.length > 0 && /^[/?#]/.test(target.quasis[1]?.value.cooked ?? '')) {
        return true;
      }
      // `${this.baseUrl}/search?q=${input}`: the origin comes from code; so it does when the head is a
      // URL of fixed origin itself (`${base}/result`, `base` = `http://localhost:${port}/api/reviews/${id}`).
      const firstExpression = target.expressions[0];
      if (head !== '' || firstExpression === undefined) return false;
      if (!taint.has(firstExpression)) return true;
      // `${basePath}:runQuery` with `basePath = `projects/${project}/…``: a relative path, whatever follows it.
      if (startsAsPath(firstExpression, scope)) return true;
      return (
        /^(?:[/?#]|$)/.test(target.quasis[1]?.value.cooked ?? '') &&
        hasFixedOrigin(firstExpression, scope, environment, depth + 1, undefined, assumed)
      );
    }
    case AST_NODE_TYPES.BinaryExpression: {
      if (target.operator !== '+') return false;
      let leftmost: TSESTree.Node = target;
      while (leftmost.type === AST_NODE_TYPES.BinaryExpression && leftmost.operator === '+') leftmost = leftmost.left;
      const head = stringHead(leftmost);
      if (head !== undefined) return FIXED_ORIGIN.test(head) || ROOT_RELATIVE.test(head);
      return !taint.has(leftmost) || hasFixedOrigin(leftmost, scope, environment, depth + 1, undefined, assumed);
    }
    case AST_NODE_TYPES.ObjectExpression: {
      if (property === undefined) return requestOptionsHaveFixedOrigin(target, scope, environment, depth);
      const value = target.properties.find(
        (candidate): candidate is TSESTree.Property =>
          candidate.type === AST_NODE_TYPES.Property && getMemberPath(candidate.key)?.[0] === property,
      );
      return value !== undefined && hasFixedOrigin(value.value, scope, environment, depth + 1);
    }
    case AST_NODE_TYPES.NewExpression: {
      const [first, base] = target.arguments;
      if (!first) return false;
      // `new URL(path, API_URL)` built from the code's own values (the input is added later, as `searchParams`).
      if (!taint.has(first) && !(base && taint.has(base))) return true;
      // `new URL('/items/' + id, base)`: a path under a base fixed in code.
      if (base && !taint.has(base) && stringHead(first)?.startsWith('/')) return true;
      // A base the model chose (`new URL(path, args.site)`): only an absolute URL written in code leaves it.
      if (base && taint.has(base) && !hasFixedOrigin(base, scope, environment, depth + 1, undefined, assumed)) {
        return FIXED_ORIGIN.test(stringHead(first) ?? '');
      }
      return hasFixedOrigin(first, scope, environment, depth + 1, undefined, assumed);
    }
    case AST_NODE_TYPES.MemberExpression: {
      // `this.url`, `this.apiBase` of a tool built with its endpoint: the configuration holds it, the model did not choose it.
      const field = target.computed ? undefined : getMemberPath(target.property)?.[0];
      if (
        skipTypeWrappers(target.object).type === AST_NODE_TYPES.ThisExpression &&
        field !== undefined &&
        CONFIGURED_ENDPOINT.test(field) &&
        !taint.thisMembers.has(field)
      )
        return true;
      // `url.href` of a fixed URL, `request.url` of a built request.
      const name = target.computed ? undefined : getMemberPath(target.property)?.[0];
      return hasFixedOrigin(target.object, scope, environment, depth + 1, name, assumed);
    }
    case AST_NODE_TYPES.AwaitExpression:
      return hasFixedOrigin(target.argument, scope, environment, depth + 1, property, assumed);
    // `sessionId ? `${base}/sessions/${sessionId}/events` : `${base}/events``: fixed when each branch is.
    case AST_NODE_TYPES.ConditionalExpression:
      return (
        hasFixedOrigin(target.consequent, scope, environment, depth + 1, property, assumed) &&
        hasFixedOrigin(target.alternate, scope, environment, depth + 1, property, assumed)
      );
    case AST_NODE_TYPES.CallExpression: {
      const callee = target.callee;
      // `url.toString()` of a fixed URL.
      if (callee.type === AST_NODE_TYPES.MemberExpression && target.arguments.length === 0 && property === undefined) {
        const method = getMemberPath(callee.property)?.[0];
        if (method === 'toString' || method === 'toJSON')
          return hasFixedOrigin(callee.object, scope, environment, depth + 1, undefined, assumed);
      }
      // `url.replace(/:id\b/, encodeURIComponent(id))`: a slot of a URL the code fixed, filled; the code chose what
      // to replace, or the value is encoded as one component (it can add no `/`, `:` or `@`, so no new host).
      if (callee.type === AST_NODE_TYPES.MemberExpression && property === undefined) {
        const method = getMemberPath(callee.property)?.[0];
        const [pattern, replacement] = target.arguments;
        const encoded =
          replacement?.type === AST_NODE_TYPES.CallExpression && getMemberPath(replacement.callee)?.at(-1) === 'encodeURIComponent';
        if ((method === 'replace' || method === 'replaceAll') && pattern && (!taint.has(pattern) || encoded)) {
          return hasFixedOrigin(callee.object, scope, environment, depth + 1, undefined, assumed);
        }
      }
      // `this.buildUrl(input)`: every URL the helper returns has a fixed origin.
      const resolved = resolveCallee(target, file, scope.classNode, environment.settings);
      if (!resolved) return false;
      const returned = returnedExpressions(resolved.fn);
      if (returned.length === 0) return false;
      const calleeTaint = new Taint([]);
      taintParameters(
        resolved.fn,
        target.arguments.flatMap((argument, index) => (taint.has(argument) ? [index] : [])),
        calleeTaint,
      );
      const calleeUnit = unitOf(resolved.fn);
      for (let round = 0; round < 50 && propagate(calleeUnit, calleeTaint); round += 1) {
        // Until nothing new is tainted.
      }
      // `buildUrl('https://api.github.com/search/code', params)`: a parameter the caller fills with
      // a URL of fixed origin keeps it inside the helper (`const url = new URL(baseUrl)`).
      const fixedOriginNames = new Set<string>();
      resolved.fn.params.forEach((parameter, index) => {
        const argument = target.arguments[index];
        if (parameter.type !== AST_NODE_TYPES.Identifier || !argument || argument.type === AST_NODE_TYPES.SpreadElement) return;
        if (hasFixedOrigin(argument, scope, environment, depth + 1)) fixedOriginNames.add(parameter.name);
      });
      const calleeScope: OriginScope = {
        taint: calleeTaint,
        unit: calleeUnit,
        file: resolved.file,
        classNode: resolved.classNode,
        fixedOriginNames,
      };
      return returned.every((expression) => hasFixedOrigin(expression, calleeScope, environment, depth + 1, property));
    }
    case AST_NODE_TYPES.Identifier: {
      // `finalUrl = finalUrl.replace(…)`: while a local's own origin is being decided, each step keeps what the others give it.
      if (assumed.has(target.name)) return true;
      if (property === undefined && hostCheckedAgainstList(target, taint)) return true;
      const inside = new Set([...assumed, target.name]);
      const initialisers = unit.declarators.filter(
        (declarator) =>
          declarator.id.type === AST_NODE_TYPES.Identifier && declarator.id.name === target.name && declaredAround(declarator, target),
      );
      // A URL built in steps (`let url = `${base}/v2${path}`; url += `?${query}``): appending
      // never changes the origin, so only a plain `=` must fix one as well.
      const replacing = unit.assignments.filter(
        (assignment) =>
          assignment.left.type === AST_NODE_TYPES.Identifier &&
          assignment.left.name === target.name &&
          assignment.operator !== '+=' &&
          !isNextPageLink(assignment.right),
      );
      if (replacing.length > 0 && property !== undefined) return false;
      if (replacing.some((assignment) => !hasFixedOrigin(assignment.right, scope, environment, depth + 1, undefined, inside))) return false;
      if (initialisers.length === 0 && scope.fixedOriginNames.has(target.name)) return property === undefined;
      if (initialisers.length === 1 && initialisers[0]!.init) {
        return hasFixedOrigin(initialisers[0]!.init, scope, environment, depth + 1, property, inside);
      }
      if (replacing.length > 0 && initialisers.every((declarator) => !declarator.init)) return true;
      const owner = initialisers.length === 0 ? parameterOwner(target) : undefined;
      if (owner) {
        const handed = closureArguments(owner, target.name, unit);
        return (
          handed !== undefined && handed.every((argument) => hasFixedOrigin(argument, scope, environment, depth + 1, property, inside))
        );
      }
      // A module's constant, or a bundle's module-level `var` (`var WIKIPEDIA_API_URL = "https://en.wikipedia.org/w/api.php"`).
      const constant = initialisers.length === 0 ? (file.constants.get(target.name) ?? moduleVariableInit(file, target.name)) : undefined;
      return constant && declaredInScopeOf(constant, target) ? hasFixedOrigin(constant, scope, environment, depth + 1, property) : false;
    }
    default:
      return false;
  }
}

/** The field an API's answer names its next page by: `nextLink`, `@odata.nextLink`, `next_url`, `next`. */
const NEXT_PAGE_FIELD = /^(?:@odata\.)?next(?:_?(?:link|url|page_?url|href))?$/i;

/**
 * `currentUrl = page.nextLink || null`: paging on, a URL loop takes the next page's link from the
 * answer of the page it asked. The API at the loop's first URL chose it, so it keeps that URL's
 * origin (a URL the model supplied stays the model's: the first URL decides).
 */
function isNextPageLink(value: TSESTree.Node): boolean {
  let target = skipTypeWrappers(value);
  if (target.type === AST_NODE_TYPES.LogicalExpression && (target.operator === '||' || target.operator === '??')) {
    if (!isNullOrUndefined(target.right)) return false;
    target = skipTypeWrappers(target.left);
  }
  if (target.type !== AST_NODE_TYPES.MemberExpression) return false;
  const field = target.computed ? getStringValue(target.property) : getStaticKeyName(target.property, false);
  return field !== undefined && NEXT_PAGE_FIELD.test(field);
}

/**
 * A parameter is whatever its callers pass, never a `const` of the same name elsewhere in the module. A
 * closure of the function (`const fetchWithTimeout = (url) => fetch(url, …)`, `const buildStructure = (dirPath,
 * obj) => …`) is called where we can see: what the calls made outside it hand that parameter (its own
 * recursive calls hand on what it derived). `owner` is the function whose parameter `name` is; undefined when
 * it is no closure of the unit, or nothing outside calls it: the function's own parameters are what
 * `fixedOriginNames` and `shippedNames` say.
 */
function closureArguments(owner: FunctionNode, name: string, unit: FunctionUnit): TSESTree.Node[] | undefined {
  const closure = unit.closures.find((candidate) => candidate.fn === owner);
  const index = owner.params.findIndex((parameter) => parameter.type === AST_NODE_TYPES.Identifier && parameter.name === name);
  if (!closure || index < 0) return undefined;
  const handed: TSESTree.Node[] = [];
  for (const call of unit.calls) {
    const callee = skipTypeWrappers(call.callee);
    if (callee.type !== AST_NODE_TYPES.Identifier || callee.name !== closure.name || containsNode(owner, call)) continue;
    const argument = call.arguments[index];
    if (argument === undefined || argument.type === AST_NODE_TYPES.SpreadElement) return undefined;
    handed.push(argument);
  }
  return handed.length > 0 ? handed : undefined;
}

/** The parts of a URL that name where it points. */
const URL_HOST_FIELDS = new Set(['hostname', 'host', 'origin']);
/** Membership tests of a list or set: `allowed.includes(x)`, `ALLOWED_HOSTS.has(x)`. */
const MEMBERSHIP_METHODS = new Set(['includes', 'has']);

/**
 * `if (!allowedDomains.includes(docUrl.hostname)) throw new UserInputError(…)`: before the URL is used, the
 * function refuses any host not on a list of its own, so the URL points at one of the code's hosts (Sentry's
 * `get_doc`, which resolves the model's path on docs.sentry.io and checks the host).
 */
function hostCheckedAgainstList(identifier: TSESTree.Identifier, taint: Taint): boolean {
  let fn: TSESTree.Node | undefined = identifier.parent;
  while (fn && !isFunctionNode(fn)) fn = fn.parent;
  return isFunctionNode(fn) && hostChecksIn(fn).some((check) => check.name === identifier.name && !taint.has(check.list));
}

/** The host checks a function makes (`if (!list.includes(url.hostname)) throw …`): the URL's name and the list. */
const hostChecks = new WeakMap<FunctionNode, { name: string; list: TSESTree.Node }[]>();

function hostChecksIn(fn: FunctionNode): { name: string; list: TSESTree.Node }[] {
  const known = hostChecks.get(fn);
  if (known) return known;
  const checks: { name: string; list: TSESTree.Node }[] = [];
  if (fn.body) {
    walk(fn.body, (node) => {
      if (node.type !== AST_NODE_TYPES.IfStatement) return undefined;
      const test = skipTypeWrappers(node.test);
      const call = test.type === AST_NODE_TYPES.UnaryExpression && test.operator === '!' ? skipTypeWrappers(test.argument) : undefined;
      if (call?.type !== AST_NODE_TYPES.CallExpression || call.callee.type !== AST_NODE_TYPES.MemberExpression) return undefined;
      const method = getStaticKeyName(call.callee.property, call.callee.computed);
      const checkedPart = call.arguments[0] ? getMemberPath(skipTypeWrappers(call.arguments[0])) : undefined;
      const last = node.consequent.type === AST_NODE_TYPES.BlockStatement ? node.consequent.body.at(-1) : node.consequent;
      const refuses = last?.type === AST_NODE_TYPES.ThrowStatement || last?.type === AST_NODE_TYPES.ReturnStatement;
      if (
        refuses &&
        method !== undefined &&
        MEMBERSHIP_METHODS.has(method) &&
        checkedPart?.length === 2 &&
        URL_HOST_FIELDS.has(checkedPart[1]!)
      ) {
        checks.push({ name: checkedPart[0]!, list: call.callee.object });
      }
      return undefined;
    });
  }
  hostChecks.set(fn, checks);
  return checks;
}

/** Endpoints of scraping, extraction and reader APIs: what they answer is the page at the URL they were sent. */
const FETCHING_ENDPOINT_WORDS = 'scrape|extract|crawl|contents|read|reader|fetch';
export const FETCHING_ENDPOINT = new RegExp(`^(?:${FETCHING_ENDPOINT_WORDS})$`, 'i');
/**
 * Is an endpoint's last path segment named for fetching pages: the word itself (`/v2/scrape`) or a
 * name that ends in it (`/api/web_fetch`, `/page-scrape`, `urlReader`)? What it is asked is said last.
 */
export function namesFetchingEndpoint(segment: string): boolean {
  const last = segment.split(/[_-]|(?<=[a-z])(?=[A-Z])/).pop() ?? segment;
  return FETCHING_ENDPOINT.test(last);
}
/** `…/read?url=` at the end of a URL's text so far: a fetching endpoint, then a query parameter named for a URL. */
const FETCHING_QUERY = new RegExp(`/(?:${FETCHING_ENDPOINT_WORDS})\\?(?:[^#]*&)?(?:url|uri|href|link|target)=$`, 'i');

/** The pieces of a URL built by `+` or a template, in order: text written in code, or an expression. */
function urlPieces(node: TSESTree.Node, scope: OriginScope, depth: number, into: (string | TSESTree.Node)[]): void {
  const target = skipTypeWrappers(node);
  if (target.type === AST_NODE_TYPES.Literal && typeof target.value === 'string') into.push(target.value);
  else if (target.type === AST_NODE_TYPES.BinaryExpression && target.operator === '+') {
    urlPieces(target.left, scope, depth, into);
    urlPieces(target.right, scope, depth, into);
  } else if (target.type === AST_NODE_TYPES.TemplateLiteral) {
    target.quasis.forEach((quasi, index) => {
      into.push(quasi.value.cooked ?? '');
      const expression = target.expressions[index];
      if (expression) urlPieces(expression, scope, depth, into);
    });
  } else if (target.type === AST_NODE_TYPES.Identifier && depth < 3) {
    // `const readUrl = getRefUrl() + "/read?url=" + encodeURIComponent(url)`: what the local was built as.
    const declarators = scope.unit.declarators.filter(
      (declarator) => declarator.id.type === AST_NODE_TYPES.Identifier && declarator.id.name === target.name,
    );
    const init = declarators.length === 1 ? declarators[0]!.init : undefined;
    if (init) urlPieces(init, scope, depth + 1, into);
    else into.push(target);
  } else into.push(target);
}

/**
 * A reader proxy asked by query (`getRefUrl() + "/read?url=" + encodeURIComponent(url)`,
 * `` `${base}/scrape?url=${target}` ``): the origin is the API's, fixed in code, but the model's
 * URL goes in a parameter named for one to an endpoint named for fetching pages, and the API
 * answers with that page. A read of the model's location, as a body `{ url }` sent to
 * `/v2/scrape` is (`api-requests.ts`).
 */
export function queriesFetchingEndpoint(node: TSESTree.Node, scope: OriginScope): boolean {
  const pieces: (string | TSESTree.Node)[] = [];
  urlPieces(node, scope, 0, pieces);
  let text = '';
  for (const piece of pieces) {
    if (typeof piece === 'string') {
      text += piece;
      continue;
    }
    if (scope.taint.has(piece) && FETCHING_QUERY.test(text)) return true;
    // Something the code computed: keep its place, it is no query text.
    text += '\u0000';
  }
  return false;
}

/** Fields of request options (`https.request(options)`, `axios({ url })`) that name where the request goes. */
const REQUEST_TARGET_FIELDS = new Set(['url', 'baseURL', 'host', 'hostname', 'origin']);

/**
 * Request options (`{ hostname: url.hostname, path, headers: { 'Content-Length':
 * Buffer.byteLength(payload) } }`) go where their target fields say: when each
 * such field is written in code (takes nothing from input, or is a URL of
 * fixed origin), the input only fills the body, a header or a path of an API
 * the code chose (a telemetry post, an upload), not a location the model picks.
 * Options with no target field say nothing.
 */
function requestOptionsHaveFixedOrigin(
  options: TSESTree.ObjectExpression,
  scope: OriginScope,
  environment: FlowEnvironment,
  depth: number,
): boolean {
  let targets = 0;
  for (const property of options.properties) {
    if (property.type === AST_NODE_TYPES.SpreadElement) {
      if (scope.taint.has(property.argument)) return false;
      continue;
    }
    const key = getStaticKeyName(property.key, property.computed);
    if (key === undefined || !REQUEST_TARGET_FIELDS.has(key)) continue;
    targets += 1;
    if (scope.taint.has(property.value) && !hasFixedOrigin(property.value, scope, environment, depth + 1)) return false;
  }
  return targets > 0;
}

/**
 * The initialiser of a module-level `var` or `let` (a bundle's `var packageRoot = path.resolve(__dirname, "..")`):
 * where a folder comes from, whatever the bundler made of its `const`.
 */
function moduleVariableInit(file: FileIndex, name: string): TSESTree.Expression | undefined {
  return moduleDeclarators(file.program, name)[0]?.init ?? undefined;
}

/** Does a value come from where the code itself is installed (`__dirname`, `import.meta.url`), directly or through a local helper? */
function isShippedLocation(
  node: TSESTree.Node,
  unit: FunctionUnit,
  file: FileIndex,
  depth = 0,
  shippedNames: ReadonlySet<string> = new Set(),
): boolean {
  if (depth > 4) return false;
  let shipped = false;
  walk(node, (inner) => {
    if (shipped) return false;
    if (
      inner.type === AST_NODE_TYPES.MetaProperty ||
      (inner.type === AST_NODE_TYPES.Identifier && (inner.name === '__dirname' || inner.name === '__filename'))
    ) {
      shipped = true;
      return false;
    }
    // A name, or the object of a member (`paths.docsPath`, where `paths = getVoltAgentPaths()`); not a member's own name.
    if (
      inner.type === AST_NODE_TYPES.Identifier &&
      !(inner.parent?.type === AST_NODE_TYPES.MemberExpression && inner.parent.property === inner && !inner.parent.computed)
    ) {
      const declarator = unit.declarators.find(
        (candidate) => candidate.id.type === AST_NODE_TYPES.Identifier && candidate.id.name === inner.name,
      );
      const owner = declarator ? undefined : parameterOwner(inner);
      if (owner) {
        // `buildStructure(targetPath, structure)` into `(dirPath, obj) => …`: what the closure's callers hand it;
        // a parameter of the function itself is what its caller handed (`shippedNames`).
        const handed = closureArguments(owner, inner.name, unit);
        shipped =
          handed !== undefined
            ? handed.every((argument) => isShippedLocation(argument, unit, file, depth + 1, shippedNames))
            : shippedNames.has(inner.name);
        return false;
      }
      const init = declarator?.init ?? file.constants.get(inner.name) ?? moduleVariableInit(file, inner.name);
      if (init && init !== node && (declarator !== undefined || declaredInScopeOf(init, inner))) {
        shipped = isShippedLocation(init, unit, file, depth + 1, shippedNames);
      }
    }
    if (inner.type === AST_NODE_TYPES.CallExpression && inner.callee.type === AST_NODE_TYPES.Identifier) {
      // A local helper, or one imported from a module of the package (`getDataDirectory()` in its own file).
      const helper = resolveLocalName(file, inner.callee.name);
      if (helper?.fn.body) shipped = isShippedLocation(helper.fn.body, unitOf(helper.fn), helper.file, depth + 1);
    }
    return undefined;
  });
  return shipped;
}

/**
 * Does a value the code hands a helper name a folder the package ships (`paths.docsPath`, where `paths =
 * getVoltAgentPaths()`)? The helper's parameter is then that folder (see `OriginScope.shippedNames`).
 */
export function namesShippedLocation(argument: TSESTree.Node, scope: OriginScope): boolean {
  const target = skipTypeWrappers(argument);
  if (target.type === AST_NODE_TYPES.Literal || scope.taint.has(target)) return false;
  return isShippedLocation(target, scope.unit, scope.file, 0, scope.shippedNames);
}

/** Does a local hold a path with no host of its own (`const basePath = `projects/${project}``)? */
function startsAsPath(node: TSESTree.Node, scope: OriginScope): boolean {
  const target = skipTypeWrappers(node);
  const value = target.type === AST_NODE_TYPES.Identifier ? soleInitialiser(target, scope) : undefined;
  const head = value ? stringHead(value) : undefined;
  return head !== undefined && (ROOT_RELATIVE.test(head) || RELATIVE_PATH.test(head));
}

/**
 * What a local of the scope's function holds: its one initialiser, when nothing assigns it again.
 * Of the declarations of its name, the one around the use (each `case` of a dispatch may declare
 * its own `const filePath`); an assignment counts where that declaration is seen.
 */
function soleInitialiser(local: TSESTree.Identifier, scope: Pick<OriginScope, 'unit'>): TSESTree.Expression | null | undefined {
  const initialisers = scope.unit.declarators.filter(
    (declarator) =>
      declarator.id.type === AST_NODE_TYPES.Identifier && declarator.id.name === local.name && declaredAround(declarator, local),
  );
  const [declarator] = initialisers;
  if (initialisers.length !== 1 || !declarator) return undefined;
  const replaced = scope.unit.assignments.some(
    (assignment) =>
      assignment.left.type === AST_NODE_TYPES.Identifier && assignment.left.name === local.name && declaredAround(declarator, assignment),
  );
  return replaced ? undefined : declarator.init;
}

/** The arguments of a path join (`path.join(a, b)`, `resolve(a, b)`, any receiver), when it joins at least two parts. */
function pathJoinArguments(node: TSESTree.Node): TSESTree.CallExpressionArgument[] | undefined {
  if (node.type !== AST_NODE_TYPES.CallExpression) return undefined;
  const method = getMemberPath(node.callee)?.at(-1);
  return (method === 'join' || method === 'resolve') && node.arguments.length >= 2 ? node.arguments : undefined;
}

/**
 * A path joined onto a folder the package ships (`path.join(DATA_DIR, `${year}/${id}.json`)`,
 * where `DATA_DIR` comes from `import.meta.url` or `__dirname`): the model picks a file among
 * those the package installed, where no persisted result is ever written. A path joined onto
 * any other root (a workspace, a configured directory) stays model-chosen.
 */
export function joinsOntoShippedFolder(argument: TSESTree.Node, scope: OriginScope): boolean {
  return underShippedFolder(argument, {
    unit: scope.unit,
    file: scope.file,
    fromInput: (part) => scope.taint.has(part),
    shippedNames: scope.shippedNames ?? new Set(),
  });
}

/** Where a path is built: the function's locals, its module, and which of its parts carry input. */
interface PathScope {
  unit: FunctionUnit;
  file: FileIndex;
  fromInput: (part: TSESTree.Node) => boolean;
  shippedNames: ReadonlySet<string>;
}

/**
 * `joinsOntoShippedFolder`, also where the folder is built in steps: a root that is itself a path
 * under the shipped folder (`join(cacheDir(projectId), META_FILE)`, where `cacheDir` joins the
 * project id onto `resolve(__dirname, '..', '..')`), and a path a helper of the package builds
 * (`readFile(keyToPath(projectId, key))`): the tool's own folder inside its installation.
 */
function underShippedFolder(argument: TSESTree.Node, scope: PathScope, depth = 0): boolean {
  if (depth > 4) return false;
  const target = skipTypeWrappers(argument);
  if (target.type === AST_NODE_TYPES.Identifier) {
    const init = soleInitialiser(target, scope);
    return init ? underShippedFolder(init, scope, depth + 1) : false;
  }
  // `section ? path.join(docsPath, section) : docsPath`, `optimizedPath || resolvedPath` (a shipped file's smaller
  // copy when there is one, else the file itself): each branch the shipped folder or a path joined onto it.
  const branches =
    target.type === AST_NODE_TYPES.ConditionalExpression
      ? [target.consequent, target.alternate]
      : target.type === AST_NODE_TYPES.LogicalExpression && (target.operator === '||' || target.operator === '??')
        ? [target.left, target.right]
        : undefined;
  if (branches) return branches.every((branch) => !scope.fromInput(branch) || underShippedFolder(branch, scope, depth + 1));
  const parts = pathJoinArguments(target);
  if (parts) {
    const root = parts[0];
    if (!root || root.type === AST_NODE_TYPES.SpreadElement) return false;
    if (!scope.fromInput(root)) return isShippedLocation(root, scope.unit, scope.file, 0, scope.shippedNames);
    return underShippedFolder(root, scope, depth + 1);
  }
  if (target.type !== AST_NODE_TYPES.CallExpression) return false;
  const helper = pathHelper(target, scope.file);
  if (!helper?.fn.body) return false;
  const unit = unitOf(helper.fn);
  return everyReturnedPath(helper.fn, (expression, fromInput) =>
    underShippedFolder(expression, { unit, file: helper.file, fromInput, shippedNames: new Set() }, depth + 1),
  );
}

/**
 * Does every path a helper of the package returns (`jobFile(id)`, `keyToPath(projectId, key)`) pass `test`,
 * given which of its parts come from the helper's parameters (what its caller handed it)?
 */
function everyReturnedPath(
  helper: FunctionNode,
  test: (expression: TSESTree.Expression, fromInput: (part: TSESTree.Node) => boolean) => boolean,
): boolean {
  if (!helper.body) return false;
  const parameters = new Set(helper.params.flatMap((parameter) => (parameter.type === AST_NODE_TYPES.Identifier ? [parameter.name] : [])));
  const fromInput = (part: TSESTree.Node): boolean => mentionsName(part, parameters);
  const returned = returnedExpressions(helper);
  return returned.length > 0 && returned.every((expression) => test(expression, fromInput));
}

/** The text of a module's string constant (`const META_FILE = '_meta.json'`), where no local of the same name hides it. */
function constantText(name: TSESTree.Identifier, file: FileIndex): string | undefined {
  const constant = file.constants.get(name.name);
  return constant && declaredInScopeOf(constant, name) ? stringHead(constant) : undefined;
}

/** A last path segment that names a file: `state.json`, `SKILL.md`, `.env`. */
const FILE_NAME_SEGMENT = /^(?:[\w@+-][\w.@+-]*\.[A-Za-z0-9]{1,8}|\.[\w-]+)$/;

/**
 * A file the code names under a folder the model may choose:
 * `path.join(projectRoot, '.taskmaster', 'state.json')`, `` `${dir}/SKILL.md` ``.
 * The model picks the folder, the code picks the file: such a read can never
 * be pointed at a persisted result (whose file name the harness generates),
 * so it is no model-chosen location for circular persistence. A path whose
 * last segment comes from the input (`path.join(root, input.file)`) is.
 */
export function namesFixedFile(argument: TSESTree.Node, scope: OriginScope, depth = 0): boolean {
  if (depth > 4) return false;
  const target = skipTypeWrappers(argument);
  switch (target.type) {
    case AST_NODE_TYPES.CallExpression: {
      const last = pathJoinArguments(target)?.at(-1);
      // `path.join(root, META_FILE)`, where the module's `const META_FILE = '_meta.json'`: a name the code writes as well.
      const segment =
        last && last.type !== AST_NODE_TYPES.SpreadElement && !scope.taint.has(last)
          ? (stringHead(last) ?? (last.type === AST_NODE_TYPES.Identifier ? constantText(last, scope.file) : undefined))
          : undefined;
      return segment !== undefined && FILE_NAME_SEGMENT.test(segment.split('/').at(-1) ?? '');
    }
    case AST_NODE_TYPES.TemplateLiteral: {
      const tail = target.quasis.at(-1)?.value.cooked ?? '';
      return target.expressions.length > 0 && tail.includes('/') && FILE_NAME_SEGMENT.test(tail.split('/').at(-1) ?? '');
    }
    case AST_NODE_TYPES.BinaryExpression: {
      if (target.operator !== '+' || scope.taint.has(target.right)) return false;
      const tail = stringHead(target.right) ?? '';
      return tail.includes('/') && FILE_NAME_SEGMENT.test(tail.split('/').at(-1) ?? '');
    }
    case AST_NODE_TYPES.Identifier: {
      const init = soleInitialiser(target, scope);
      return init ? namesFixedFile(init, scope, depth + 1) : false;
    }
    default:
      return false;
  }
}

/** An input that names an entry rather than a place: `id`, `jobId`, `task_id`. */
const ID_NAME = /^(?:id|ids|pid|uuid|guid|[a-z][A-Za-z0-9]*Id|[A-Za-z0-9]+_id)$/;
/** What the code may write before the id in the file's name: `background-` of `background-${pid}.log`, or a folder. */
const NAME_PREFIX = /(?:^|\/)[\w.-]*$/;
/** A file extension the code writes after the entry's id: `.json`, `.md`. */
const EXTENSION = /^\.[A-Za-z0-9]{1,8}$/;

function isIdNamed(node: TSESTree.Node): boolean {
  const name = lastNameOf(node);
  return name !== undefined && ID_NAME.test(name);
}

/**
 * `path.join(jobsDir, `${jobId}.json`)`, `` `${dir}/${id}.md` ``: the code picks the folder and
 * the kind of file, the input only names an entry by its id. `fromInput` says whether a part
 * comes from the input (the taint here, a parameter in a helper).
 */
function idEntryPath(node: TSESTree.Node, fromInput: (part: TSESTree.Node) => boolean): boolean {
  const target = skipTypeWrappers(node);
  if (target.type === AST_NODE_TYPES.CallExpression) {
    const parts = pathJoinArguments(target);
    const last = parts?.at(-1);
    if (!parts || !last || last.type === AST_NODE_TYPES.SpreadElement) return false;
    const folder = parts.slice(0, -1);
    return folder.every((part) => part.type !== AST_NODE_TYPES.SpreadElement && !fromInput(part)) && idEntryPath(last, fromInput);
  }
  if (target.type === AST_NODE_TYPES.TemplateLiteral) {
    const id = target.expressions.at(-1);
    const tail = target.quasis.at(-1)?.value.cooked ?? '';
    const before = target.quasis.at(-2)?.value.cooked ?? '';
    return (
      id !== undefined &&
      isIdNamed(id) &&
      EXTENSION.test(tail) &&
      NAME_PREFIX.test(before) &&
      target.expressions.slice(0, -1).every((part) => !fromInput(part))
    );
  }
  if (target.type === AST_NODE_TYPES.BinaryExpression && target.operator === '+') {
    const tail = stringHead(target.right);
    return tail !== undefined && EXTENSION.test(tail) && isIdNamed(target.left);
  }
  return false;
}

/** The function a path-building call runs: `jobFile(id)` of this module or an import, `ShellExecutionService.getLogFilePath(pid)` of a class. */
function pathHelper(call: TSESTree.CallExpression, file: FileIndex): { fn: FunctionNode; file: FileIndex } | undefined {
  const callee = skipTypeWrappers(call.callee);
  if (callee.type === AST_NODE_TYPES.Identifier) return resolveLocalName(file, callee.name);
  if (callee.type !== AST_NODE_TYPES.MemberExpression || callee.object.type !== AST_NODE_TYPES.Identifier) return undefined;
  const method = getStaticKeyName(callee.property, callee.computed);
  const owner = method === undefined ? undefined : resolveClassName(file, callee.object.name);
  const fn = owner && method !== undefined ? getClassMethod(owner.classNode, method) : undefined;
  return fn && owner ? { fn, file: owner.file } : undefined;
}

/**
 * A file the input names by an id, in a folder the code chooses (`path.join(jobsDir,
 * `${jobId}.json`)`, also built by a local helper: `jobFilePath(jobId)`): an entry of the tool's
 * own store, never a location the model picks, so never a persisted result.
 */
export function namesEntryById(argument: TSESTree.Node, scope: OriginScope, depth = 0): boolean {
  if (depth > 4) return false;
  const target = skipTypeWrappers(argument);
  if (target.type === AST_NODE_TYPES.Identifier) {
    const init = soleInitialiser(target, scope);
    return init ? namesEntryById(init, scope, depth + 1) : false;
  }
  if (target.type === AST_NODE_TYPES.CallExpression) {
    const helper = pathHelper(target, scope.file);
    return helper !== undefined && everyReturnedPath(helper.fn, idEntryPath);
  }
  return idEntryPath(target, (part) => scope.taint.has(part));
}

/**
 * A path the code confines to a folder it ships (`if (!p.startsWith(docsRoot))
 * throw`, `path.relative(docsRoot, p)` checked): the model only picks a file
 * among those the package installed, never a persisted result elsewhere.
 */
export function isConfinedToShippedFolder(argument: TSESTree.Node, scope: OriginScope): boolean {
  const target = skipTypeWrappers(argument);
  if (target.type !== AST_NODE_TYPES.Identifier) return false;
  return scope.unit.calls.some((call) => {
    const path = getMemberPath(call.callee);
    const method = path?.[path.length - 1];
    const [first, second] = call.arguments;
    let root: TSESTree.Node | undefined;
    if (method === 'startsWith' && call.callee.type === AST_NODE_TYPES.MemberExpression) {
      const subject = skipTypeWrappers(call.callee.object);
      if (subject.type === AST_NODE_TYPES.Identifier && subject.name === target.name) root = first;
    } else if (method === 'relative' && second && skipTypeWrappers(second).type === AST_NODE_TYPES.Identifier) {
      if ((skipTypeWrappers(second) as TSESTree.Identifier).name === target.name) root = first;
    }
    return root !== undefined && !scope.taint.has(root) && isShippedLocation(root, scope.unit, scope.file, 0, scope.shippedNames);
  });
}

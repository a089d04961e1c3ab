/**
 * Requests to page-fetching APIs (issue 12): a request reads the page at a
 * model-chosen URL when that URL is the target of an HTTP client (a reader
 * proxy such as `r.jina.ai`), or travels in the body of a request to an
 * endpoint named for fetching pages (`post('/v2/scrape', { url })`): the
 * scraping or extraction API answers with the page itself, so a tool that
 * returns the answer returns what it read from where the model pointed it,
 * the circular persistence a self-reading tool risks. `UrlCarriage` says how
 * surely a request argument carries such a URL; `'opaque'` leaves it to the
 * caller's argument when the URL is only a parameter it filled.
 */
import { AST_NODE_TYPES, type TSESTree } from '@typescript-eslint/utils';

import { declaredInScopeOf, getMemberPath, getStaticKeyName, isParameterName, skipTypeWrappers } from '../ast.js';
import { type OriginScope, hasFixedOrigin, namesFetchingEndpoint } from './fixed-locations.js';
import { URL_NAME, namesLocation, unwrapConversion } from './reader-calls.js';
import type { FlowEnvironment } from './type-services.js';

/**
 * How surely a request argument carries a model-chosen URL: `'named'` when a
 * value or field named for a URL carries input (`{ url }`, `{ json: { urls } }`,
 * `String(url)`, a local built as such an object), `'opaque'` when input is in it
 * but under no name we can see (a spread or a parameter the caller filled:
 * the caller's argument decides), else undefined.
 */
export type UrlCarriage = 'named' | 'opaque';

export function carriesModelUrl(node: TSESTree.Node, scope: OriginScope, depth = 0): UrlCarriage | undefined {
  if (depth > 4 || !scope.taint.has(node)) return undefined;
  const target = unwrapConversion(node);
  const stronger = (left: UrlCarriage | undefined, right: UrlCarriage | undefined): UrlCarriage | undefined =>
    left === 'named' || right === 'named' ? 'named' : (left ?? right);
  switch (target.type) {
    case AST_NODE_TYPES.ObjectExpression: {
      let carriage: UrlCarriage | undefined;
      for (const property of target.properties) {
        if (property.type === AST_NODE_TYPES.SpreadElement) {
          carriage = stronger(carriage, carriesModelUrl(property.argument, scope, depth + 1));
          continue;
        }
        if (!scope.taint.has(property.value)) continue;
        if (URL_NAME.test(getStaticKeyName(property.key, property.computed) ?? '')) return 'named';
        const value = skipTypeWrappers(property.value);
        // `{ json: { url } }`, `{ body: JSON.stringify({ url }) }`: the body inside the request options, serialised or not.
        if (
          value.type === AST_NODE_TYPES.ObjectExpression ||
          value.type === AST_NODE_TYPES.Identifier ||
          value.type === AST_NODE_TYPES.CallExpression
        ) {
          const inner = carriesModelUrl(value, scope, depth + 1);
          if (inner === 'named') return 'named';
        }
      }
      return carriage;
    }
    case AST_NODE_TYPES.Identifier: {
      if (URL_NAME.test(target.name)) return 'named';
      // `const body = { urls, text }`, `jsonData = { ...jsonData, extract }`: what the local was built as.
      const values = [
        ...scope.unit.declarators
          .filter((declarator) => declarator.id.type === AST_NODE_TYPES.Identifier && declarator.id.name === target.name)
          .map((declarator) => declarator.init),
        ...scope.unit.assignments
          .filter((assignment) => assignment.left.type === AST_NODE_TYPES.Identifier && assignment.left.name === target.name)
          .map((assignment) => assignment.right),
      ].filter((value): value is TSESTree.Expression => value !== null && value !== undefined && value !== node);
      let carriage: UrlCarriage | undefined;
      for (const value of values) {
        const skipped = skipTypeWrappers(value);
        // `jsonData = { ...jsonData, … }` refers to itself: no new information.
        if (skipped.type === AST_NODE_TYPES.Identifier && skipped.name === target.name) continue;
        carriage = stronger(carriage, carriesModelUrl(value, scope, depth + 1));
      }
      return carriage ?? 'opaque';
    }
    case AST_NODE_TYPES.MemberExpression: {
      const path = getMemberPath(target);
      const last = path?.[path.length - 1];
      if (last !== undefined && URL_NAME.test(last)) return 'named';
      return 'opaque';
    }
    case AST_NODE_TYPES.CallExpression: {
      // `JSON.stringify({ url })`, `pruneUndefined({ ...rest })`: the body, serialised or cleaned.
      let carriage: UrlCarriage | undefined;
      for (const argument of target.arguments) carriage = stronger(carriage, carriesModelUrl(argument, scope, depth + 1));
      return carriage ?? 'opaque';
    }
    default:
      return 'opaque';
  }
}

/** Calls that send an HTTP request (`post`, `client.http.post`, `postRequest`, `keylessPost`, `exa.request`). */
const REQUEST_WORDS = new Set(['get', 'post', 'put', 'patch', 'request', 'fetch', 'call']);

function isRequestCall(call: TSESTree.CallExpression | TSESTree.NewExpression): boolean {
  if (call.type !== AST_NODE_TYPES.CallExpression) return false;
  const path = getMemberPath(skipTypeWrappers(call.callee));
  const name = path?.[path.length - 1];
  if (name === undefined) return false;
  return name.split(/(?=[A-Z])|_/).some((word) => REQUEST_WORDS.has(word.toLowerCase()));
}

/** The last path segment of an endpoint the code fixed: `'/v2/scrape'`, `` `${base}/contents` ``, `this.baseURLs.extract`. */
function endpointName(node: TSESTree.Node, scope: OriginScope, depth = 0): string | undefined {
  if (depth > 3 || scope.taint.has(node)) return undefined;
  const target = skipTypeWrappers(node);
  const lastSegment = (text: string): string | undefined =>
    text
      .replace(/[?#].*$/, '')
      .replace(/\/+$/, '')
      .split('/')
      .pop() || undefined;
  switch (target.type) {
    case AST_NODE_TYPES.Literal:
      // `'/v2/scrape'`, or a bare endpoint of a client with a base URL (`ky.post('contents', …)`).
      return typeof target.value === 'string' && (target.value.includes('/') || /^[a-z]+$/i.test(target.value))
        ? lastSegment(target.value)
        : undefined;
    case AST_NODE_TYPES.TemplateLiteral: {
      const tail = target.quasis[target.quasis.length - 1]?.value.cooked ?? '';
      return tail.includes('/') ? lastSegment(tail) : undefined;
    }
    case AST_NODE_TYPES.BinaryExpression:
      return target.operator === '+' ? endpointName(target.right, scope, depth + 1) : undefined;
    case AST_NODE_TYPES.MemberExpression: {
      // `this.baseURLs.extract`: an endpoint table keyed by what each endpoint does.
      const path = getMemberPath(target);
      return path && path.length > 1 ? path[path.length - 1] : undefined;
    }
    case AST_NODE_TYPES.Identifier: {
      const declarator = scope.unit.declarators.find(
        (candidate) => candidate.id.type === AST_NODE_TYPES.Identifier && candidate.id.name === target.name,
      );
      const constant = isParameterName(target) ? undefined : scope.file.constants.get(target.name);
      const init = declarator?.init ?? (constant && declaredInScopeOf(constant, target) ? constant : undefined);
      return init ? endpointName(init, scope, depth + 1) : undefined;
    }
    default:
      return undefined;
  }
}

/** HTTP methods of a client object (`this.kyReader.get(url)`, `axiosInstance.post(url, body)`). */
const HTTP_METHOD = /^(?:get|post|put|patch|delete|head|request|stream)$/;
/** Receivers named for an HTTP client, not a cache or a map (`this.ky`, `this.kyReader`, `httpClient`, `api`). */
const HTTP_CLIENT_NAME =
  /^(?:ky|got|axios|http|https|api|fetcher|client|request)|(?:Ky|Got|Axios|Http|Api|Fetcher|Client|Request|Reader)$|^ky[A-Z]/;

/**
 * A request that reads the page at a model-chosen URL through an API (issue
 * 12): the URL stays model-chosen when it is the target of an HTTP client
 * (`this.kyReader.get(url)` on a `prefixUrl: 'https://r.jina.ai'` client, a
 * reader proxy), or when it travels in the body of a request to an endpoint
 * named for fetching pages (`post('/v2/scrape', { url })`,
 * `exa.request('/contents', 'POST', { urls })`, `axios.post(this.baseURLs.extract, …)`):
 * a scraping or extraction API answers with the page itself. An endpoint that
 * answers with something else (`findSimilar`, `map`, `search`, a job status)
 * is not a read. `'opaque'` when the URL is only a parameter the caller filled.
 */
export function fetchingApiRequest(
  call: TSESTree.CallExpression | TSESTree.NewExpression,
  scope: OriginScope,
  environment: FlowEnvironment,
): UrlCarriage | undefined {
  if (call.type !== AST_NODE_TYPES.CallExpression) return undefined;
  const callee = skipTypeWrappers(call.callee);
  const member = callee.type === AST_NODE_TYPES.ChainExpression ? callee.expression : callee;
  const [first] = call.arguments;
  if (member.type === AST_NODE_TYPES.MemberExpression && !member.computed && first) {
    const method = getMemberPath(member.property)?.[0];
    const receiver = getMemberPath(member.object);
    const receiverName = receiver?.[receiver.length - 1];
    if (
      method !== undefined &&
      HTTP_METHOD.test(method) &&
      receiverName !== undefined &&
      HTTP_CLIENT_NAME.test(receiverName) &&
      scope.taint.has(first) &&
      namesLocation(first, URL_NAME) &&
      !hasFixedOrigin(unwrapConversion(first), scope, environment)
    ) {
      return 'named';
    }
  }
  if (!isRequestCall(call)) return undefined;
  const endpoint = call.arguments.findIndex((argument) => {
    const name = endpointName(argument, scope);
    return name !== undefined && namesFetchingEndpoint(name);
  });
  if (endpoint === -1) return undefined;
  let carriage: UrlCarriage | undefined;
  call.arguments.forEach((argument, index) => {
    if (index === endpoint || carriage === 'named') return;
    const carried = carriesModelUrl(argument, scope);
    if (carried) carriage = carried;
  });
  return carriage;
}

/**
 * A tool's contract: what the model is shown of it — its name, its
 * description and its input schema (each field's name and description).
 * The contract is made of literals, so reading it costs almost nothing, and
 * it is the tool author's own statement of what the tool does. Two stages use
 * it: shape recognition (an object that states a whole contract and carries
 * an invocation is a tool wherever it sits), and the self-reading verdict,
 * where a flow the analysis cannot follow is decided by what the contract
 * says (a tool whose `path` input is "the file to read" and whose name says
 * `read` hands back what is there).
 *
 * Where it is read from, in order: the definition's own object (or class
 * fields), the objects it spreads (`{ ...Definitions.read_file, execute }`),
 * the contract objects it nests (`function: { name, description, parameters }`
 * of OpenAI-style definitions, `schema: readSchema`, `config: { … }`), and for
 * MCP registrations the call's arguments (`server.tool(name, description,
 * shape, handler)`, `registerTool(name, { description, inputSchema }, …)`).
 */
import { AST_NODE_TYPES, type TSESTree } from '@typescript-eslint/utils';

import {
  type ClassNode,
  constructorSuperCalls,
  findProperty,
  getStaticKeyName,
  getStringValue,
  isClassNode,
  programOf,
  skipTypeWrappers,
  topLevelDeclarators,
} from './ast.js';
import { programFileIndex, programPath } from './file-index.js';
import { resolveLocalName } from './module-graph.js';
import { resolveToolName, staticValueOf } from './tool-name.js';
import { type ToolDefinition, classMemberByName, constructorAssignment } from './tool-shapes/vocabulary.js';

export interface ContractInput {
  /** The field's name as the model fills it (`path`, `file_path`, `urls`). */
  name: string;
  /** Its description, when the schema states one statically. */
  description: string | undefined;
  /** A list or object of locations: the location field inside (`sources: [{ path, url }]` → `path`). */
  locationInside?: string;
  /** A boolean or number field (`includeChangedFiles: z.boolean()`): a flag, never a location. */
  scalar?: boolean;
  /** The named schema the field is built from (`a: RequiredPath.describe(…)` → `RequiredPath`), when it is one. */
  schemaName?: string;
  /** A record of its own fields, none of them a location (`location: { name, country }`): a place, not a path. */
  place?: boolean;
  /** The values it is limited to (`enum: ['read', 'write']`, `z.enum([…])`), when the schema spells them. */
  choices?: string[];
}

/** Namespaces of schema libraries: `z.string()` is built from zod, not from a schema the code names. */
const SCHEMA_LIBRARIES = new Set(['z', 'zod', 'Type', 't', 'T', 'v', 'S', 'Schema', 'yup', 'Joi', 'joi', 'ow', 'type', 'arktype']);

/** The schema constant a field's chain starts from (`RequiredPath.describe(…)`, `PathSchema.optional()`). */
function namedSchemaOf(value: TSESTree.Node, depth = 0): string | undefined {
  const target = skipTypeWrappers(value);
  if (depth > 12) return undefined;
  if (target.type === AST_NODE_TYPES.Identifier) return SCHEMA_LIBRARIES.has(target.name) ? undefined : target.name;
  if (target.type === AST_NODE_TYPES.CallExpression && target.callee.type === AST_NODE_TYPES.MemberExpression) {
    return namedSchemaOf(target.callee.object, depth + 1);
  }
  return undefined;
}

/** `z.boolean()`, `z.number().optional()`, `{ type: 'boolean' }`, `Type.Integer()`: a flag or a count. */
function isScalarSchema(value: TSESTree.Node, depth = 0): boolean {
  const target = skipTypeWrappers(value);
  if (depth > 12) return false;
  if (target.type === AST_NODE_TYPES.ObjectExpression) {
    const type = findProperty(target, 'type');
    const text = type ? getStringValue(type.value) : undefined;
    return text === 'boolean' || text === 'number' || text === 'integer';
  }
  if (target.type !== AST_NODE_TYPES.CallExpression || target.callee.type !== AST_NODE_TYPES.MemberExpression) return false;
  const method = getStaticKeyName(target.callee.property, target.callee.computed);
  const receiver = skipTypeWrappers(target.callee.object);
  if (receiver.type === AST_NODE_TYPES.Identifier) return /^(?:boolean|number|int|bigint|Boolean|Number|Integer)$/.test(method ?? '');
  return isScalarSchema(receiver, depth + 1);
}

export interface ToolContract {
  name: string | undefined;
  /** The description's text, when the code spells it statically. */
  description: string | undefined;
  /** Does the definition state a description at all (`description: buildDescription(…)` too)? */
  statesDescription: boolean;
  /** The top-level fields of the input schema, when the schema is written out. */
  inputs: ContractInput[];
  /** Does the definition state an input schema at all (even one not written out here)? */
  hasInputSchema: boolean;
}

/** Property keys that hold the input schema, across SDKs and harnesses. */
export const INPUT_SCHEMA_KEYS = [
  'inputSchema',
  'input_schema',
  'input',
  'parameters',
  'schema',
  'argsSchema',
  'paramsSchema',
  'zodSchema',
  'args',
];
/**
 * Property keys that hold a nested contract object (`function: { name, description, parameters }`,
 * `toolDefinition: { name, description, inputSchema }` beside the `handler` that runs it).
 */
const NESTED_CONTRACT_KEYS = [
  'function',
  'schema',
  'config',
  'definition',
  'spec',
  'declaration',
  'metadata',
  'toolDefinition',
  'tool_definition',
  'toolSpec',
  'toolConfig',
];

/**
 * Does this object literal state, by its own keys, part of what the model
 * sees: a name, a description, an input schema or a nested contract? A tool
 * the model can call states one of them; an object that states none
 * (`{ type, event, execute }`, `{ items, concurrency, execute }`) is an
 * options bag with a callback.
 */
export function statesContractMember(object: TSESTree.ObjectExpression): boolean {
  return object.properties.some((property) => {
    if (property.type !== AST_NODE_TYPES.Property) return false;
    const key = getStaticKeyName(property.key, property.computed);
    return (
      key !== undefined &&
      (key === 'name' || key === 'description' || INPUT_SCHEMA_KEYS.includes(key) || NESTED_CONTRACT_KEYS.includes(key))
    );
  });
}
/** How deep nested contracts, spreads and constants are followed. */
const MAX_CONTRACT_DEPTH = 4;

/** The string a description spells: literals, templates (their text parts), concatenations, constants. */
export function staticText(node: TSESTree.Node | null | undefined, depth = 0): string | undefined {
  if (!node || depth > MAX_CONTRACT_DEPTH) return undefined;
  const target = skipTypeWrappers(node);
  const literal = getStringValue(target);
  if (literal !== undefined) return literal;
  if (target.type === AST_NODE_TYPES.TemplateLiteral) return target.quasis.map((quasi) => quasi.value.cooked ?? '').join(' ');
  if (target.type === AST_NODE_TYPES.TaggedTemplateExpression) return staticText(target.quasi, depth + 1);
  if (target.type === AST_NODE_TYPES.BinaryExpression && target.operator === '+') {
    const parts = [staticText(target.left, depth + 1), staticText(target.right, depth + 1)].filter((part) => part !== undefined);
    return parts.length > 0 ? parts.join('') : undefined;
  }
  // `[...].join('\n')`: the lines of a long description.
  if (target.type === AST_NODE_TYPES.CallExpression && target.callee.type === AST_NODE_TYPES.MemberExpression) {
    const method = getStaticKeyName(target.callee.property, target.callee.computed);
    const receiver = skipTypeWrappers(target.callee.object);
    if (method === 'join' && receiver.type === AST_NODE_TYPES.ArrayExpression) {
      return receiver.elements.map((element) => (element ? (staticText(element, depth + 1) ?? '') : '')).join(' ');
    }
    if (method === 'trim' || method === 'trimStart' || method === 'trimEnd') return staticText(receiver, depth + 1);
  }
  if (target.type === AST_NODE_TYPES.Identifier || target.type === AST_NODE_TYPES.MemberExpression) {
    const value = staticValueOf(target);
    return value && value !== target ? staticText(value, depth + 1) : undefined;
  }
  return undefined;
}

/** The object literal `node` is or stands for (a constant, a member of a constant object). */
function objectOf(node: TSESTree.Node | null | undefined): TSESTree.ObjectExpression | undefined {
  if (!node) return undefined;
  const value = staticValueOf(node);
  const target = value ? skipTypeWrappers(value) : undefined;
  return target?.type === AST_NODE_TYPES.ObjectExpression ? target : undefined;
}

/** `.describe('…')` / `.meta({ description })` anywhere in a zod chain: the field's description. */
function chainDescription(node: TSESTree.Node, depth = 0): string | undefined {
  const target = skipTypeWrappers(node);
  if (depth > 12 || target.type !== AST_NODE_TYPES.CallExpression) return undefined;
  const callee = target.callee;
  if (callee.type === AST_NODE_TYPES.MemberExpression) {
    const method = getStaticKeyName(callee.property, callee.computed);
    if (method === 'describe') return staticText(target.arguments[0]);
    if (method === 'meta') {
      const meta = objectOf(target.arguments[0]);
      const description = meta ? findProperty(meta, 'description') : undefined;
      if (description) return staticText(description.value);
    }
    const inner = chainDescription(callee.object, depth + 1);
    if (inner !== undefined) return inner;
  }
  // `z.optional(z.string().describe(…))`, `Type.String({ description })`.
  for (const argument of target.arguments) {
    const object = skipTypeWrappers(argument);
    if (object.type === AST_NODE_TYPES.ObjectExpression) {
      const description = findProperty(object, 'description');
      if (description) return staticText(description.value);
    } else {
      const inner = chainDescription(object, depth + 1);
      if (inner !== undefined) return inner;
    }
  }
  return undefined;
}

/**
 * The fields of the objects a field's schema holds, one level down: `z.array(z.object({ path, url }))`,
 * `{ type: 'array', items: { properties: { path } } }`, `{ type: 'object', properties: { url } }`.
 */
function innerFields(value: TSESTree.Node): ContractInput[] {
  const target = skipTypeWrappers(value);
  if (target.type === AST_NODE_TYPES.CallExpression) {
    const shape = schemaCallShape(target);
    if (shape) return shapeFields(shape, false);
    // `z.union([z.object({…}), z.object({…})])`: the members' fields.
    const members = target.arguments.flatMap((argument) => {
      const written = skipTypeWrappers(argument);
      return written.type === AST_NODE_TYPES.ArrayExpression ? written.elements : [argument];
    });
    for (const member of members) {
      const inner = member && member.type !== AST_NODE_TYPES.SpreadElement ? schemaCallShape(member) : undefined;
      if (inner) return shapeFields(inner, false);
    }
    return target.callee.type === AST_NODE_TYPES.MemberExpression ? innerFields(target.callee.object) : [];
  }
  if (target.type !== AST_NODE_TYPES.ObjectExpression) return [];
  const items = findProperty(target, 'items');
  const holder = items ? objectOf(items.value) : target;
  const properties = holder ? findProperty(holder, 'properties') : undefined;
  const propertiesObject = properties ? objectOf(properties.value) : undefined;
  return propertiesObject ? shapeFields(propertiesObject, false) : [];
}

/** The string values a field's schema is limited to: a JSON schema's `enum`, or `z.enum([…])` in a zod chain. */
function choicesOf(value: TSESTree.Node, depth = 0): string[] | undefined {
  const target = skipTypeWrappers(value);
  if (depth > 12) return undefined;
  let list: TSESTree.Node | undefined;
  if (target.type === AST_NODE_TYPES.ObjectExpression) list = findProperty(target, 'enum')?.value;
  else if (target.type === AST_NODE_TYPES.CallExpression && target.callee.type === AST_NODE_TYPES.MemberExpression) {
    const method = getStaticKeyName(target.callee.property, target.callee.computed);
    if (method === 'enum') list = target.arguments[0];
    else return choicesOf(target.callee.object, depth + 1);
  }
  const array = list ? staticValueOf(list) : undefined;
  if (array?.type !== AST_NODE_TYPES.ArrayExpression) return undefined;
  const choices = array.elements.map((element) => (element ? getStringValue(element) : undefined)).filter((text) => text !== undefined);
  return choices.length > 0 ? choices : undefined;
}

/**
 * `const { limit, depth, ...scrapeBase } = crawlParams` at a module's top: `scrapeBase` is the
 * constant's object without the keys named beside the rest.
 */
function restOfConstant(node: TSESTree.Node): { object: TSESTree.Node; omitted: ReadonlySet<string> } | undefined {
  if (node.type !== AST_NODE_TYPES.Identifier) return undefined;
  const program = programOf(node);
  for (const declarator of program ? topLevelDeclarators(program) : []) {
    if (declarator.id.type !== AST_NODE_TYPES.ObjectPattern || !declarator.init) continue;
    const rest = declarator.id.properties.find((property) => property.type === AST_NODE_TYPES.RestElement);
    if (rest?.type !== AST_NODE_TYPES.RestElement || rest.argument.type !== AST_NODE_TYPES.Identifier || rest.argument.name !== node.name) {
      continue;
    }
    const object = staticValueOf(declarator.init);
    if (!object) return undefined;
    const omitted = new Set<string>();
    for (const property of declarator.id.properties) {
      const key = property.type === AST_NODE_TYPES.Property ? getStaticKeyName(property.key, property.computed) : undefined;
      if (key !== undefined) omitted.add(key);
    }
    return { object, omitted };
  }
  return undefined;
}

/**
 * The fields of a written-out object shape: `{ path: z.string().describe(…) }` or JSON schema properties;
 * also those of the shapes it spreads (`{ ...scrapeBase, ...screenshotParams }`, `{ ...Base.shape, extra }`).
 */
function shapeFields(shape: TSESTree.ObjectExpression, lookInside = true, depth = 0): ContractInput[] {
  const fields: ContractInput[] = [];
  for (const property of shape.properties) {
    if (property.type === AST_NODE_TYPES.SpreadElement) {
      if (depth >= MAX_CONTRACT_DEPTH) continue;
      const spread = skipTypeWrappers(property.argument);
      // `...Base.shape` spreads a zod object's own shape.
      const source =
        spread.type === AST_NODE_TYPES.MemberExpression && getStaticKeyName(spread.property, spread.computed) === 'shape'
          ? spread.object
          : spread;
      const rest = restOfConstant(source);
      const value = rest ? rest.object : staticValueOf(source);
      const target = value ? skipTypeWrappers(value) : undefined;
      const spreadShape = target
        ? (schemaCallShape(target) ?? (target.type === AST_NODE_TYPES.ObjectExpression ? target : undefined))
        : undefined;
      if (spreadShape && spreadShape !== shape) {
        const spreadFields = shapeFields(spreadShape, lookInside, depth + 1);
        fields.push(...(rest ? spreadFields.filter((field) => !rest.omitted.has(field.name)) : spreadFields));
      }
      continue;
    }
    if (property.type !== AST_NODE_TYPES.Property) continue;
    const name = getStaticKeyName(property.key, property.computed);
    if (name === undefined) continue;
    const value = skipTypeWrappers(property.value);
    let description: string | undefined;
    if (value.type === AST_NODE_TYPES.ObjectExpression) {
      const described = findProperty(value, 'description');
      description = described ? staticText(described.value) : undefined;
    } else {
      description = chainDescription(value);
    }
    if (isScalarSchema(value)) {
      fields.push({ name, description, scalar: true });
      continue;
    }
    const schemaName = namedSchemaOf(value);
    const field: ContractInput = schemaName === undefined ? { name, description } : { name, description, schemaName };
    const choices = choicesOf(value);
    if (choices) field.choices = choices;
    // `location: z.object({ name, country })`: a record of its own fields is what they say (a place), not a path.
    const inner = innerFields(value);
    if (LOCATION_FIELD_EXACT.test(name) && inner.length > 0 && !inner.some(isLocationField)) field.place = true;
    // `location: 'Location text for the event'`: the place where something happens, written as text or an address
    // (not "Location of the text file").
    if (
      /^location$/i.test(name) &&
      description !== undefined &&
      PLACE_DESCRIPTION.test(description) &&
      !NAMES_STORED_LOCATION.test(description)
    ) {
      field.place = true;
    }
    const inside = lookInside && !isLocationField(field) ? innerFields(value).find(isLocationField) : undefined;
    fields.push(inside ? { ...field, locationInside: inside.name } : field);
  }
  return fields;
}

/** The object a schema call builds from: `z.object({…})`, `z.object({…}).strict()`, `Type.Object({…})`, `z.strictObject(…)`. */
function schemaCallShape(node: TSESTree.Node, depth = 0): TSESTree.ObjectExpression | undefined {
  const target = skipTypeWrappers(node);
  if (depth > 12 || target.type !== AST_NODE_TYPES.CallExpression) return undefined;
  const callee = target.callee;
  if (callee.type !== AST_NODE_TYPES.MemberExpression) return undefined;
  const method = getStaticKeyName(callee.property, callee.computed);
  if (method !== undefined && /^(?:object|strictObject|looseObject|Object|struct)$/.test(method)) {
    const shape = objectOf(target.arguments[0]);
    if (shape) return shape;
  }
  return schemaCallShape(callee.object, depth + 1);
}

/**
 * An input schema written as a list of parameter records (`parameters: [{ name: 'url', type:
 * 'string', description: 'The full URL to fetch' }, …]`): one field per record that names itself.
 */
function parameterRecords(list: TSESTree.ArrayExpression): ContractInput[] {
  const fields: ContractInput[] = [];
  for (const element of list.elements) {
    const record = element && element.type !== AST_NODE_TYPES.SpreadElement ? objectOf(element) : undefined;
    const name = record ? getStringValue(findProperty(record, 'name')?.value) : undefined;
    if (!record || name === undefined) continue;
    const described = findProperty(record, 'description');
    const description = described ? staticText(described.value) : undefined;
    fields.push(isScalarSchema(record) ? { name, description, scalar: true } : { name, description });
  }
  return fields;
}

/** The top-level fields of an input schema, however it is written. */
export function schemaFields(node: TSESTree.Node | null | undefined, depth = 0): ContractInput[] {
  if (!node || depth > MAX_CONTRACT_DEPTH) return [];
  // `Schema.shape`: the raw shape of a zod object schema.
  const written = skipTypeWrappers(node);
  if (written.type === AST_NODE_TYPES.MemberExpression && getStaticKeyName(written.property, written.computed) === 'shape') {
    return schemaFields(written.object, depth + 1);
  }
  const value = staticValueOf(node);
  const target = value ? skipTypeWrappers(value) : undefined;
  if (!target) return [];
  const fromCall = schemaCallShape(target);
  if (fromCall) return shapeFields(fromCall);
  if (target.type === AST_NODE_TYPES.ArrayExpression) return parameterRecords(target);
  if (target.type === AST_NODE_TYPES.CallExpression) {
    // `zodToJsonSchema(Input)`, `toJSONSchema(Input)`, `jsonSchema({...})`: the schema handed in.
    const [first] = target.arguments;
    if (first) return schemaFields(first, depth + 1);
    // `inputSchema: webFetchInputSchema()`: what the module's schema function (its own or imported) returns.
    const returned = schemaFunctionReturn(target);
    return returned ? schemaFields(returned, depth + 1) : [];
  }
  if (target.type !== AST_NODE_TYPES.ObjectExpression) return [];
  const properties = findProperty(target, 'properties');
  const propertiesObject = properties ? objectOf(properties.value) : undefined;
  if (propertiesObject) return shapeFields(propertiesObject);
  // An MCP raw shape: `{ path: z.string(), … }`.
  return shapeFields(target);
}

/**
 * `webFetchInputSchema()`, called with nothing: the one expression the function returns, when it is
 * a function of this module or one imported from a module of the package (`function webFetchInputSchema()
 * { return z.object({ url: … }) }`), the schema written out where it is kept apart from the tools that share it.
 */
function schemaFunctionReturn(call: TSESTree.CallExpression): TSESTree.Node | undefined {
  if (call.callee.type !== AST_NODE_TYPES.Identifier) return undefined;
  const program = programOf(call);
  const filePath = program ? programPath(program) : undefined;
  if (!program || filePath === undefined) return undefined;
  const resolved = resolveLocalName(programFileIndex(program, filePath), call.callee.name);
  const body = resolved?.fn.body;
  if (!body) return undefined;
  if (body.type !== AST_NODE_TYPES.BlockStatement) return body;
  const returns = body.body.filter((statement) => statement.type === AST_NODE_TYPES.ReturnStatement);
  return returns.length === 1 && returns[0]!.type === AST_NODE_TYPES.ReturnStatement ? (returns[0]!.argument ?? undefined) : undefined;
}

function emptyContract(): ToolContract {
  return { name: undefined, description: undefined, statesDescription: false, inputs: [], hasInputSchema: false };
}

/**
 * Keys named for a schema beyond the usual ones (`actionParams`, `toolParameters`, `inputZodSchema`),
 * not an output's (`outputSchema`, `resultSchema`).
 */
function schemaKeysByName(object: TSESTree.ObjectExpression): string[] {
  const keys: string[] = [];
  for (const property of object.properties) {
    if (property.type !== AST_NODE_TYPES.Property) continue;
    const key = getStaticKeyName(property.key, property.computed);
    if (key === undefined || INPUT_SCHEMA_KEYS.includes(key)) continue;
    if (/(?:Params|Parameters|Schema)$/.test(key) && !/^(?:output|result|response|return)/i.test(key)) keys.push(key);
  }
  return keys;
}

/** Methods a zod schema is finished with that change nothing it says (`.strict()`, `.optional()`). */
const SCHEMA_FINISHING_METHODS = new Set(['strict', 'strip', 'passthrough', 'optional', 'nullable', 'default']);

/** The description a schema gives itself at its top (`z.object({…}).describe('…')`), not one of its fields'. */
function schemaOwnDescription(node: TSESTree.Node, depth = 0): string | undefined {
  const value = staticValueOf(node);
  let target = value ? skipTypeWrappers(value) : undefined;
  for (let step = 0; target?.type === AST_NODE_TYPES.CallExpression && step < 8 && depth < 4; step += 1) {
    const callee = target.callee;
    if (callee.type !== AST_NODE_TYPES.MemberExpression) return undefined;
    const method = getStaticKeyName(callee.property, callee.computed);
    if (method === 'describe') return staticText(target.arguments[0]);
    if (method === undefined || !SCHEMA_FINISHING_METHODS.has(method)) return undefined;
    target = skipTypeWrappers(callee.object);
  }
  return undefined;
}

/** Fills what is still missing from one object literal, its spreads and its nested contract objects. */
function readObject(object: TSESTree.ObjectExpression, into: ToolContract, depth: number, seen: Set<TSESTree.Node>): void {
  if (depth > MAX_CONTRACT_DEPTH || seen.has(object)) return;
  seen.add(object);
  if (into.name === undefined) into.name = resolveToolName(findProperty(object, 'name')?.value);
  if (into.description === undefined) {
    const description = findProperty(object, 'description');
    if (description) {
      into.statesDescription = true;
      into.description = staticText(description.value);
    }
  }
  if (!into.hasInputSchema) {
    for (const key of [...INPUT_SCHEMA_KEYS, ...schemaKeysByName(object)]) {
      const schema = findProperty(object, key);
      if (!schema) continue;
      // `schema: readSchema` may be a nested contract (`{ name, description, inputSchema }`), not the schema.
      const nested = objectOf(schema.value);
      if (nested && (findProperty(nested, 'inputSchema') ?? findProperty(nested, 'parameters'))) continue;
      into.hasInputSchema = true;
      into.inputs = schemaFields(schema.value);
      // `z.object({ url }).describe('Navigate to a specific URL')`: a schema that says what the tool does.
      if (into.description === undefined) {
        const described = schemaOwnDescription(schema.value);
        if (described !== undefined) {
          into.description = described;
          into.statesDescription = true;
        }
      }
      break;
    }
  }
  for (const property of object.properties) {
    if (property.type === AST_NODE_TYPES.SpreadElement) {
      const spread = objectOf(property.argument);
      if (spread) readObject(spread, into, depth + 1, seen);
    }
  }
  for (const key of NESTED_CONTRACT_KEYS) {
    const nested = findProperty(object, key);
    const nestedObject = nested ? objectOf(nested.value) : undefined;
    if (nestedObject) readObject(nestedObject, into, depth + 1, seen);
  }
}

/**
 * Methods of a tool class that hand back its declaration for the model (`getDeclaration()` of ADK-style tools,
 * `static get_definition()` of simulacra's, `getSpec()` of the Amazon Q language server's), static or not.
 */
const DECLARATION_METHODS = [
  'getDeclaration',
  'getDefinition',
  'get_definition',
  'get_declaration',
  'toJSON',
  'declaration',
  'definition',
  'getSpec',
  'get_spec',
  'spec',
];

/** What a class's method `name` returns (its first `return`), static or not. */
function methodReturn(classNode: ClassNode, name: string): TSESTree.Node | undefined {
  const member = classMemberByName(classNode, name);
  if (member?.type !== AST_NODE_TYPES.MethodDefinition || member.value.body === null) return undefined;
  const statement = member.value.body.body.find((candidate) => candidate.type === AST_NODE_TYPES.ReturnStatement);
  return statement?.type === AST_NODE_TYPES.ReturnStatement ? (statement.argument ?? undefined) : undefined;
}

/** The object a class's declaration method hands back (`static get_definition() { return { name, description, parameters } }`). */
export function declaredObject(classNode: ClassNode): TSESTree.ObjectExpression | undefined {
  for (const key of DECLARATION_METHODS) {
    const object = objectOf(methodReturn(classNode, key));
    if (object) return object;
  }
  return undefined;
}

/** A class's contract: its `name` / `description` / schema fields, or the strings and schema handed to `super(…)`. */
function readClass(classNode: ClassNode, into: ToolContract): void {
  // A class field, or (tsc's output without class fields) the constructor's `this.name = 'begin_transaction'`.
  const field = (name: string): TSESTree.Node | undefined => {
    const member = classMemberByName(classNode, name);
    if (member?.type === AST_NODE_TYPES.PropertyDefinition) return member.value ?? undefined;
    return member === undefined ? constructorAssignment(classNode, name)?.right : undefined;
  };
  into.name ??= resolveToolName(field('name'));
  const description = field('description');
  if (description) into.statesDescription = true;
  into.description ??= staticText(description);
  // A method may hand the schema or the whole declaration back (`inputSchema() { return z.object(…) }`,
  // `getDeclaration() { return { name, description, parameters } }`).
  for (const key of INPUT_SCHEMA_KEYS) {
    const schema = field(key) ?? methodReturn(classNode, key);
    if (!schema) continue;
    into.hasInputSchema = true;
    into.inputs = schemaFields(schema);
    break;
  }
  const declaration = declaredObject(classNode);
  if (declaration) readObject(declaration, into, 0, new Set());
  if (into.description !== undefined && into.hasInputSchema) return;
  // gemini-cli's `super(Name, displayName, description, kind, parameterSchema)`: the longest text is the description.
  for (const call of constructorSuperCalls(classNode)) {
    // `super({ name, description })`: the options object states the contract.
    const options = call.arguments.length === 1 ? objectOf(call.arguments[0]) : undefined;
    if (options && findProperty(options, 'description')) {
      // The name it states is the one the model sees, not the class's.
      const stated = resolveToolName(findProperty(options, 'name')?.value);
      if (stated !== undefined && into.name === classNode.id?.name) into.name = stated;
      readObject(options, into, 0, new Set());
      continue;
    }
    const texts = call.arguments.map((argument) => staticText(argument)).filter((text): text is string => text !== undefined);
    const longest = texts.sort((a, b) => b.length - a.length)[0];
    if (into.description === undefined && longest !== undefined && /\s/.test(longest)) {
      into.description = longest;
      into.statesDescription = true;
    }
    for (const argument of call.arguments) {
      const fields = schemaFields(argument);
      if (fields.length > 0 && !into.hasInputSchema) {
        into.hasInputSchema = true;
        into.inputs = fields;
      }
    }
  }
}

/** MCP `server.tool(name, description?, shape?, handler)` / `registerTool(name, config, handler)`: the call's own arguments. */
function readRegistrationCall(call: TSESTree.CallExpression, into: ToolContract): void {
  const [, ...rest] = call.arguments;
  for (const argument of rest.slice(0, -1)) {
    if (readDescriptionArgument(argument, into)) continue;
    const object = objectOf(argument);
    if (object && findProperty(object, 'description')) readObject(object, into, 0, new Set());
    else if (object && !into.hasInputSchema) {
      into.hasInputSchema = true;
      into.inputs = schemaFields(object);
    } else if (!object && !into.hasInputSchema) {
      // `types_1.AdbPullSchema.shape`: a schema built elsewhere (a zod object of another module), read where it is built.
      const fields = schemaFields(argument);
      if (fields.length > 0) {
        into.hasInputSchema = true;
        into.inputs = fields;
      }
    }
  }
}

/** Option keys that hold the input schema of a hand-applied decorator (`param_model`, `argsSchema`). */
export const DECORATOR_SCHEMA_OPTION = /(?:schema|model|params|parameters)$/i;

/** A call argument that spells text states the description (the first one found wins). */
function readDescriptionArgument(argument: TSESTree.Node, into: ToolContract): boolean {
  const text = staticText(argument);
  if (text === undefined) return false;
  into.description ??= text;
  into.statesDescription = true;
  return true;
}

/** `action(description, { param_model, … })`: the description, then the options' schema. */
function readDecoratorCall(call: TSESTree.CallExpression, into: ToolContract): void {
  for (const argument of call.arguments) {
    if (readDescriptionArgument(argument, into)) continue;
    const options = objectOf(argument);
    if (!options || into.hasInputSchema) continue;
    for (const property of options.properties) {
      const key = property.type === AST_NODE_TYPES.Property ? getStaticKeyName(property.key, property.computed) : undefined;
      if (property.type !== AST_NODE_TYPES.Property || key === undefined || !DECORATOR_SCHEMA_OPTION.test(key)) continue;
      into.hasInputSchema = true;
      into.inputs = schemaFields(property.value);
      break;
    }
  }
}

const contracts = new WeakMap<TSESTree.Node, ToolContract>();

/** The contract of a recognised tool, read once per definition node. */
export function toolContract(definition: ToolDefinition): ToolContract {
  const cached = contracts.get(definition.node);
  if (cached) return cached;
  const contract = emptyContract();
  // The name the definition states (its own, nested or spread `name`) first; else what the shape found (a key, a variable).
  if (definition.shape !== 'plain-object') contract.name = definition.name;
  const host = definition.host;
  if (host && isClassNode(host)) readClass(host, contract);
  else if (host) readObject(host, contract, 0, new Set());
  if (definition.contractSource) readObject(definition.contractSource, contract, 0, new Set());
  if (definition.node.type === AST_NODE_TYPES.ObjectExpression && definition.node !== host) {
    readObject(definition.node, contract, 0, new Set());
  }
  const call = definition.reportNode.type === AST_NODE_TYPES.CallExpression ? definition.reportNode : undefined;
  if (call && definition.isMcpRegistration) readRegistrationCall(call, contract);
  // A decorator applied by hand (`registry.action(description, { param_model })(fn)`): the inner call states it.
  if (call && definition.node.type === AST_NODE_TYPES.CallExpression && definition.node.callee === call) readDecoratorCall(call, contract);
  const stated = definition.statedContract;
  if (stated?.description !== undefined && contract.description === undefined) {
    contract.description = stated.description;
    contract.statesDescription = true;
  }
  if (stated?.inputSchema && !contract.hasInputSchema) {
    contract.hasInputSchema = true;
    contract.inputs = schemaFields(stated.inputSchema);
  }
  contract.name ??= definition.name;
  contracts.set(definition.node, contract);
  return contract;
}

/** Does an object literal state a whole contract by itself: a name (or is keyed by one), a description and an input schema? */
export function statesContract(object: TSESTree.ObjectExpression): boolean {
  const contract = emptyContract();
  readObject(object, contract, 0, new Set());
  return contract.statesDescription && contract.hasInputSchema;
}

// ---------------------------------------------------------------------------
// What the contract says

/** A field that names a location: a path, file, uri or url (or a list of them), by its name. */
const LOCATION_FIELD =
  /(?:^|_|-|[a-z](?=[A-Z]))(?:path|paths|file|files|filename|filenames|file_name|file_names|filepath|filepaths|uri|uris|url|urls|href)$/i;
const LOCATION_FIELD_EXACT = /^(?:path|paths|file|files|uri|uris|url|urls|href|location)$/i;
/** What a `location` field's description says of a place: its text, address, venue or city. */
const PLACE_DESCRIPTION = /\b(?:text|address|venue|place|city|country|room|geographic|latitude|longitude)\b/i;
/** …unless it speaks of a stored location ("Location of the text file"). */
const NAMES_STORED_LOCATION = /\b(?:path|file|folder|directory|url|uri)\b/i;
/** A field that names a URL or URI (anywhere), not a path: by its name or its description. */
const URL_FIELD = /(?:^|_|-|[a-z](?=[A-Z]))(?:uri|uris|url|urls|href)$|^(?:uri|uris|url|urls|href)$/i;

/** Does the contract's location input name a URL or URI (anywhere), rather than a path? */
export function isUrlInput(input: ContractInput): boolean {
  const name = input.locationInside ?? input.name;
  return URL_FIELD.test(name) || (input.description !== undefined && /\b(?:url|uri)\b/i.test(input.description));
}

/**
 * A description that calls a field a path, URL or URI (or a list of them: "comma-separated list of
 * file paths"; a mention of paths elsewhere, "shows file paths", is about the output), names the file, folder or document it
 * is ("First file to compare", "The note to read"; not its id or key: "Document ID" names an entry of a
 * store, as an id does, unless it may be a name or path too: "The file ID or the exact filename"), or says where something lives ("Where the
 * note lives", not "Where to show the actions") — and not where output goes, nor a link the tool keeps with
 * what it makes ("A URL to associate with the reminder": data it stores, not a place it reads), nor the text of
 * a note it keeps with something ("Additional notes for the event").
 */
const LOCATION_DESCRIPTION =
  /\b(?:path|url|uri)\b|\brelative\s+to\s+(?:the\s+)?(?:[\w.-]*\/|(?:\w+\s+)?(?:root|folder|directory|workspace|project|repo|repository|cwd)\b)|\blist\s+of\s+(?:\w+\s+)?(?:paths|urls|uris)\b|^\s*(?:(?:the|a|an)\s+)?(?:\w+\s+)?(?:file|folder|directory|note|document)s?\b(?<!\bnotes?(?=\s+(?:for|about|on)\b))(?!\s+(?:id|ids|identifier|identifiers|key|keys|number|index)\b(?!.*\b(?:file\s?names?|paths?|urls?)\b))|^\s*where\s+(?:the\s+|a\s+)?[\w-]+\s+(?:lives?|is\s+(?:stored|located|kept)|resides?)\b/i;
const OUTPUT_DESCRIPTION =
  /\b(?:save|saves|write|writes|output|store|stores|destination)\b|\bto\s+(?:associate|attach|link)\s+(?:\w+\s+)?(?:with|to)\b/i;

/** Words of a name that say the tool hands back what is at the location. */
const READING_NAME_WORDS = new Set([
  'read',
  'reads',
  'view',
  'show',
  'cat',
  'fetch',
  'retrieve',
  'scrape',
  'crawl',
  'download',
  'content',
  'contents',
  // The one who does it: `WebCrawler`, `PdfReader`, `PageScraper`.
  'reader',
  'fetcher',
  'crawler',
  'scraper',
  'downloader',
  // A diff or blame of a model-chosen repository or file hands back lines of its files.
  'diff',
  'blame',
]);
/** The first word of a description that says the tool hands back what is there. */
const READING_DESCRIPTION_START =
  /^\s*(?:reads?|fetch(?:es)?|retrieves?|returns?|gets?|views?|shows?|displays?|scrapes?|crawls?|downloads?|loads?|opens?|converts?|extracts?|parses?|transcribes?|compares?|diffs?)\b/i;
/** First words that hand back what is at the location by themselves, with no word for content after them. */
const INHERENT_READING_START = /^\s*(?:reads?|fetch(?:es)?|retrieves?|scrapes?|crawls?|downloads?|diffs?)\b/i;
/** …and what it hands back is the content, not facts about it. */
const CONTENT_WORDS =
  /\b(?:content|contents|text|body|markdown|html|source|data|file|files|page|document|notes?|lines?|diff|differences|resources?)\b/i;
/**
 * Anywhere in the description: it hands back the content of what it reads ("… and return a
 * unified diff", "returns matching lines with line numbers"), not facts about it.
 */
const RETURNS_CONTENT =
  /\b(?:returns?|returning|hands? back|outputs?|displays?)\b(?:(?!\b(?:number|count|list|names?|paths?|status|size|metadata|summary|exports?)\b)[^.;]){0,60}?\b(?:content|contents|text|lines|diff|body|markdown|html|source|rows|records)\b|\b(?:file|page|document)(?:'s)?\s+(?:content|contents|text)\s+(?:is|are|can be|will be|gets?)\s+returned\b/i;
/**
 * A search that reads what is in the files, not their names ("A content search tool", "Search file
 * contents", "Search files for patterns", "Search for patterns in files using ripgrep": grep and
 * ripgrep print the lines they match; "Find code in a project folder that matches the pattern":
 * the code it finds is what it hands back).
 */
const CONTENT_SEARCH =
  /\bcontent search\b|\b(?:find|finds|search|searches|locate|locates)\s+(?:source\s+)?code\b|\bsearch(?:es)?\s+(?:\w+\s+){0,2}contents?\b|\bmatching lines\b|\bsearch(?:es)?\s+(?:\w+\s+){0,2}files?\s+for\b|\bsearch(?:es)?\s+(?:for\s+)?(?:\w+\s+){0,2}(?:patterns?|regex(?:es)?|text|strings?)\s+in\s+(?:\w+\s+){0,2}files?\b|\b(?:using|with|via|runs?|running)\s+(?:ripgrep|rg|grep)\b/i;
const SEARCH_FACTS = /\b(?:counts?|number of|names|list|lists)\b/i;
/** The main actions a content search may be named for: it still hands back lines of what it read. */
const SEARCH_NAME_WORDS = new Set(['search', 'grep', 'find']);
/** It opens the location somewhere else than its result ("Open a file in the Obsidian app UI"): it hands nothing back. */
const OPENS_ELSEWHERE = /^\s*opens?\b[^.]*\bin (?:the |a |an )?(?:[\w-]+ ){0,3}(?:ui|app|application|editor|window|tab|browser|viewer)\b/i;
/**
 * Its first sentence says what it makes goes into a file ("Extract audio from a video file into an audio file",
 * "Convert the page to PDF and save it to disk"): it hands back where it put it, not what it read.
 */
const MAKES_A_FILE =
  /\binto\s+(?:an?\s+|new\s+|the\s+)?(?:[\w-]+\s+){0,2}files?\b|\b(?:saves?|writes?|stores?)\s+(?:it|them|the\s+\w+|\w+)?\s*(?:to|into|on|as)\s+(?:an?\s+|the\s+)?(?:[\w-]+\s+){0,2}(?:files?|disk|folder|directory)\b/i;
/** A field that says where the tool puts what it fetched (`localPath`, "Local destination path"): it saves, not hands back. */
const DESTINATION_FIELD = /^(?:local|dest|destination|output|out|save)(?=[A-Z_-]|$)/;
const METADATA_WORDS =
  /\b(?:metadata|info|information|status|stats|statistics|summary|tree|list|listing|names|links|size|existence|exists|count|number of|diagnostics?|errors|warnings|history|commits)\b/i;
/** A location field's own description that says the tool reads it ("URL to fetch", "The file to read", "document to extract text from"). */
const FIELD_READ_FOR =
  /\b(?:to|will)\s+(?:be\s+)?(?:read|fetch(?:ed)?|scrape[d]?|crawl(?:ed)?|download(?:ed)?|view(?:ed)?|retrieve[d]?|quer(?:y|ied)|transcribe[d]?|extract\s+(?:the\s+)?(?:text|content|contents)\s+from)\b/i;
/**
 * A location field's own description that says the tool hands back what it makes of what is
 * there ("URLs to analyze", "First URL to compare", "URL to extract data from", "Image to
 * describe"): an analysis, comparison, summary or description of a page, a video or an image is
 * a conversion of its content, which the model gets back (as an LLM's summary of a page is).
 */
const FIELD_CONVERTED_FOR =
  /\b(?:to|will)\s+(?:be\s+)?(?:analy[sz]e[d]?|summari[sz]e[d]?|describe[d]?|compare[d]?|caption(?:ed)?|translate[d]?|extract\s+(?:\w+\s+){0,2}from)\b/i;
/** What such an analysis may be of: the content of a page, a document, an image, a video or a recording. */
const MEDIA_WORDS = String.raw`(?:url|urls|uri|uris|links?|web ?pages?|pages?|sites?|websites?|articles?|documents?|docs?|pdfs?|images?|photos?|pictures?|screenshots?|diagrams?|charts?|videos?|audio|recordings?|youtube)`;
const ANALYSED_MEDIA = new RegExp(String.raw`\b${MEDIA_WORDS}\b`, 'i');
/**
 * A description that starts by saying the tool analyses, describes, summarises or compares what
 * it is given ("Analyze and describe one or more images", "Summarize a YouTube video"): its
 * answer is made of that content.
 */
const CONVERSION_START = new RegExp(
  String.raw`^\s*(?:analy[sz]es?|describes?|summari[sz]es?|captions?|transcribes?|translates?)\s+(?:and\s+\w+\s+)?(?:\w+\s+){0,5}?` +
    MEDIA_WORDS +
    String.raw`(?:\s+(?:content|contents))?(?=$|\s*[.,;:!?()]|\s+(?:using|with|and|or|from|at|in|on|to|for|by|via|into|through|that|which)\b)`,
  'i',
);
/** Words of a tool's name that name what it analyses: `analyze-url`, `compare_pages`, `video_qa`. */
const LOCATION_NAME_WORDS = new Set([
  'url',
  'urls',
  'uri',
  'page',
  'pages',
  'webpage',
  'website',
  'site',
  'video',
  'videos',
  'youtube',
  'image',
  'images',
  'photo',
  'pdf',
  'document',
  'documents',
  'doc',
  'file',
  'files',
  'article',
]);
/** Words of a name that say the tool hands back what it makes of a page or a medium: a summary, a description, a transcript. */
const CONVERSION_NAME_WORDS = new Map([
  ['summary', 'summary'],
  ['summarize', 'summary'],
  ['summarise', 'summary'],
  ['describe', 'description'],
  ['description', 'description'],
  ['transcribe', 'transcript'],
  ['transcript', 'transcript'],
  ['caption', 'caption'],
]);
/**
 * Words of a name that say the tool hands back what it makes of a medium it names too (`analyze_image`,
 * `analyze_audio`, `understand_diagram`): an analysis of a picture or a recording is made of what it shows. Of a
 * page or a site the name does not call a medium (`analyze_resources`, `get_seo_analysis` of a URL), it is a measure.
 */
const MEDIUM_ANALYSIS_WORDS = new Set(['analyze', 'analyse', 'analysis', 'understand', 'explain']);
/** Media an analysis is made of what they show: pictures, recordings, documents. */
const ANALYSED_MEDIUM_NAME =
  /\b(?:images?|photos?|pictures?|screenshots?|diagrams?|charts?|visuali[sz]ations?|videos?|audio|recordings?|pdfs?|documents?)\b/;
/** An input that asks a question about what is at the location: the answer comes from its content. */
const QUESTION_FIELD = /^(?:question|questions)$/i;
const QUESTION_ABOUT =
  /^\s*(?:the\s+|a\s+)?(?:questions?|query|queries|prompt)\s+(?:to\s+(?:ask|run)\s+)?(?:about|on|over|regarding|of|against)\b/i;
/** …a question about the content itself ("Query to run over the file content", "Query to run on the image"). */
const ASKS_ABOUT_CONTENT = new RegExp(String.raw`\b(?:content|contents|text|file|files|${MEDIA_WORDS})\b`, 'i');
/** "Capture screenshots of web pages", "Take a screenshot of the URL". */
const SCREENSHOT_START = /^\s*(?:captures?|takes?)\s+(?:an?\s+|full[- ]page\s+)?screenshots?\b/i;
/**
 * It starts a job and hands back its id ("Start a crawl job …", "returns a job ID. Use poll to get results"): the
 * content comes back, if ever, from another tool.
 */
const STARTS_A_JOB =
  /^\s*(?:starts?|begins?|launch(?:es)?|submits?|queues?|kicks?\s+off)\s+(?:an?\s+|the\s+)?(?:[\w-]+\s+){0,2}(?:job|task)s?\b|\breturns?\s+(?:an?\s+|the\s+)?(?:\w+\s+)?job\s+id\b/i;
/** Words of a name that make its main action something else than handing back what is there. */
const CHANGING_NAME_WORDS = new Set([
  'write',
  'edit',
  'create',
  'delete',
  'remove',
  'update',
  'patch',
  'replace',
  'move',
  'rename',
  'insert',
  'append',
  'apply',
  'upload',
  'commit',
  'push',
  'send',
  'post',
  'save',
  'set',
  'modify',
  'copy',
  'mkdir',
  'install',
  'deploy',
  'execute',
  'exec',
  'run',
  'search',
  'list',
  'find',
  'grep',
  'glob',
  'index',
  'start',
  'stop',
  'kill',
  'navigate',
  'click',
  'type',
  'close',
  'feedback',
  'info',
  'stat',
  'stats',
  'tree',
  'exists',
  'suggest',
  'propose',
]);

/** Formats a `…-to-<format>` name converts into: the result is what was read, in another form. */
const CONVERSION_TARGETS = new Set(['markdown', 'md', 'text', 'txt', 'html', 'json', 'csv', 'string']);

/** Words of a name whose object is a folder: reading one hands back a listing of names. */
const LISTING_NAME_WORDS = new Set(['directory', 'directories', 'dir', 'dirs', 'folder', 'folders']);

/**
 * `read_file`, `readFile`, `browser-get-text`, `mouse:click` → their words, lower case. Unlike
 * `state-mutation/expressions.ts`'s `nameWords` (code identifiers), a tool's name may use any
 * separator the model is shown (`:`, `.`), so every non-alphanumeric character splits.
 */
function toolNameWords(name: string): string[] {
  return name
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .split(/[^A-Za-z0-9]+/)
    .filter((word) => word.length > 0)
    .map((word) => word.toLowerCase());
}

/**
 * A read of a model-chosen location the flow analysis found, whose content it could not follow to
 * the output (it goes into a service: `describeImage({ images: resolved })`): the location is
 * known to be the model's, whatever the schema calls it.
 */
export interface FoundRead {
  kind: 'file' | 'url';
  /** How a message names the read: `` `resolveImageInput → readFile` ``. */
  shown: string;
}

export interface ContractReading {
  /** The location input the evidence rests on. */
  input: ContractInput;
  /** What says the tool hands back what is there: `its name read_file`, `its description (…)`. */
  evidence: string;
}

/** A text's first sentence, trimmed. */
function leadingSentence(text: string): string {
  return text.trim().split(/(?<=[.!?])\s/)[0] ?? text;
}

/** The first sentence of a description, short enough for a message. */
function firstSentence(description: string): string {
  const sentence = leadingSentence(description);
  return sentence.length > 90 ? `${sentence.slice(0, 87).trimEnd()}…` : sentence;
}

/**
 * A field's description as it says what the field is: its first sentence, before the examples
 * that often follow ("Path to the file to read. Examples: './output.txt'" is no output).
 */
function fieldSaying(field: ContractInput): string | undefined {
  return field.description === undefined ? undefined : leadingSentence(field.description);
}

/**
 * A field that narrows what a search or an index hands back ("File path (partial match supported)",
 * "Scope to a specific file", "Filter to a specific directory path", "Only files matching this path"):
 * a key the tool matches against what it has, not a location it opens.
 */
const FILTER_DESCRIPTION =
  /\bpartial(?:ly)?[\s-]+match|\bsubstring\b|^\s*(?:filter|scope|limit|restrict|narrow)(?:s|ed)?\s+(?:(?:the\s+)?(?:results?|search)\s+)?(?:to|by)\b|^\s*only\s+(?:include\s+)?(?:results?|items?|symbols?|entries)\b/i;

/** Is the field a location: by its name, or by its description (and not where output goes, nor a filter)? */
function isLocationField(field: ContractInput): boolean {
  const saying = fieldSaying(field);
  return (
    field.scalar !== true &&
    field.place !== true &&
    !(field.description !== undefined && FILTER_DESCRIPTION.test(field.description)) &&
    // One of a closed list of values ("The file operation to perform": read, write…) is no location.
    field.choices === undefined &&
    !(saying !== undefined && OUTPUT_DESCRIPTION.test(saying)) &&
    (LOCATION_FIELD.test(field.name) ||
      LOCATION_FIELD_EXACT.test(field.name) ||
      (field.schemaName !== undefined && LOCATION_FIELD.test(field.schemaName.replace(/Schema$/, ''))) ||
      (saying !== undefined && LOCATION_DESCRIPTION.test(saying) && !SLUG.test(`${field.name} ${saying}`)))
  );
}

/**
 * A slug ("Problem URL slug (e.g., 'two-sum')—the path segment after /problems/"): the name a fixed site gives
 * one of its pages, which the tool looks up there, not a location the model chooses, whatever URL it speaks of.
 */
const SLUG = /slug/i;

/** Does a field say where the tool puts what it fetched: a location named or described as the destination? */
function isDestinationField(field: ContractInput): boolean {
  if (field.scalar === true) return false;
  const saying = fieldSaying(field);
  const located = LOCATION_FIELD.test(field.name) || (saying !== undefined && LOCATION_DESCRIPTION.test(saying));
  return located && (DESTINATION_FIELD.test(field.name) || (saying !== undefined && OUTPUT_DESCRIPTION.test(saying)));
}

/**
 * Does the contract say the tool reads what is at a model-chosen location?
 * Two things must hold: an input is a location (by its name, or by its
 * description), and the name or the description says the tool hands back
 * what is there, while the name's main action is no write, edit, search or
 * listing. Undefined when it does not.
 */
export function contractSaysItReads(contract: ToolContract, found?: FoundRead): ContractReading | undefined {
  const named = contract.inputs.find(
    (field) => !isDestinationField(field) && (isLocationField(field) || field.locationInside !== undefined),
  );
  const words = contract.name === undefined ? [] : toolNameWords(contract.name);
  const description = contract.description;
  const sentence = description === undefined ? undefined : firstSentence(description);
  // The flow found where the model's location is read, and lost its content in a service or a call it cannot
  // follow: the contract need only say the tool hands back what is there (or what it makes of it).
  const input: ContractInput | undefined =
    named ?? (found ? { name: found.kind === 'url' ? 'url' : 'path', description: undefined } : undefined);
  if (!input) return undefined;
  const where =
    named === undefined && found !== undefined
      ? `the location ${found.shown} reads`
      : input.locationInside === undefined
        ? `\`${input.name}\``
        : `\`${input.name}[].${input.locationInside}\``;
  // The first sentence says what the tool is; a later one may name another tool ("use search_text, which searches contents").
  // "Count matches in files using ripgrep", "List files … searched by ripgrep": facts about the matches, not their lines.
  // `grep`, `mgrep`, `rgrep`: grep hands back the lines it matches, unless the description says it counts or lists.
  const grepNamed = words.some((word) => word.endsWith('grep'));
  const statesFacts = sentence !== undefined && SEARCH_FACTS.test(sentence);
  const searchesContent = ((sentence !== undefined && CONTENT_SEARCH.test(sentence)) || grepNamed) && !statesFacts;
  // `read_directory`, `view_folder`: what a directory holds is its names, not content.
  if (words.some((word) => LISTING_NAME_WORDS.has(word))) return undefined;
  // `image-to-markdown`, `pdf_to_text`, `bing-search-to-markdown`: what the name turns into another format is what it reads.
  const converts = words.some((word, index) => word === 'to' && index > 0 && CONVERSION_TARGETS.has(words[index + 1] ?? ''));
  const changing = converts ? [] : words.filter((word) => CHANGING_NAME_WORDS.has(word));
  // `str_replace_editor` with `command: view | create | str_replace | …`: the model may choose the operation that
  // reads, whatever the name says the others do (the text editor's `view` hands back the file).
  const offered = changing.length > 0 ? commandThatViews(contract, input, where) : undefined;
  if (offered) return offered;
  if (changing.some((word) => !(searchesContent && SEARCH_NAME_WORDS.has(word)))) return undefined;
  // A download to a destination the model names saves the content; it does not hand it back.
  const savesIt = contract.inputs.some(isDestinationField);
  if (sentence !== undefined && (OPENS_ELSEWHERE.test(sentence) || MAKES_A_FILE.test(sentence))) return undefined;
  if (description !== undefined && STARTS_A_JOB.test(description)) return undefined;
  if (sentence !== undefined && METADATA_WORDS.test(sentence) && !CONTENT_WORDS.test(sentence.replace(METADATA_WORDS, '')))
    return undefined;
  if (!savesIt && words.some((word) => READING_NAME_WORDS.has(word))) {
    return { input, evidence: `its name \`${contract.name}\` says it hands back what is at ${where}` };
  }
  if (savesIt) return undefined;
  if (grepNamed && searchesContent) {
    return { input, evidence: `its name \`${contract.name}\` says it greps ${where}, and grep hands back the lines it matches` };
  }
  // "URL to fetch", "The file to read", "URL of the document to extract text from": the field says what the tool does with it.
  const fieldSays = fieldSaying(input);
  // …unless the tool says it hands back facts about it ("Extract all links from a page").
  if (fieldSays !== undefined && FIELD_READ_FOR.test(fieldSays) && !(sentence !== undefined && METADATA_WORDS.test(sentence))) {
    return { input, evidence: `its \`${input.name}\` input is the location to read ("${firstSentence(fieldSays)}")` };
  }
  const conversion = conversionReading(contract, input, where, words, sentence);
  if (conversion) return conversion;
  // "Capture screenshots of web pages": a picture of the page at a model-chosen URL is what is there, rendered.
  if (isUrlInput(input) && (words.includes('screenshot') || (sentence !== undefined && SCREENSHOT_START.test(sentence)))) {
    return { input, evidence: `it hands back a screenshot of the page at ${where}` };
  }
  const formatConversion = converts
    ? { input, evidence: `its name \`${contract.name}\` says it converts what is at ${where} and hands it back` }
    : undefined;
  if (sentence === undefined || description === undefined) return formatConversion;
  // "Scrape multiple URLs in a single request": to read, scrape, crawl, fetch or download a location is to hand back what is there.
  const inherentlyReads = INHERENT_READING_START.test(sentence);
  if (READING_DESCRIPTION_START.test(sentence) && (inherentlyReads || CONTENT_WORDS.test(sentence)) && !METADATA_WORDS.test(sentence)) {
    return { input, evidence: `its description says it hands back what is at ${where} ("${sentence}")` };
  }
  const returned = RETURNS_CONTENT.exec(description) ?? (searchesContent ? CONTENT_SEARCH.exec(sentence) : null);
  if (returned) return { input, evidence: `its description says it hands back what is at ${where} ("…${returned[0]}…")` };
  // "Make HTTP requests to external APIs": what a request to the URL brings back is the response.
  if (isUrlInput(input) && (HTTP_REQUEST.test(sentence) || (words.includes('http') && words.includes('request')))) {
    return { input, evidence: `it makes an HTTP request to ${where} ("${sentence}"), and the response comes back` };
  }
  return formatConversion ?? operationThatReads(contract, input, where);
}

/**
 * Does the contract say the tool hands back what it makes of what is at the location: an
 * analysis, description, summary or comparison of a page, a video or an image, or the answer to a
 * question about it? Made of that content, as an LLM's summary of a page is.
 */
function conversionReading(
  contract: ToolContract,
  input: ContractInput,
  where: string,
  words: readonly string[],
  sentence: string | undefined,
): ContractReading | undefined {
  const fieldSays = fieldSaying(input);
  // "URLs to analyze", "Image to describe": what the tool makes of a page, a document or an image is made of its content.
  // Only for a tool named for what it analyses (`analyze-url`, `compare_pages`): "Documentation URL to analyze for
  // references" of `resolve_references` hands back facts about an API, "The URL to extract links from" its links.
  if (
    fieldSays !== undefined &&
    FIELD_CONVERTED_FOR.test(fieldSays) &&
    (isUrlInput(input) || ANALYSED_MEDIA.test(fieldSays)) &&
    words.some((word) => LOCATION_NAME_WORDS.has(word)) &&
    !METADATA_WORDS.test(fieldSays) &&
    !(sentence !== undefined && METADATA_WORDS.test(sentence))
  ) {
    return { input, evidence: `its \`${input.name}\` input is what it analyses and hands back ("${firstSentence(fieldSays)}")` };
  }
  // "Analyze and describe one or more images": the description of a page or an image is made of what is there.
  if (
    sentence !== undefined &&
    CONVERSION_START.test(sentence) &&
    // "Analyze and extract information from images" is what they show; "Analyze a file's size" is facts about it.
    !METADATA_WORDS.test(sentence.replace(/\binformation\b/gi, ''))
  ) {
    return { input, evidence: `its description says it hands back what it makes of what is at ${where} ("${sentence}")` };
  }
  // A question about what is at the location ("Question about the video"): the answer is drawn from it.
  const question = contract.inputs.find(
    (field) =>
      field !== input && field.choices === undefined && (QUESTION_FIELD.test(field.name) || QUESTION_ABOUT.test(fieldSaying(field) ?? '')),
  );
  if (
    question !== undefined &&
    (isUrlInput(input) || ANALYSED_MEDIA.test(fieldSays ?? '') || ASKS_ABOUT_CONTENT.test(fieldSaying(question) ?? ''))
  ) {
    return { input, evidence: `it answers the \`${question.name}\` input about what is at ${where}` };
  }
  // `youtube_summary`, `describe_image`, `transcribe_audio` of a URL or a medium: the summary is made of what is there.
  const conversionWord = words.find((word) => CONVERSION_NAME_WORDS.has(word));
  if (conversionWord !== undefined && (isUrlInput(input) || ANALYSED_MEDIA.test(`${words.join(' ')} ${fieldSays ?? ''}`))) {
    const made = CONVERSION_NAME_WORDS.get(conversionWord)!;
    return { input, evidence: `its name \`${contract.name}\` says it hands back a ${made} of what is at ${where}` };
  }
  if (words.some((word) => MEDIUM_ANALYSIS_WORDS.has(word)) && ANALYSED_MEDIUM_NAME.test(words.join(' '))) {
    return { input, evidence: `its name \`${contract.name}\` says it hands back an analysis of the medium at ${where}` };
  }
  return undefined;
}

/** "Make HTTP requests", "Sends an HTTP GET request": a request to the URL, whose response the tool hands back. */
const HTTP_REQUEST =
  /\b(?:make|makes|send|sends|perform|performs|issue|issues|execute|executes)\s+(?:an?\s+)?(?:\w+\s+)?https?\s+(?:\w+\s+)?requests?\b/i;
/** Operations a multi-operation tool may offer that hand back what is at the location. */
const READING_OPERATIONS = new Set(['read', 'view', 'cat', 'fetch', 'download', 'content', 'contents', 'get_content', 'read_file']);

/** An input that picks what the tool does: `command`, `operation`, `op`, `action`. */
const COMMAND_FIELD = /^(?:command|cmd|operation|op|action)$/i;
/** Commands that hand back the file as it is. */
const VIEWING_COMMANDS = new Set(['view', 'read', 'cat']);

/**
 * An editor whose command input offers one that hands the file back (`str_replace_editor` with `command: view |
 * create | str_replace | insert | undo_edit`): the model may choose it, whatever the name says the others do.
 */
function commandThatViews(contract: ToolContract, input: ContractInput, where: string): ContractReading | undefined {
  for (const field of contract.inputs) {
    if (field === input || !COMMAND_FIELD.test(field.name)) continue;
    const viewing = field.choices?.find((choice) => VIEWING_COMMANDS.has(choice.toLowerCase()));
    if (viewing !== undefined) {
      return { input, evidence: `its \`${field.name}\` input offers \`${viewing}\`, which hands back what is at ${where}` };
    }
  }
  return undefined;
}

/**
 * A tool of several operations (`operation: { enum: ['read', 'write', 'list'] }`, "Perform file
 * system operations"): one the model may choose that reads counts like a tool of its own, so the
 * contract says it reads. Undefined when no input offers such an operation.
 */
function operationThatReads(contract: ToolContract, input: ContractInput, where: string): ContractReading | undefined {
  for (const field of contract.inputs) {
    if (field === input) continue;
    const reading = field.choices?.find((choice) => READING_OPERATIONS.has(choice.toLowerCase()));
    if (reading !== undefined) {
      return { input, evidence: `its \`${field.name}\` input offers \`${reading}\`, which hands back what is at ${where}` };
    }
  }
  return undefined;
}

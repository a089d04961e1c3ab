/**
 * State leakage: does a tool's invocation change state that outlives the
 * call (module-level variables and collections, instance fields, factory
 * closures, cookie jars and clients kept between calls)? Such a tool behaves
 * differently on call N than on call 1, and the session can only plan for it
 * when the tool declares `stateScope: 'isolated' | 'session' | 'agent'`.
 *
 * `findOutlivingStateUses(definition, recognition, sourceCode)` answers for
 * one tool definition; `findDeclaredStateScope` finds its declaration, own
 * or inherited. The rule `declare-tool-state-scope` and the tool inventory
 * both ask here. This file is the stage's entry: code outside the folder
 * imports from it, the concept modules import each other directly.
 *
 * The concepts, each a module, leaves first (no module imports one listed
 * after it):
 * - `expressions.ts`: a name's words, an expression's root, the variable an
 *   identifier means and where it lives;
 * - `state-use.ts`: the `StateUse` reported, and the records passed between
 *   the functions of one invocation;
 * - `driving-calls.ts`: whether a call drives a long-lived object (output
 *   channels and observability objects left out);
 * - `balanced-changes.ts`: a take or put undone in a `finally` before the call
 *   returns;
 * - `carriers.ts`: cookie jars, rate limiters and the fields holding them;
 * - `outer-state-mutation.ts`: writes and mutating calls on outer state,
 *   warn-once latches and lazy initialisation;
 * - `../base-classes.ts` (shared with the input flow): the class `extends` or
 *   `new` names, inherited methods;
 * - `following-helpers.ts`: helpers, Proxy traps and other modules' functions
 *   the invocation calls, and the state they change;
 * - `shared-objects.ts`: long-lived objects reached without creating them
 *   (a context argument, a page taken from it);
 * - `entry-analysis.ts`: one tool's invocation, end to end.
 */
export type { StateUse, StateUseKind } from './state-use.js';
export { STATE_SCOPE_VALUES, findDeclaredStateScope, findOutlivingStateUses } from './entry-analysis.js';

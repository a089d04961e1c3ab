/**
 * A cheap necessary condition for type-aware recognition: a type can carry a
 * name only if some source file of the program (its libraries included)
 * spells that name. Asking once per program lets rules skip type queries —
 * and the creation of the type checker — in programs that never could match.
 */
import type * as ts from 'typescript';

const spellingsByProgram = new WeakMap<ts.Program, Map<string, boolean>>();

/** Does any source file of `program` contain one of `names` (case-sensitive substring)? Computed once per program and name. */
export function programSpellsAny(program: ts.Program, names: Iterable<string>): boolean {
  let byName = spellingsByProgram.get(program);
  if (!byName) {
    byName = new Map();
    spellingsByProgram.set(program, byName);
  }
  for (const name of names) {
    let spelled = byName.get(name);
    if (spelled === undefined) {
      spelled = program.getSourceFiles().some((file) => file.text.includes(name));
      byName.set(name, spelled);
    }
    if (spelled) return true;
  }
  return false;
}

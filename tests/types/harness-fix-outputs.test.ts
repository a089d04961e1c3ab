// Every fix the rules offer in a harness's own types compiles: each case of tests/rules/harness-types-cases.ts
// type-checks before its fix (a realistic harness compiles cleanly) and after it, against the fixture harness
// and tool-result-guard's own types (its sources, mapped by `paths`).
import { join } from 'node:path';

import ts from 'typescript';
import { describe, expect, it } from 'vitest';

import { allHarnessCases, harnessTypesDirectory, harnessTypesFile } from '../rules/harness-types-cases.js';

const repositoryRoot = join(harnessTypesDirectory, '..', '..', '..', '..');
const { config } = ts.readConfigFile(join(harnessTypesDirectory, 'tsconfig.json'), ts.sys.readFile);
const parsed = ts.parseJsonConfigFileContent(config, ts.sys, harnessTypesDirectory);
// The fixture's tsconfig gives the type-aware rule tests a small stand-in for the package; here it is the real thing.
const options: ts.CompilerOptions = {
  ...parsed.options,
  types: ['node'],
  typeRoots: [join(repositoryRoot, 'node_modules', '@types')],
  paths: { 'tool-result-guard': [join(repositoryRoot, 'src', 'index.ts')] },
};

/** The would-be file.ts texts, each as its own module beside it, so one program (one checker) types them all. */
const texts = new Map<string, string>();
function moduleFor(code: string): string {
  const fileName = join(harnessTypesDirectory, `case-${texts.size}.ts`);
  texts.set(fileName, code);
  return fileName;
}

const brokenWithMember = (): string => {
  const [typed] = allHarnessCases.filter((testCase) => testCase.name.startsWith("an object typed with the harness's own Tool"));
  return typed!.code.replace('  },\n};\n', "  },\n  stateScope: 'session',\n};\n");
};
const brokenWithLibraryClone = (): string => {
  const [own] = allHarnessCases.filter((testCase) => testCase.name.startsWith('a class field holding'));
  return `import { cloneReplacementState } from 'tool-result-guard';\n${own!.code.replace(
    'replacementState: this.state',
    'replacementState: cloneReplacementState(this.state)',
  )}`;
};

const cases = allHarnessCases.map((testCase) => ({
  testCase,
  code: moduleFor(testCase.code),
  output: testCase.suggestion ? moduleFor(testCase.suggestion.output) : undefined,
}));
const withMember = moduleFor(brokenWithMember());
const withLibraryClone = moduleFor(brokenWithLibraryClone());

const host = ts.createCompilerHost(options);
const readSourceFile = host.getSourceFile.bind(host);
host.getSourceFile = (fileName, languageVersion, onError, shouldCreate) => {
  const text = texts.get(fileName);
  return text === undefined ? readSourceFile(fileName, languageVersion, onError, shouldCreate) : ts.createSourceFile(fileName, text, languageVersion, true);
};
const fileExists = host.fileExists.bind(host);
host.fileExists = (fileName) => texts.has(fileName) || fileExists(fileName);
const program = ts.createProgram({ rootNames: [...texts.keys()], options, host });

/** The diagnostics of one of the modules, one per line. */
function diagnosticsOf(fileName: string): string[] {
  const sourceFile = program.getSourceFile(fileName)!;
  return [...program.getSyntacticDiagnostics(sourceFile), ...program.getSemanticDiagnostics(sourceFile)].map(
    (diagnostic) => `TS${diagnostic.code} ${ts.flattenDiagnosticMessageText(diagnostic.messageText, ' ')}`,
  );
}

describe("fixes in a harness's own types compile", () => {
  for (const { testCase, code, output } of cases) {
    it(testCase.name, () => {
      expect(diagnosticsOf(code)).toEqual([]);
      if (output) expect(diagnosticsOf(output)).toEqual([]);
    });
  }

  it('would not compile with the member written into the object (the error the wrapper avoids)', () => {
    expect(diagnosticsOf(withMember).join('\n')).toMatch(/TS2353 .*'stateScope' does not exist in type 'Tool<\{ url: string; \}>'/);
  });

  it("would not compile with tool-result-guard's clone around the harness's own ReplacementState", () => {
    const diagnostics = diagnosticsOf(withLibraryClone).join('\n');
    expect(diagnostics).toMatch(/TS2345/);
    expect(diagnostics).toMatch(/TS2741|TS2322/);
  });
});

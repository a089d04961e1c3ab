// Fixture tests in the MUI/jscodeshift shape: fixtures/<transform>/<case>.input.ts
// becomes <case>.output.ts (a case without an output file must stay byte for
// byte unchanged). Every output is migrated again to prove idempotency, and
// linted with the matching rule under configs.strict to prove the codemod and
// the rule agree.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

import { describe, expect, it } from 'vitest';

import { transforms } from '../../src/codemods/index.js';
import { runTransform, strictFindings } from './fixture-helpers.js';

const fixturesRoot = join(dirname(fileURLToPath(import.meta.url)), 'fixtures');
const INPUT_SUFFIX = /\.input\.(m?[jt]sx?|c[jt]s)$/;

/** Fixture cases whose input is deliberately broken: skipped, never touched. */
const UNPARSEABLE_CASE = /^unparseable/;

/** Cases that use a non-default `--default-max-chars`, encoded in the name: `…-max-chars-1234.input.ts`. */
function defaultMaxCharsOf(caseName: string): number | undefined {
  const match = /max-chars-(\d+)$/.exec(caseName);
  return match ? Number(match[1]) : undefined;
}

for (const transform of transforms) {
  const directory = join(fixturesRoot, transform.name);
  describe(`${transform.name} fixtures`, () => {
    const inputs = existsSync(directory)
      ? readdirSync(directory)
          .filter((name) => INPUT_SUFFIX.test(name))
          .sort()
      : [];

    it('has at least 8 cases, with negatives and an unparseable file', () => {
      expect(inputs.length).toBeGreaterThanOrEqual(8);
      expect(inputs.some((name) => UNPARSEABLE_CASE.test(name))).toBe(true);
      const negatives = inputs.filter((name) => !existsSync(join(directory, name.replace('.input.', '.output.'))));
      expect(negatives.length).toBeGreaterThanOrEqual(2);
    });

    for (const inputName of inputs) {
      const caseName = inputName.replace(INPUT_SUFFIX, '');
      const inputPath = join(directory, inputName);
      const outputPath = join(directory, inputName.replace('.input.', '.output.'));
      const maxChars = defaultMaxCharsOf(caseName);

      describe(caseName, () => {
        const input = readFileSync(inputPath, 'utf8');
        const expected = existsSync(outputPath) ? readFileSync(outputPath, 'utf8') : input;

        if (UNPARSEABLE_CASE.test(caseName)) {
          it('is skipped and reported, never touched', async () => {
            const result = await runTransform(transform.name, input, inputPath, maxChars);
            expect(result.status).toBe('skipped');
            expect(result.reason).toMatch(/\S/);
            expect(result.text).toBe(input);
          });
          return;
        }

        it('migrates to the expected output, byte for byte', async () => {
          const result = await runTransform(transform.name, input, inputPath, maxChars);
          expect(result.text).toBe(expected);
          expect(result.status).toBe(expected === input ? 'unchanged' : 'ok');
          if (strictFindings(transform.ruleName, input, inputPath).length === 0) {
            // What the rule accepts, the codemod leaves alone.
            expect(result.text).toBe(input);
          }
        });

        it('is idempotent: the output migrates to itself', async () => {
          const again = await runTransform(transform.name, expected, outputPath, maxChars);
          expect(again.status).toBe('unchanged');
          expect(again.text).toBe(expected);
        });

        it('agrees with the rule: the output has no findings but the sites left for review', async () => {
          const result = await runTransform(transform.name, expected, outputPath, maxChars);
          const findings = strictFindings(transform.ruleName, expected, outputPath);
          const byPosition = (left: number[], right: number[]): number => left[0]! - right[0]! || left[1]! - right[1]!;
          expect(findings.map((finding) => [finding.line, finding.column]).sort(byPosition)).toEqual(
            result.unresolved.map((site) => [site.line, site.column]).sort(byPosition),
          );
        });
      });
    }
  });
}

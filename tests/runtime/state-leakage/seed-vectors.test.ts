// Byte-for-byte agreement with the seed's Python reference code. The vectors were
// produced by running that code (generate-vectors.py); this suite needs no Python.
// When python3 is on the machine, one more test re-runs the generator and proves
// the committed fixture is still exactly what the seed's code produces.
import { execFileSync, spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import {
  evaluateInvocation,
  formatPercentLikePython,
  IllFormedTextError,
  pythonFloatRepr,
  pythonJsonDumps,
  type IsolationPolicy,
  type PythonJsonValue,
} from '../../../src/index.js';

const here = dirname(fileURLToPath(import.meta.url));
const fixturePath = join(here, 'fixtures', 'seed-003-vectors.json');
const fixtureText = readFileSync(fixturePath, 'utf8');

interface EvaluationVector {
  invocation: {
    invocationId: string;
    toolId: string;
    hasSessionState: boolean;
    stateDeltaHash: string | null;
    sessionUsageRatio: string;
    resultHash: string;
  };
  context: { priorStateDeltas: string[]; isolationPolicy: string };
  policy: { requireIsolationForCritical: boolean; maxSessionUsageRatio: string; accumulatedDeltaThreshold: number };
  expected: { verdict: string; directive: string; manifestDigest: string } | { error: string };
}
interface Vectors {
  evaluations: EvaluationVector[];
  percent: { value: string; expected: string }[];
  floatRepr: { value: string; expected: string }[];
  json: { value: PythonJsonValue; expected: string }[];
}
const vectors = JSON.parse(fixtureText) as Vectors;

/** Floats travel as Python repr text (JSON has no NaN or Infinity; repr round-trips exactly). */
function parsePythonFloat(text: string): number {
  if (text === 'nan') return Number.NaN;
  if (text === 'inf') return Infinity;
  if (text === '-inf') return -Infinity;
  return Number(text);
}

describe("seed 003 vectors (produced by the seed's Python reference)", () => {
  it('has vectors for every verdict, the lone-surrogate error and non-ASCII ids', () => {
    const verdicts = new Set(
      vectors.evaluations.map((vector) => ('verdict' in vector.expected ? vector.expected.verdict : vector.expected.error)),
    );
    expect([...verdicts].sort()).toEqual([
      'ISOLATED_INVOCATIONS',
      'SESSION_LIMIT_EXHAUSTED',
      'STATELESS_TOOL',
      'STATE_LEAKAGE_DETECTED',
      'UnicodeEncodeError',
    ]);
    const ids = vectors.evaluations.map((vector) => vector.invocation.invocationId + vector.invocation.toolId).join('');
    for (const text of ['é', '中文', '😀']) expect(ids).toContain(text);
    expect(vectors.evaluations.some((vector) => vector.invocation.stateDeltaHash === null)).toBe(true);
  });

  it.each(vectors.evaluations.map((vector, index) => [index, vector] as const))('evaluation #%i matches the seed', (_index, vector) => {
    const run = () =>
      evaluateInvocation(
        { ...vector.invocation, sessionUsageRatio: parsePythonFloat(vector.invocation.sessionUsageRatio) },
        { priorStateDeltas: vector.context.priorStateDeltas, isolationPolicy: vector.context.isolationPolicy as IsolationPolicy },
        {
          requireIsolationForCritical: vector.policy.requireIsolationForCritical,
          maxSessionUsageRatio: parsePythonFloat(vector.policy.maxSessionUsageRatio),
          accumulatedDeltaThreshold: vector.policy.accumulatedDeltaThreshold,
        },
      );
    if ('error' in vector.expected) {
      expect(run).toThrow(IllFormedTextError);
    } else {
      expect(run()).toEqual(vector.expected);
    }
  });

  it("formats every percentage exactly like Python's :.2%", () => {
    const mismatches = vectors.percent
      .map(({ value, expected }) => ({ value, expected, actual: formatPercentLikePython(parsePythonFloat(value)) }))
      .filter(({ expected, actual }) => expected !== actual);
    expect(mismatches).toEqual([]);
    expect(vectors.percent.length).toBeGreaterThan(800);
  });

  it("prints floats exactly like Python's json.dumps", () => {
    const mismatches = vectors.floatRepr
      .map(({ value, expected }) => ({ value, expected, actual: pythonFloatRepr(parsePythonFloat(value)) }))
      .filter(({ expected, actual }) => expected !== actual);
    expect(mismatches).toEqual([]);
  });

  it.each(vectors.json.map((vector) => [vector.expected, vector] as const))('json.dumps %s', (_label, vector) => {
    expect(pythonJsonDumps(vector.value)).toBe(vector.expected);
  });
});

const pythonAvailable = spawnSync('python3', ['--version']).status === 0;

describe('fixture freshness', () => {
  // Runs only where python3 exists (it does on the project's machines); CI without it still checks every vector above.
  it.runIf(pythonAvailable)('the committed fixture is exactly what generate-vectors.py prints today', () => {
    const regenerated = execFileSync('python3', [join(here, 'generate-vectors.py'), '--check'], {
      encoding: 'utf8',
      maxBuffer: 64 * 1024 * 1024,
    });
    const withoutPythonVersion = (text: string) => text.replace(/"python": "[^"]*"/, '"python": ""');
    expect(withoutPythonVersion(regenerated)).toBe(withoutPythonVersion(fixtureText));
  });
});

import { describe, expect, it } from 'vitest';
import { getEffectivePersistenceThreshold, InvalidThresholdError, isSelfBounding, UNBOUNDED } from '../../src/index.js';
import type { Unbounded } from '../../src/index.js';

/** An overrides object that records every access, to prove it was never read. */
function spyingOverrides(values: Record<string, unknown>): { overrides: Record<string, unknown>; touched: string[] } {
  const touched: string[] = [];
  const overrides = new Proxy(values, {
    get(target, key, receiver) {
      touched.push(`get ${String(key)}`);
      return Reflect.get(target, key, receiver);
    },
    has(target, key) {
      touched.push(`has ${String(key)}`);
      return Reflect.has(target, key);
    },
    getOwnPropertyDescriptor(target, key) {
      touched.push(`descriptor ${String(key)}`);
      return Reflect.getOwnPropertyDescriptor(target, key);
    },
    ownKeys(target) {
      touched.push('ownKeys');
      return Reflect.ownKeys(target);
    },
  });
  return { overrides, touched };
}

describe('UNBOUNDED', () => {
  it('is Infinity, typed as the Unbounded brand', () => {
    expect(UNBOUNDED).toBe(Infinity);
    const declared: Unbounded = UNBOUNDED;
    expect(Number.isFinite(declared)).toBe(false);
  });
});

describe('getEffectivePersistenceThreshold', () => {
  it('returns Infinity for a self-bounding tool without touching the overrides', () => {
    const { overrides, touched } = spyingOverrides({ read_file: 10, '*': 5 });
    expect(getEffectivePersistenceThreshold({ name: 'read_file', maxResultSizeChars: UNBOUNDED }, overrides)).toBe(Infinity);
    expect(getEffectivePersistenceThreshold({ name: 'read_file', maxResultSizeChars: Number.POSITIVE_INFINITY }, overrides)).toBe(Infinity);
    expect(touched).toEqual([]);
  });

  it('does not even call an override getter for a self-bounding tool', () => {
    let calls = 0;
    const overrides = {
      get read_file() {
        calls += 1;
        return 1_000;
      },
    };
    expect(getEffectivePersistenceThreshold({ name: 'read_file', maxResultSizeChars: Infinity }, overrides)).toBe(Infinity);
    expect(calls).toBe(0);
  });

  it('takes an override that is a finite number > 0', () => {
    expect(getEffectivePersistenceThreshold({ name: 'bash', maxResultSizeChars: 30_000 }, { bash: 5_000 })).toBe(5_000);
    expect(getEffectivePersistenceThreshold({ name: 'bash', maxResultSizeChars: 30_000 }, { bash: 0.5 })).toBe(0.5);
    expect(getEffectivePersistenceThreshold({ name: 'bash', maxResultSizeChars: 30_000 }, { bash: 90_000 })).toBe(90_000);
  });

  it.each([
    ['a string', '5000'],
    ['NaN', Number.NaN],
    ['zero', 0],
    ['a negative number', -1],
    ['Infinity', Infinity],
    ['-Infinity', -Infinity],
    ['null', null],
    ['undefined', undefined],
    ['an object', { value: 10 }],
    ['a boolean', true],
    ['a bigint', 10n],
  ])('ignores an override that is %s and keeps the declared value', (_label, override) => {
    expect(getEffectivePersistenceThreshold({ name: 'bash', maxResultSizeChars: 30_000 }, { bash: override })).toBe(30_000);
  });

  it('keeps the declared value when there are no overrides or none for this tool', () => {
    const tool = { name: 'bash', maxResultSizeChars: 30_000 };
    expect(getEffectivePersistenceThreshold(tool)).toBe(30_000);
    expect(getEffectivePersistenceThreshold(tool, null)).toBe(30_000);
    expect(getEffectivePersistenceThreshold(tool, undefined)).toBe(30_000);
    expect(getEffectivePersistenceThreshold(tool, {})).toBe(30_000);
    expect(getEffectivePersistenceThreshold(tool, { grep: 1 })).toBe(30_000);
  });

  it('does not take values inherited from Object.prototype as overrides', () => {
    expect(getEffectivePersistenceThreshold({ name: 'constructor', maxResultSizeChars: 100 }, {})).toBe(100);
    expect(getEffectivePersistenceThreshold({ name: 'toString', maxResultSizeChars: 100 }, {})).toBe(100);
  });

  it.each([
    ['NaN', Number.NaN],
    ['zero', 0],
    ['a negative number', -5],
    ['-Infinity', -Infinity],
    ['a string', '50000'],
    ['undefined', undefined],
    ['null', null],
  ])('throws a TypeError naming the tool when the declared value is %s', (_label, declared) => {
    const tool = { name: 'grep', maxResultSizeChars: declared as number };
    expect(() => getEffectivePersistenceThreshold(tool, { grep: 10 })).toThrow(TypeError);
    expect(() => getEffectivePersistenceThreshold(tool)).toThrow(/"grep"/);
    try {
      getEffectivePersistenceThreshold(tool);
    } catch (error) {
      expect(error).toBeInstanceOf(InvalidThresholdError);
      expect((error as InvalidThresholdError).code).toBe('ERR_INVALID_THRESHOLD');
      expect((error as InvalidThresholdError).toolName).toBe('grep');
    }
  });

  it('rejects a NaN declaration even when an override would be valid (NaN is never the sentinel)', () => {
    expect(() => getEffectivePersistenceThreshold({ name: 'web_fetch', maxResultSizeChars: Number.NaN }, { web_fetch: 1_000 })).toThrow(
      /web_fetch.*NaN/,
    );
  });
});

describe('isSelfBounding', () => {
  it('is true only for the sentinel', () => {
    expect(isSelfBounding({ name: 'read_file', maxResultSizeChars: UNBOUNDED })).toBe(true);
    expect(isSelfBounding({ name: 'bash', maxResultSizeChars: 30_000 })).toBe(false);
    expect(isSelfBounding({ name: 'bad', maxResultSizeChars: Number.NaN })).toBe(false);
  });
});

/**
 * Byte-exact twins of the two Python formatting steps the Python reference guard
 * hashes: `json.dumps(obj, sort_keys=True)` and `f"{x:.2%}"`. A Python service
 * running the reference guard and a TypeScript harness running this package must compute
 * the same manifest digests, so "close enough" (JSON.stringify, toFixed) is wrong:
 * both differ from Python in separators, escaping, key order and tie rounding.
 */
import { createHash } from 'node:crypto';

/** A value `pythonJsonDumps` can serialise: what Python's json module emits for dict/list/str/int/float/bool/None. */
export type PythonJsonValue =
  string | number | boolean | null | readonly PythonJsonValue[] | { readonly [key: string]: PythonJsonValue | undefined };

export class PythonJsonError extends Error {
  readonly code = 'PYTHON_JSON_UNSUPPORTED_VALUE';
  constructor(message: string) {
    super(message);
    this.name = 'PythonJsonError';
  }
}

export class IllFormedTextError extends Error {
  readonly code = 'ILL_FORMED_TEXT';
  constructor(what: string) {
    super(
      `${what} contains a lone UTF-16 surrogate. Python's str.encode("utf-8") raises on it, so no digest ` +
        'could agree with the Python reference implementation; pass well-formed text (String.prototype.toWellFormed()).',
    );
    this.name = 'IllFormedTextError';
  }
}

/**
 * `json.dumps(value, sort_keys=True)` with Python's defaults: separators `', '`
 * and `': '`, `ensure_ascii=True` (every character outside space..`~` escaped as
 * lowercase `\uXXXX`, astral characters as their surrogate pair), `None` → `null`.
 *
 * Numbers: a safe integer (|n| < 2^53, not -0) is written as a Python `int`
 * (`3`), any other finite number as Python's float `repr` (`0.1`, `1e-05`,
 * `1e+16`, `-0.0`); `NaN` and `±Infinity` as Python writes them. A float that
 * happens to be a small integer (Python `1.0`) cannot be told from an int in
 * JavaScript and is written `1`; the reference guard hashes only strings and `None`, so its
 * digests never depend on this.
 * Object properties whose value is `undefined` are skipped, like JSON.stringify.
 */
export function pythonJsonDumps(value: PythonJsonValue): string {
  return dumpValue(value, new Set());
}

function dumpValue(value: PythonJsonValue | undefined, ancestors: Set<object>): string {
  if (value === null) return 'null';
  switch (typeof value) {
    case 'string':
      return pythonJsonString(value);
    case 'boolean':
      return value ? 'true' : 'false';
    case 'number':
      return pythonNumber(value);
    case 'object':
      break;
    default:
      throw new PythonJsonError(
        `Cannot serialise a value of type ${typeof value}; pass strings, numbers, booleans, null, arrays or plain objects.`,
      );
  }
  if (ancestors.has(value)) {
    throw new PythonJsonError('Cannot serialise a circular structure (Python raises "Circular reference detected").');
  }
  ancestors.add(value);
  try {
    if (Array.isArray(value)) {
      return `[${(value as readonly PythonJsonValue[]).map((item) => dumpValue(item, ancestors)).join(', ')}]`;
    }
    const prototype: unknown = Object.getPrototypeOf(value);
    if (prototype !== Object.prototype && prototype !== null) {
      throw new PythonJsonError('Cannot serialise a class instance; convert it to a plain object first.');
    }
    const record = value as { readonly [key: string]: PythonJsonValue | undefined };
    const keys = Object.keys(record)
      .filter((key) => record[key] !== undefined)
      .sort(compareByCodePoint);
    return `{${keys.map((key) => `${pythonJsonString(key)}: ${dumpValue(record[key], ancestors)}`).join(', ')}}`;
  } finally {
    ancestors.delete(value);
  }
}

/**
 * Python sorts str keys by code point; JavaScript's default sort compares UTF-16
 * code units, which puts an astral character (a surrogate pair, 0xD800..) before
 * U+E000..U+FFFF. Compare code points so both languages agree.
 */
export function compareByCodePoint(left: string, right: string): number {
  const length = Math.min(left.length, right.length);
  for (let index = 0; index < length; index += 1) {
    const leftUnit = left.charCodeAt(index);
    const rightUnit = right.charCodeAt(index);
    if (leftUnit !== rightUnit) return codePointOrder(leftUnit) - codePointOrder(rightUnit);
  }
  return left.length - right.length;
}

/**
 * Moves surrogates (0xD800–0xDFFF, the start of a character ≥ U+10000) above
 * U+E000–U+FFFF, so comparing code units at the first difference orders by code point.
 */
function codePointOrder(unit: number): number {
  if (unit >= 0xd800 && unit <= 0xdfff) return unit + 0x2000;
  if (unit >= 0xe000) return unit - 0x800;
  return unit;
}

const PLAIN_ASCII = /^[\x20\x21\x23-\x5b\x5d-\x7e]*$/;

const SHORT_ESCAPES: Readonly<Record<number, string>> = {
  0x22: '\\"',
  0x5c: '\\\\',
  0x0a: '\\n',
  0x0d: '\\r',
  0x09: '\\t',
  0x08: '\\b',
  0x0c: '\\f',
};

/** Python's `py_encode_basestring_ascii`: escapes per UTF-16 code unit, which yields surrogate pairs for astral characters. */
export function pythonJsonString(text: string): string {
  // Most keys and ids are printable ASCII without quotes or backslashes: nothing to escape.
  if (PLAIN_ASCII.test(text)) return `"${text}"`;
  let output = '"';
  for (let index = 0; index < text.length; index += 1) {
    const unit = text.charCodeAt(index);
    const short = SHORT_ESCAPES[unit];
    if (short !== undefined) output += short;
    else if (unit >= 0x20 && unit <= 0x7e) output += text[index];
    else output += `\\u${unit.toString(16).padStart(4, '0')}`;
  }
  return `${output}"`;
}

/** Python's float repr (shortest round-trip digits, exponent form below 1e-4 and from 1e16) or int form. */
export function pythonNumber(value: number): string {
  if (Number.isNaN(value)) return 'NaN';
  if (value === Infinity) return 'Infinity';
  if (value === -Infinity) return '-Infinity';
  // Larger integral values are not exact integers in JavaScript anyway; Python wrote them as floats if they came from JSON.
  if (Number.isSafeInteger(value) && !Object.is(value, -0)) return String(value);
  return pythonFloatRepr(value);
}

/** `repr(float)`: same shortest digits as JavaScript, Python's layout. */
export function pythonFloatRepr(value: number): string {
  if (Number.isNaN(value)) return 'nan';
  if (value === Infinity) return 'inf';
  if (value === -Infinity) return '-inf';
  const sign = value < 0 || Object.is(value, -0) ? '-' : '';
  const [mantissa = '0', exponentText = '0'] = Math.abs(value).toExponential().split('e');
  const digits = mantissa.replace('.', '');
  const exponent = Number(exponentText);
  if (exponent < -4 || exponent >= 16) {
    const fraction = digits.length > 1 ? `.${digits.slice(1)}` : '';
    const exponentSign = exponent < 0 ? '-' : '+';
    return `${sign}${digits[0]}${fraction}e${exponentSign}${String(Math.abs(exponent)).padStart(2, '0')}`;
  }
  if (exponent < 0) return `${sign}0.${'0'.repeat(-exponent - 1)}${digits}`;
  const integerPart = digits.slice(0, exponent + 1).padEnd(exponent + 1, '0');
  const fractionPart = digits.slice(exponent + 1) || '0';
  return `${sign}${integerPart}.${fractionPart}`;
}

/**
 * `f"{value:.2%}"`: CPython multiplies the double by 100 (one IEEE rounding, as
 * here), then prints it with two decimals, rounding the *exact* binary value
 * half-to-even. `toFixed` rounds exact ties up (0.125 → "0.13", Python "0.12")
 * and switches to exponent form at 1e21, so the rounding is done in BigInt.
 */
export function formatPercentLikePython(value: number): string {
  return `${formatFixedLikePython(value * 100, 2)}%`;
}

/** `format(value, f".{decimals}f")` with CPython's correctly rounded, half-to-even result. */
export function formatFixedLikePython(value: number, decimals: number): string {
  if (!Number.isInteger(decimals) || decimals < 0) {
    throw new RangeError(`decimals must be a non-negative integer, got ${decimals}`);
  }
  if (Number.isNaN(value)) return 'nan';
  if (value === Infinity) return 'inf';
  if (value === -Infinity) return '-inf';
  const negative = value < 0 || Object.is(value, -0);
  const { significand, exponent } = decomposeDouble(Math.abs(value));
  const scale = 10n ** BigInt(decimals);
  // |value| * 10^decimals = significand * 2^exponent * scale, rounded half-to-even to an integer.
  let scaled: bigint;
  if (exponent >= 0) {
    scaled = (significand << BigInt(exponent)) * scale;
  } else {
    const denominator = 1n << BigInt(-exponent);
    const numerator = significand * scale;
    scaled = numerator / denominator;
    const twiceRemainder = (numerator % denominator) * 2n;
    if (twiceRemainder > denominator || (twiceRemainder === denominator && scaled % 2n === 1n)) scaled += 1n;
  }
  const digits = scaled.toString().padStart(decimals + 1, '0');
  const integerPart = digits.slice(0, digits.length - decimals);
  const fractionPart = digits.slice(digits.length - decimals);
  return `${negative ? '-' : ''}${integerPart}${decimals > 0 ? `.${fractionPart}` : ''}`;
}

/** Splits a finite non-negative double into an exact `significand * 2^exponent`. */
function decomposeDouble(value: number): { significand: bigint; exponent: number } {
  const view = new DataView(new ArrayBuffer(8));
  view.setFloat64(0, value);
  const bits = view.getBigUint64(0);
  const biasedExponent = Number((bits >> 52n) & 0x7ffn);
  const fraction = bits & 0xfffffffffffffn;
  if (biasedExponent === 0) return { significand: fraction, exponent: -1074 };
  return { significand: fraction | (1n << 52n), exponent: biasedExponent - 1075 };
}

// With the `u` flag a surrogate pair is one code point, so this matches only lone surrogates.
const LONE_SURROGATE = /[\uD800-\uDFFF]/u;

/** The reference guard's `_hash`: SHA-256 hex of the UTF-8 bytes. Refuses text Python could not encode. */
export function sha256Hex(text: string): string {
  if (LONE_SURROGATE.test(text)) throw new IllFormedTextError('Text to hash');
  return createHash('sha256').update(text, 'utf8').digest('hex');
}

const LONE_SURROGATES = /[\uD800-\uDFFF]/gu;

/**
 * SHA-256 hex of Python's `text.encode("utf-8", "surrogatepass")`, for text a
 * tool produced (its result, its error message). The call has already run and
 * spent budget, so refusing to hash would lose its receipt; turning a lone
 * surrogate into U+FFFD would make `"\uD800"` and `"\uDC00"` collide. Each lone
 * surrogate is encoded as its own three bytes (ED A0 80 … ED BF BF); well-formed
 * text hashes exactly as `sha256Hex` does.
 */
export function sha256HexSurrogatePass(text: string): string {
  const hash = createHash('sha256');
  if (!LONE_SURROGATE.test(text)) return hash.update(text, 'utf8').digest('hex');
  let segmentStart = 0;
  for (const match of text.matchAll(LONE_SURROGATES)) {
    const unit = text.charCodeAt(match.index);
    hash.update(text.slice(segmentStart, match.index), 'utf8');
    hash.update(Buffer.from([0xe0 | (unit >> 12), 0x80 | ((unit >> 6) & 0x3f), 0x80 | (unit & 0x3f)]));
    segmentStart = match.index + 1;
  }
  return hash.update(text.slice(segmentStart), 'utf8').digest('hex');
}

/** SHA-256 hex of `pythonJsonDumps(value)`: the digest form every receipt uses. */
export function digestOfJson(value: PythonJsonValue): string {
  return sha256Hex(pythonJsonDumps(value));
}

/**
 * The ledger's append-only JSONL journal. One record per line, each line written
 * with one `write` on a descriptor opened with O_APPEND, so a record is never
 * interleaved with another and a crash can only leave the *last* line short.
 * Every record carries the digest of its predecessor: a line edited or dropped
 * in the middle breaks the chain and is reported, not silently accepted.
 */
import { closeSync, existsSync, fdatasyncSync, fstatSync, ftruncateSync, mkdirSync, openSync, readFileSync, writeSync } from 'node:fs';
import { dirname } from 'node:path';
import { digestOfJson, type PythonJsonValue } from './python-json.js';

export const LEDGER_FORMAT = 'tool-result-guard/invocation-ledger@1';

/**
 * `fsync` (default): every record is flushed to disk (fdatasync) before the call
 * returns: a receipt for a call that happened survives a crash or power loss.
 * `os-buffered`: leave flushing to the OS: faster, but the last records can be
 * lost on power loss (never on a process crash).
 */
export type JournalDurability = 'fsync' | 'os-buffered';

/** Fields every journal line has; the rest depends on `type`. */
export interface JournalRecordBase {
  readonly type: string;
  readonly previousRecordDigest: string | null;
  readonly recordDigest: string;
}

/** A last line that was cut short (crash mid-write) or does not verify; the complete lines before it are kept. */
export interface BrokenJournalLine {
  readonly lineNumber: number;
  readonly byteOffset: number;
  readonly byteLength: number;
  readonly reason: string;
  /** The discarded bytes, as text, so nothing is lost; also saved next to the journal. */
  readonly text: string;
  readonly savedTo: string | null;
}

export class LedgerJournalError extends Error {
  readonly code: 'LEDGER_CORRUPTED' | 'LEDGER_WRITE_FAILED' | 'LEDGER_SESSION_MISMATCH' | 'LEDGER_CLOSED' | 'LEDGER_LOCKED';
  readonly path: string;
  constructor(code: LedgerJournalError['code'], path: string, message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'LedgerJournalError';
    this.code = code;
    this.path = path;
  }
}

/** Seals a record: links it to its predecessor and adds its own digest (SHA-256 of Python-style sorted JSON). */
export function sealRecord<Fields extends Record<string, PythonJsonValue | undefined>>(
  fields: Fields,
  previousRecordDigest: string | null,
): Fields & { previousRecordDigest: string | null; recordDigest: string } {
  const linked = { ...fields, previousRecordDigest };
  return { ...linked, recordDigest: digestOfJson(linked) };
}

function verifyRecord(candidate: unknown, expectedPrevious: string | null): string | null {
  if (typeof candidate !== 'object' || candidate === null || Array.isArray(candidate)) return 'not a JSON object';
  const record = candidate as Record<string, PythonJsonValue>;
  if (typeof record['type'] !== 'string') return 'no "type" field';
  if (record['previousRecordDigest'] !== expectedPrevious) return 'its previousRecordDigest does not match the record before it';
  const { recordDigest, ...rest } = record;
  if (typeof recordDigest !== 'string' || digestOfJson(rest) !== recordDigest) return 'its recordDigest does not match its content';
  return null;
}

export interface LoadedJournal {
  readonly records: JournalRecordBase[];
  readonly brokenLastLine: BrokenJournalLine | null;
}

/**
 * Reads a journal for resume. Complete, verified lines are kept; a last line
 * cut short by a crash (no newline, does not parse) is cut off the file (saved
 * beside it as `<path>.broken-line-<n>`) so new records do not get glued to it.
 * A complete line that does not verify (edited, dropped, reordered) is
 * corruption: throws, because guessing would hide lost or altered receipts.
 */
export function loadJournal(path: string): LoadedJournal {
  if (!existsSync(path)) return { records: [], brokenLastLine: null };
  const bytes = readFileSync(path);
  const records: JournalRecordBase[] = [];
  let offset = 0;
  let lineNumber = 0;
  let previous: string | null = null;
  while (offset < bytes.length) {
    lineNumber += 1;
    const newline = bytes.indexOf(0x0a, offset);
    const end = newline === -1 ? bytes.length : newline;
    const text = bytes.subarray(offset, end).toString('utf8');
    // Records are written as one buffer ending in a newline, so a crash leaves a line *without* one.
    // A complete line that fails to verify was altered afterwards: that is corruption, not a crash.
    const cutShort = newline === -1;
    let parsed: unknown;
    let problem: string | null;
    try {
      parsed = JSON.parse(text);
      problem = verifyRecord(parsed, previous);
    } catch (error) {
      problem = newline === -1 ? 'the line is cut short (no newline: the writer stopped mid-record)' : `not valid JSON (${(error as Error).message})`;
    }
    if (problem !== null) {
      if (!cutShort) {
        throw new LedgerJournalError(
          'LEDGER_CORRUPTED',
          path,
          `Invocation ledger ${path} is corrupted at line ${lineNumber} (${problem}). ` +
            'Receipts from there on cannot be trusted; inspect the file, or move it aside to start a new ledger.',
        );
      }
      const savedTo = saveBrokenLine(path, lineNumber, bytes.subarray(offset));
      const descriptor = openSync(path, 'r+');
      try {
        ftruncateSync(descriptor, offset);
        fdatasyncSync(descriptor);
      } finally {
        closeSync(descriptor);
      }
      return {
        records,
        brokenLastLine: { lineNumber, byteOffset: offset, byteLength: bytes.length - offset, reason: problem, text, savedTo },
      };
    }
    records.push(parsed as JournalRecordBase);
    previous = (parsed as JournalRecordBase).recordDigest;
    if (newline === -1) {
      // A complete record whose newline never made it: add it so the next record starts on its own line.
      appendBytes(path, Buffer.from('\n'));
      break;
    }
    offset = newline + 1;
  }
  return { records, brokenLastLine: null };
}

/**
 * Saves the discarded bytes under a name nobody used yet (`.broken-line-<n>`,
 * then `.broken-line-<n>.2`, …), created exclusively: a second crash at the
 * same line (say, while writing the resumed header) must not overwrite what
 * the first one saved.
 */
function saveBrokenLine(path: string, lineNumber: number, bytes: Buffer): string {
  for (let attempt = 1; ; attempt += 1) {
    const candidate = `${path}.broken-line-${lineNumber}${attempt === 1 ? '' : `.${attempt}`}`;
    let descriptor: number;
    try {
      descriptor = openSync(candidate, 'wx', 0o600);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'EEXIST') continue;
      throw error;
    }
    try {
      writeAll(descriptor, bytes);
      fdatasyncSync(descriptor);
    } finally {
      closeSync(descriptor);
    }
    return candidate;
  }
}

function writeAll(descriptor: number, buffer: Buffer): void {
  let written = 0;
  while (written < buffer.length) written += writeSync(descriptor, buffer, written, buffer.length - written);
}

function appendBytes(path: string, buffer: Buffer): void {
  const descriptor = openSync(path, 'a', 0o600);
  try {
    writeSync(descriptor, buffer);
  } finally {
    closeSync(descriptor);
  }
}

/** An open journal that appends sealed records. One writer per journal (one ledger per session). */
export class JournalWriter {
  readonly path: string;
  readonly durability: JournalDurability;
  #descriptor: number | null;
  /** The lock that makes this the journal's only writer; released on close. */
  readonly #lock: { release(): void } | null;
  /** A failed write left a partial record that could not be cut off: appending more would bury it mid-file. */
  #needsRepair = false;

  constructor(path: string, durability: JournalDurability, lock: { release(): void } | null = null) {
    this.path = path;
    this.durability = durability;
    this.#lock = lock;
    // Receipts describe auth state and tool results: owner-only, like the persisted tool results.
    mkdirSync(dirname(path), { recursive: true, mode: 0o700 });
    this.#descriptor = openSync(path, 'a', 0o600);
  }

  /**
   * Appends one record as one line. On a failed write (disk full) the file is
   * cut back to its previous length, so a half record never sits in the middle.
   */
  append(record: JournalRecordBase): void {
    const descriptor = this.#descriptor;
    if (descriptor === null) throw new LedgerJournalError('LEDGER_CLOSED', this.path, `Invocation ledger ${this.path} is closed; open a new ledger to resume.`);
    if (this.#needsRepair) {
      throw new LedgerJournalError(
        'LEDGER_WRITE_FAILED',
        this.path,
        `Invocation ledger ${this.path} ends in a partial record an earlier write failure left; open a new ledger on the same path to repair it before appending.`,
      );
    }
    const buffer = Buffer.from(`${JSON.stringify(record)}\n`, 'utf8');
    const sizeBefore = fstatSync(descriptor).size;
    try {
      writeAll(descriptor, buffer);
      if (this.durability === 'fsync') fdatasyncSync(descriptor);
    } catch (error) {
      let repair = 'the journal was cut back to its last complete record';
      try {
        ftruncateSync(descriptor, sizeBefore);
      } catch (truncateError) {
        this.#needsRepair = true;
        // Not a regular file (a device, a pipe) or the disk refuses even this: say so; resume will report the broken line.
        repair = `cutting the partial record off failed too (${(truncateError as Error).message}); on resume it is reported as a broken last line`;
      }
      throw new LedgerJournalError(
        'LEDGER_WRITE_FAILED',
        this.path,
        `Could not append to invocation ledger ${this.path} (${(error as Error).message}); ${repair}. Free space or fix permissions, then retry${this.#needsRepair ? ' with a new ledger on the same path (it repairs the tail)' : ''}.`,
        { cause: error },
      );
    }
  }

  close(): void {
    if (this.#descriptor !== null) closeSync(this.#descriptor);
    this.#descriptor = null;
    this.#lock?.release();
  }
}

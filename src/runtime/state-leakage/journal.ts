/**
 * The ledger's append-only JSONL journal. One record per line, each line written
 * with one `write` on a descriptor opened with O_APPEND, so a record is never
 * interleaved with another and a crash can only leave the *last* line short.
 * Every record carries the digest of its predecessor: a line edited or dropped
 * in the middle breaks the chain and is reported, not silently accepted.
 *
 * The chain alone cannot see records removed from the *end*: what is left is a
 * valid, shorter chain, and a resume from it would restore a smaller spent
 * budget, so the session could overspend. A checkpoint beside the journal
 * (record count and head digest, replaced atomically after every append) makes
 * that visible. With an `hmacKey`, digests and checkpoint are HMAC-SHA256, so
 * nobody without the key can rewrite a record and recompute the chain.
 */
import { createHmac } from 'node:crypto';
import {
  closeSync,
  existsSync,
  fdatasyncSync,
  fstatSync,
  ftruncateSync,
  mkdirSync,
  openSync,
  readFileSync,
  renameSync,
  writeSync,
} from 'node:fs';
import { dirname } from 'node:path';
import { digestOfJson, pythonJsonDumps, type PythonJsonValue } from './python-json.js';

export const LEDGER_FORMAT = 'tool-result-guard/invocation-ledger@1';
export const LEDGER_CHECKPOINT_FORMAT = 'tool-result-guard/invocation-ledger-checkpoint@1';

/** Secret for the HMAC-SHA256 chain; keep it outside the journal's folder (a secret store, an env variable). */
export type LedgerHmacKey = string | Uint8Array;

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
  readonly code:
    'LEDGER_CORRUPTED' | 'LEDGER_WRITE_FAILED' | 'LEDGER_SESSION_MISMATCH' | 'LEDGER_CLOSED' | 'LEDGER_LOCKED' | 'LEDGER_KEY_MISMATCH';
  readonly path: string;
  constructor(code: LedgerJournalError['code'], path: string, message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'LedgerJournalError';
    this.code = code;
    this.path = path;
  }
}

/**
 * Seals a record: links it to its predecessor and adds its own digest, SHA-256
 * of the Python-style sorted JSON, or HMAC-SHA256 of the same bytes with `hmacKey`.
 */
export function sealRecord<Fields extends Record<string, PythonJsonValue | undefined>>(
  fields: Fields,
  previousRecordDigest: string | null,
  hmacKey?: LedgerHmacKey,
): Fields & { previousRecordDigest: string | null; recordDigest: string } {
  const linked = { ...fields, previousRecordDigest };
  return { ...linked, recordDigest: chainDigest(linked, hmacKey) };
}

function chainDigest(value: PythonJsonValue, hmacKey: LedgerHmacKey | undefined): string {
  return hmacKey === undefined ? digestOfJson(value) : createHmac('sha256', hmacKey).update(pythonJsonDumps(value), 'utf8').digest('hex');
}

function verifyRecord(candidate: unknown, expectedPrevious: string | null, hmacKey: LedgerHmacKey | undefined): string | null {
  if (typeof candidate !== 'object' || candidate === null || Array.isArray(candidate)) return 'not a JSON object';
  const record = candidate as Record<string, PythonJsonValue>;
  if (typeof record['type'] !== 'string') return 'no "type" field';
  if (record['previousRecordDigest'] !== expectedPrevious) return 'its previousRecordDigest does not match the record before it';
  const { recordDigest, ...rest } = record;
  if (typeof recordDigest !== 'string' || chainDigest(rest, hmacKey) !== recordDigest) {
    return hmacKey === undefined
      ? 'its recordDigest does not match its content'
      : 'its recordDigest does not match its content under this hmacKey';
  }
  return null;
}

/** Where the journal is, by count and head digest, after its last complete append. */
export interface JournalCheckpoint {
  readonly records: number;
  readonly head: string | null;
}

function checkpointPathOf(journalPath: string): string {
  return `${journalPath}.checkpoint`;
}

type ChainKind = 'sha256' | 'hmac-sha256';

function checkpointBody(checkpoint: JournalCheckpoint, chain: ChainKind): Record<string, PythonJsonValue> {
  return { format: LEDGER_CHECKPOINT_FORMAT, chain, records: checkpoint.records, head: checkpoint.head };
}

/** Reads and authenticates the checkpoint; `null` when there is none. Throws on anything that does not verify. */
function readCheckpoint(journalPath: string, hmacKey: LedgerHmacKey | undefined): JournalCheckpoint | null {
  const path = checkpointPathOf(journalPath);
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw error;
  }
  const corrupted = (problem: string) =>
    new LedgerJournalError(
      'LEDGER_CORRUPTED',
      journalPath,
      `Invocation ledger ${journalPath}: its checkpoint ${path} ${problem}. Records may have been removed or altered; ` +
        `inspect both files, or move them aside to start a new ledger.`,
    );
  let parsed: Record<string, unknown>;
  try {
    parsed = JSON.parse(text) as Record<string, unknown>;
  } catch {
    throw corrupted('is not valid JSON');
  }
  const { records, head, chain, mac } = parsed;
  if (
    parsed['format'] !== LEDGER_CHECKPOINT_FORMAT ||
    !Number.isSafeInteger(records) ||
    (records as number) < 0 ||
    (head !== null && typeof head !== 'string')
  ) {
    throw corrupted('is malformed');
  }
  const expectedChain: ChainKind = hmacKey === undefined ? 'sha256' : 'hmac-sha256';
  if (chain !== expectedChain) {
    throw new LedgerJournalError(
      'LEDGER_KEY_MISMATCH',
      journalPath,
      chain === 'hmac-sha256'
        ? `Invocation ledger ${journalPath} was written with an hmacKey; open it with the same hmacKey.`
        : `Invocation ledger ${journalPath} is chained with plain SHA-256 (written without an hmacKey, ` +
            `or rewritten by someone without the key); open it without hmacKey, or move it aside to start a keyed ledger.`,
    );
  }
  const checkpoint = { records: records as number, head: head as string | null };
  if (hmacKey !== undefined && mac !== chainDigest(checkpointBody(checkpoint, expectedChain), hmacKey)) {
    throw corrupted('does not verify under this hmacKey (a wrong key, or a checkpoint forged without it)');
  }
  return checkpoint;
}

/**
 * Replaces the checkpoint atomically (temporary file, then rename), so a crash
 * leaves the old one or the new one, never half of either.
 */
function writeCheckpoint(
  journalPath: string,
  checkpoint: JournalCheckpoint,
  hmacKey: LedgerHmacKey | undefined,
  durability: JournalDurability,
): void {
  const chain: ChainKind = hmacKey === undefined ? 'sha256' : 'hmac-sha256';
  const body = checkpointBody(checkpoint, chain);
  const content = { ...body, mac: hmacKey === undefined ? null : chainDigest(body, hmacKey) };
  const path = checkpointPathOf(journalPath);
  const temporary = `${path}.tmp`;
  const descriptor = openSync(temporary, 'w', 0o600);
  try {
    writeAll(descriptor, Buffer.from(`${JSON.stringify(content)}\n`));
    if (durability === 'fsync') fdatasyncSync(descriptor);
  } finally {
    closeSync(descriptor);
  }
  renameSync(temporary, path);
}

/**
 * The journal must reach at least as far as its checkpoint: the append comes
 * first and the checkpoint after, so a crash between them leaves the journal
 * one record ahead (accepted), never behind. Fewer records, or another record
 * where the checkpoint's head was, means complete records were removed.
 */
function checkAgainstCheckpoint(journalPath: string, records: readonly JournalRecordBase[], checkpoint: JournalCheckpoint | null): void {
  const checkpointPath = checkpointPathOf(journalPath);
  if (checkpoint === null) {
    if (records.length === 0) return;
    throw new LedgerJournalError(
      'LEDGER_CORRUPTED',
      journalPath,
      `Invocation ledger ${journalPath} has ${records.length} records but its checkpoint ${checkpointPath} is missing, ` +
        `so removed records could not be detected. ` +
        'Restore the checkpoint, or move the journal aside to start a new ledger.',
    );
  }
  const atHead = checkpoint.records === 0 ? null : (records[checkpoint.records - 1]?.recordDigest ?? null);
  if (records.length < checkpoint.records || atHead !== checkpoint.head) {
    throw new LedgerJournalError(
      'LEDGER_CORRUPTED',
      journalPath,
      `Invocation ledger ${journalPath} was cut back: ` +
        `its checkpoint ${checkpointPath} records ${checkpoint.records} records ending in ${String(checkpoint.head).slice(0, 12)}…, ` +
        `the journal has ${records.length} complete ` +
        `records${records.length >= checkpoint.records ? ' and another record at that position' : ''}. ` +
        'A resume from it would forget calls that ran (and budget they spent); inspect the files, ' +
        'or move both aside to start a new ledger.',
    );
  }
}

export interface LoadedJournal {
  readonly records: JournalRecordBase[];
  readonly brokenLastLine: BrokenJournalLine | null;
}

/**
 * Reads a journal for resume. Complete, verified lines are kept; a last line
 * cut short by a crash (no newline, does not parse, never checkpointed) is cut
 * off the file (saved beside it as `<path>.broken-line-<n>`) so new records do
 * not get glued to it. A line that parses but does not verify (edited, dropped,
 * reordered), with or without its newline, and a journal shorter than its
 * checkpoint are corruption: throws, because guessing would hide lost or
 * altered receipts. Nothing is repaired before all of that is checked.
 */
export function loadJournal(path: string, options: { hmacKey?: LedgerHmacKey } = {}): LoadedJournal {
  const { hmacKey } = options;
  const checkpoint = readCheckpoint(path, hmacKey);
  if (!existsSync(path)) {
    checkAgainstCheckpoint(path, [], checkpoint);
    return { records: [], brokenLastLine: null };
  }
  const bytes = readFileSync(path);
  const records: JournalRecordBase[] = [];
  let offset = 0;
  let lineNumber = 0;
  let previous: string | null = null;
  let cutShort: { lineNumber: number; offset: number; reason: string; text: string } | null = null;
  let missingNewline = false;
  while (offset < bytes.length) {
    lineNumber += 1;
    const newline = bytes.indexOf(0x0a, offset);
    const end = newline === -1 ? bytes.length : newline;
    const text = bytes.subarray(offset, end).toString('utf8');
    let parsed: unknown;
    try {
      parsed = JSON.parse(text);
    } catch (error) {
      // Records are written as one buffer ending in a newline, so a crash leaves a line *without* one;
      // no strict prefix of a JSON object parses, so a line that does parse was not cut by a crash.
      if (newline === -1) {
        cutShort = { lineNumber, offset, reason: 'the line is cut short (no newline: the writer stopped mid-record)', text };
        break;
      }
      throw corruptedAt(path, lineNumber, `not valid JSON (${(error as Error).message})`);
    }
    const problem = verifyRecord(parsed, previous, hmacKey);
    if (problem !== null) {
      throw corruptedAt(
        path,
        lineNumber,
        lineNumber === 1 && hmacKey === undefined ? `${problem}; if it was written with an hmacKey, open it with that key` : problem,
      );
    }
    records.push(parsed as JournalRecordBase);
    previous = (parsed as JournalRecordBase).recordDigest;
    if (newline === -1) {
      missingNewline = true;
      break;
    }
    offset = newline + 1;
  }
  checkAgainstCheckpoint(path, records, checkpoint);
  if (missingNewline) {
    // A complete record whose newline never made it: add it so the next record starts on its own line.
    appendBytes(path, Buffer.from('\n'));
  }
  if (cutShort === null) return { records, brokenLastLine: null };
  const savedTo = saveBrokenLine(path, cutShort.lineNumber, bytes.subarray(cutShort.offset));
  const descriptor = openSync(path, 'r+');
  try {
    ftruncateSync(descriptor, cutShort.offset);
    fdatasyncSync(descriptor);
  } finally {
    closeSync(descriptor);
  }
  return {
    records,
    brokenLastLine: {
      lineNumber: cutShort.lineNumber,
      byteOffset: cutShort.offset,
      byteLength: bytes.length - cutShort.offset,
      reason: cutShort.reason,
      text: cutShort.text,
      savedTo,
    },
  };
}

function corruptedAt(path: string, lineNumber: number, problem: string): LedgerJournalError {
  return new LedgerJournalError(
    'LEDGER_CORRUPTED',
    path,
    `Invocation ledger ${path} is corrupted at line ${lineNumber} (${problem}). ` +
      'Receipts from there on cannot be trusted; inspect the file, or move it aside to start a new ledger.',
  );
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
  /** Count and head of the journal so far, written beside it after every append; `null`: no checkpoint kept. */
  #checkpoint: JournalCheckpoint | null;
  readonly #hmacKey: LedgerHmacKey | undefined;
  /** A failed write left a partial record that could not be cut off: appending more would bury it mid-file. */
  #needsRepair = false;

  /**
   * `checkpoint`: where the journal stands (what `loadJournal` returned); the
   * writer then keeps `<path>.checkpoint` current. `lock`: released on close.
   */
  constructor(
    path: string,
    durability: JournalDurability,
    options: { lock?: { release(): void }; checkpoint?: JournalCheckpoint; hmacKey?: LedgerHmacKey } = {},
  ) {
    this.path = path;
    this.durability = durability;
    this.#lock = options.lock ?? null;
    this.#checkpoint = options.checkpoint ?? null;
    this.#hmacKey = options.hmacKey;
    // Receipts describe auth state and tool results: owner-only, like the persisted tool results.
    mkdirSync(dirname(path), { recursive: true, mode: 0o700 });
    // Written before the first append: from then on a journal without its checkpoint is one whose checkpoint was removed.
    if (this.#checkpoint !== null) writeCheckpoint(path, this.#checkpoint, this.#hmacKey, durability);
    this.#descriptor = openSync(path, 'a', 0o600);
  }

  /**
   * Appends one record as one line. On a failed write (disk full) the file is
   * cut back to its previous length, so a half record never sits in the middle.
   */
  append(record: JournalRecordBase): void {
    const descriptor = this.#descriptor;
    if (descriptor === null)
      throw new LedgerJournalError('LEDGER_CLOSED', this.path, `Invocation ledger ${this.path} is closed; open a new ledger to resume.`);
    if (this.#needsRepair) {
      throw new LedgerJournalError(
        'LEDGER_WRITE_FAILED',
        this.path,
        `Invocation ledger ${this.path} ends in a partial record an earlier write failure left; ` +
          `open a new ledger on the same path to repair it before appending.`,
      );
    }
    const buffer = Buffer.from(`${JSON.stringify(record)}\n`, 'utf8');
    const sizeBefore = fstatSync(descriptor).size;
    try {
      writeAll(descriptor, buffer);
      if (this.durability === 'fsync') fdatasyncSync(descriptor);
    } catch (error) {
      this.#failedAppend(descriptor, sizeBefore, error);
    }
    this.#advanceCheckpoint(record);
  }

  /**
   * The record is in the journal; now the checkpoint follows. If it cannot be
   * written (disk full) it stays behind, which resume accepts (a journal ahead
   * of its checkpoint is what a crash between the two leaves); the next append
   * writes it again. Failing the call here would lose a receipt that is written.
   */
  #advanceCheckpoint(record: JournalRecordBase): void {
    if (this.#checkpoint === null) return;
    const next = { records: this.#checkpoint.records + 1, head: record.recordDigest };
    this.#checkpoint = next;
    try {
      writeCheckpoint(this.path, next, this.#hmacKey, this.durability);
    } catch {
      // Left behind until the next append; see above.
    }
  }

  /** A failed write (disk full) is cut back off, so a half record never sits in the middle. */
  #failedAppend(descriptor: number, sizeBefore: number, error: unknown): never {
    let repair = 'the journal was cut back to its last complete record';
    try {
      ftruncateSync(descriptor, sizeBefore);
    } catch (truncateError) {
      this.#needsRepair = true;
      // Not a regular file (a device, a pipe) or the disk refuses even this: say so; resume will report the broken line.
      repair =
        `cutting the partial record off failed too (${(truncateError as Error).message}); ` +
        `on resume it is reported as a broken last line`;
    }
    throw new LedgerJournalError(
      'LEDGER_WRITE_FAILED',
      this.path,
      `Could not append to invocation ledger ${this.path} (${(error as Error).message}); ${repair}. ` +
        `Free space or fix permissions, then retry${this.#needsRepair ? ' with a new ledger on the same path (it repairs the tail)' : ''}.`,
      { cause: error },
    );
  }

  close(): void {
    if (this.#descriptor !== null) closeSync(this.#descriptor);
    this.#descriptor = null;
    this.#lock?.release();
  }
}

/**
 * One writer per journal. Two ledgers appending to the same journal interleave
 * two hash chains, and every later resume then fails as corrupted: the session's
 * receipts are lost. The writer holds `<journal>.lock`, created exclusively,
 * holding its pid and host; a lock whose process is gone (same host, the pid no
 * longer exists) is taken over, so a crash never locks a session out.
 */
import { closeSync, linkSync, mkdirSync, openSync, readFileSync, renameSync, unlinkSync, writeSync } from 'node:fs';
import { hostname } from 'node:os';
import { dirname } from 'node:path';
import { LedgerJournalError } from './journal.js';

/** Who holds a journal's lock, as written in the lock file. */
export interface LockHolder {
  readonly pid: number;
  readonly hostname: string;
}

export class LedgerLockedError extends LedgerJournalError {
  readonly lockPath: string;
  /** `null` when the lock file could not be read (a writer may be creating it at this moment). */
  readonly holder: LockHolder | null;

  constructor(path: string, lockPath: string, holder: LockHolder | null) {
    const who = holder === null ? 'another writer (its lock file is unreadable)' : `pid ${holder.pid} on host ${holder.hostname}`;
    const stale =
      holder !== null && holder.hostname !== hostname()
        ? `The lock is from another host, so it cannot be checked from here: ` +
          `if no ledger on ${holder.hostname} has this journal open, remove ${lockPath}.`
        : `If no such process has this journal open, remove ${lockPath}.`;
    super(
      'LEDGER_LOCKED',
      path,
      `Invocation ledger ${path} is already open for writing by ${who} (lock ${lockPath}). One writer per journal: ` +
        `close that ledger first, or give this session its own journalPath. ${stale}`,
    );
    this.name = 'LedgerLockedError';
    this.lockPath = lockPath;
    this.holder = holder;
  }
}

export class JournalLock {
  readonly journalPath: string;
  readonly lockPath: string;
  #held = true;

  private constructor(journalPath: string, lockPath: string) {
    this.journalPath = journalPath;
    this.lockPath = lockPath;
  }

  /** Takes the journal's lock, or throws `LedgerLockedError` naming the live holder. */
  static acquire(journalPath: string): JournalLock {
    const lockPath = `${journalPath}.lock`;
    mkdirSync(dirname(journalPath), { recursive: true, mode: 0o700 });
    const content = Buffer.from(`${JSON.stringify({ pid: process.pid, hostname: hostname() })}\n`);
    // Two rounds: create; if a dead writer's lock is in the way, remove it and create again.
    for (let round = 0; round < 2; round += 1) {
      let descriptor: number;
      try {
        descriptor = openSync(lockPath, 'wx', 0o600);
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
        const holder = readHolder(lockPath);
        if (round === 0 && holder !== null && holderIsGone(holder) && removeStaleLock(lockPath)) continue;
        throw new LedgerLockedError(journalPath, lockPath, holder);
      }
      try {
        writeSync(descriptor, content);
      } finally {
        closeSync(descriptor);
      }
      return new JournalLock(journalPath, lockPath);
    }
    throw new LedgerLockedError(journalPath, lockPath, readHolder(lockPath));
  }

  release(): void {
    if (!this.#held) return;
    this.#held = false;
    removeIfPresent(this.lockPath);
  }
}

/**
 * Moves the lock aside before deleting it, then checks what was moved: if a
 * concurrent opener replaced the stale lock with its own meanwhile, that live
 * lock is put back (`link` never overwrites) and the take-over is abandoned, so
 * two openers racing for one stale lock never both end up writing.
 */
function removeStaleLock(lockPath: string): boolean {
  const aside = `${lockPath}.stale-${process.pid}-${Date.now()}`;
  try {
    renameSync(lockPath, aside);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return true;
    throw error;
  }
  const moved = readHolder(aside);
  if (moved !== null && holderIsGone(moved)) {
    removeIfPresent(aside);
    return true;
  }
  try {
    linkSync(aside, lockPath);
  } catch {
    // Someone else holds the lock by now; either way it is not ours to take.
  }
  removeIfPresent(aside);
  return false;
}

function readHolder(lockPath: string): LockHolder | null {
  try {
    const parsed = JSON.parse(readFileSync(lockPath, 'utf8')) as Partial<LockHolder>;
    if (Number.isSafeInteger(parsed.pid) && (parsed.pid as number) > 0 && typeof parsed.hostname === 'string') {
      return { pid: parsed.pid as number, hostname: parsed.hostname };
    }
  } catch {
    // Missing (released meanwhile) or not written yet: the caller reports an unknown holder and does not take over.
  }
  return null;
}

/** Only on this host can we tell; `EPERM` means the process exists under another user. */
function holderIsGone(holder: LockHolder): boolean {
  if (holder.hostname !== hostname()) return false;
  try {
    process.kill(holder.pid, 0);
    return false;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'ESRCH';
  }
}

function removeIfPresent(path: string): void {
  try {
    unlinkSync(path);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
  }
}

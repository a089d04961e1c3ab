import { randomBytes } from 'node:crypto';
import * as fsPromises from 'node:fs/promises';
import { constants as fsConstants, lstatSync, readlinkSync } from 'node:fs';
import path from 'node:path';
import type { PersistedPreview } from '../types/brands.js';
import {
  describeValue,
  InvalidIdError,
  PersistError,
  PersistedResultNotFoundError,
  StoreSymlinkError,
  ToolResultGuardError,
  type IdKind,
} from './errors.js';

/** Characters of a persisted result kept in the preview the model sees. */
export const PREVIEW_CHARS = 2_000;

/** Tool output holds secrets (tokens in env dumps, keys in files): owner-only. */
export const DIRECTORY_MODE = 0o700;
export const FILE_MODE = 0o600;

/**
 * Writes one store runs at once. Starting every write of a large message at
 * once exhausted the process's file handles (EMFILE) and froze most of the
 * results inline for good: a transient shortage became a permanent fate.
 */
export const DEFAULT_MAX_CONCURRENT_WRITES = 16;

/**
 * Waits, in milliseconds, before each new attempt of a write that failed for
 * want of file handles (EMFILE, ENFILE, EAGAIN). Only after the last one fails
 * does `persist` reject, and the budget freeze the id inline.
 */
export const FILE_HANDLE_RETRY_DELAYS_MS: readonly number[] = Object.freeze([10, 20, 40, 80, 160, 320]);

const FILE_HANDLE_SHORTAGE_CODES: readonly string[] = ['EMFILE', 'ENFILE', 'EAGAIN'];

/** Longest id, in UTF-8 bytes, that still leaves room for the temp-file suffix under NAME_MAX (255). */
const MAX_ID_BYTES = 200;

/** What `persist` resolves to: where the full result went, and what the model sees of it. */
export interface PersistedToolResult {
  readonly path: string;
  /** Length of the content in characters (UTF-16 code units, the unit `maxResultSizeChars` counts). */
  readonly size: number;
  /** The first `PREVIEW_CHARS` characters (one fewer if that would split a surrogate pair), lone surrogates as U+FFFD; see `previewOf`. */
  readonly preview: PersistedPreview;
}

/** A store whose `persist` yields the branded preview; `ToolResultStore` is the real one. */
export interface ToolResultPersister {
  persist(toolUseId: string, content: string): Promise<PersistedToolResult>;
}

/**
 * What `applyToolResultBudget` needs from a store. A custom store (a
 * database, an object store, a test double) may return a plain-string
 * preview: the budget does not need the brand.
 */
export interface ToolResultBudgetStore {
  persist(toolUseId: string, content: string): Promise<{ readonly path: string; readonly size: number; readonly preview: string }>;
}

/** The file handle operations the store uses (a subset of `fs/promises.FileHandle`). */
export interface StoreFileHandle {
  writeFile(data: string, encoding: 'utf8'): Promise<void>;
  datasync(): Promise<void>;
  chmod(mode: number): Promise<void>;
  close(): Promise<void>;
}

/**
 * The file-system operations the store uses, injectable so tests (and
 * unusual platforms) can simulate a full disk or missing hard links.
 */
export interface StoreFileSystem {
  /** Without `recursive`, fails with `EEXIST` for anything already there, a symbolic link included (never followed). */
  mkdir(directory: string, options: { recursive: boolean; mode: number }): Promise<unknown>;
  /** Sets a folder's mode; on a symbolic link it must fail with `ELOOP` rather than change the link's target. */
  chmod(target: string, mode: number): Promise<void>;
  open(file: string, flags: 'wx', mode: number): Promise<StoreFileHandle>;
  link(existingPath: string, newPath: string): Promise<void>;
  unlink(file: string): Promise<void>;
  /** Reads a file; on a symbolic link it must fail with `ELOOP` rather than read the link's target. */
  readFile(file: string, encoding: 'utf8'): Promise<string>;
  readdir(directory: string): Promise<string[]>;
}

/** `O_NOFOLLOW`, where the platform has it (not on Windows, where links need admin rights to create). */
const NO_FOLLOW = fsConstants.O_NOFOLLOW ?? 0;

export const nodeStoreFileSystem: StoreFileSystem = {
  mkdir: (directory, options) => fsPromises.mkdir(directory, options),
  chmod: async (target, mode) => {
    if (NO_FOLLOW === 0) return fsPromises.chmod(target, mode);
    // fchmod on a handle opened without following links: a link fails with ELOOP, its target is never touched.
    const handle = await fsPromises.open(target, fsConstants.O_RDONLY | NO_FOLLOW);
    try {
      await handle.chmod(mode);
    } finally {
      await handle.close();
    }
  },
  open: (file, flags, mode) => fsPromises.open(file, flags, mode),
  link: (existingPath, newPath) => fsPromises.link(existingPath, newPath),
  unlink: (file) => fsPromises.unlink(file),
  readFile: (file, encoding) => fsPromises.readFile(file, { encoding, flag: fsConstants.O_RDONLY | NO_FOLLOW }),
  readdir: (directory) => fsPromises.readdir(directory),
};

export interface ToolResultStoreOptions {
  /** The storage root the session owns, e.g. `~/.my-agent/projects/<project>`. */
  readonly root: string;
  readonly sessionId: string;
  /** Defaults to node's `fs/promises`. */
  readonly fileSystem?: StoreFileSystem;
  /** Writes this store runs at once (a whole number >= 1, or Infinity for no bound); default `DEFAULT_MAX_CONCURRENT_WRITES`. */
  readonly maxConcurrentWrites?: number;
}

/** A first-come, first-served bound on how many tasks run at once. */
class ConcurrencyLimit {
  readonly #limit: number;
  #running = 0;
  readonly #waiting: Array<() => void> = [];

  constructor(limit: number) {
    this.#limit = limit;
  }

  async run<Value>(task: () => Promise<Value>): Promise<Value> {
    if (this.#running < this.#limit) this.#running += 1;
    else await new Promise<void>((resolve) => this.#waiting.push(resolve)); // the slot is handed over, not counted again
    try {
      return await task();
    } finally {
      const next = this.#waiting.shift();
      if (next) next();
      else this.#running -= 1;
    }
  }
}

/**
 * Writes in flight, keyed by final path, shared by every store in this
 * process: two persists of one id (from two budget calls, or two store
 * objects for one session) write the file once and share the outcome.
 */
const writesInFlight = new Map<string, Promise<PersistedToolResult>>();
let temporaryFileCounter = 0;

/** `.<id>.<pid>-<counter>-<random>.tmp`: the pid says whether its writer can still finish it. */
const TEMPORARY_FILE_NAME = /^\..+\.(\d+)-\d+-[0-9a-f]{8}\.tmp$/u;

/**
 * Persists large tool results under `<root>/<sessionId>/tool-results/<id>.txt`.
 *
 * Every write goes to a temp file in the same folder, is flushed, then
 * published under its final name with `link` (atomic, and it fails instead of
 * overwriting): a reader, or a process that resumes after a crash, sees the
 * whole file or no file. Where hard links are unsupported the final name is
 * created exclusively instead (`wx`), so the first content still wins.
 */
export class ToolResultStore implements ToolResultPersister, ToolResultBudgetStore {
  readonly root: string;
  readonly sessionId: string;
  /** `<root>/<sessionId>/tool-results`, absolute. */
  readonly directory: string;
  readonly #fileSystem: StoreFileSystem;
  /** Why the session id is unusable, reported by every operation (the constructor never throws on ids). */
  readonly #sessionIdProblem: InvalidIdError | undefined;
  readonly #completed = new Map<string, PersistedToolResult>();
  readonly #writeLimit: ConcurrencyLimit;

  constructor(options: ToolResultStoreOptions) {
    if (typeof options !== 'object' || options === null) {
      throw new TypeError('new ToolResultStore(options) needs { root, sessionId }.');
    }
    if (typeof options.root !== 'string' || options.root.length === 0) {
      throw new TypeError(
        `ToolResultStore: root must be a non-empty path string, got ${typeof options.root}. Pass the storage root the session owns.`,
      );
    }
    this.root = path.resolve(options.root);
    this.sessionId = options.sessionId;
    this.#sessionIdProblem = findIdProblem('session id', options.sessionId);
    this.directory = path.join(this.root, String(options.sessionId), 'tool-results');
    this.#fileSystem = options.fileSystem ?? nodeStoreFileSystem;
    const maxConcurrentWrites: unknown = options.maxConcurrentWrites ?? DEFAULT_MAX_CONCURRENT_WRITES;
    if (
      typeof maxConcurrentWrites !== 'number' ||
      !(maxConcurrentWrites === Number.POSITIVE_INFINITY || (Number.isInteger(maxConcurrentWrites) && maxConcurrentWrites >= 1))
    ) {
      throw new TypeError(
        `ToolResultStore: maxConcurrentWrites must be a whole number >= 1 or Infinity, ` +
          `got ${describeValue(maxConcurrentWrites)}. Leave it out for the default (${DEFAULT_MAX_CONCURRENT_WRITES}); ` +
          `keep it well under the open-file limit (ulimit -n).`,
      );
    }
    this.#writeLimit = new ConcurrencyLimit(maxConcurrentWrites);
  }

  /** The final path of a tool-use id's file. Throws `InvalidIdError` for a bad id. */
  pathFor(toolUseId: string): string {
    if (this.#sessionIdProblem) throw this.#sessionIdProblem;
    const idProblem = findIdProblem('tool-use id', toolUseId);
    if (idProblem) throw idProblem;
    return path.join(this.directory, `${toolUseId}.txt`);
  }

  /**
   * Writes `content` for `toolUseId` unless it is already persisted, and
   * resolves to `{ path, size, preview }`. Persisting an id again resolves to
   * the same result without writing (the first content wins). Rejects with
   * `InvalidIdError` for a bad id and `PersistError` when the write fails (a
   * full disk, no permission), leaving no partial file.
   */
  async persist(toolUseId: string, content: string): Promise<PersistedToolResult> {
    const finalPath = this.pathFor(toolUseId);
    if (typeof content !== 'string') {
      throw new TypeError(
        `ToolResultStore.persist(${JSON.stringify(toolUseId)}, content): content must be a string, got ${typeof content}.`,
      );
    }
    const completed = this.#completed.get(toolUseId);
    if (completed) return completed;

    let write = writesInFlight.get(finalPath);
    if (!write) {
      write = this.#writeRetryingShortages(toolUseId, finalPath, content).finally(() => writesInFlight.delete(finalPath));
      writesInFlight.set(finalPath, write);
    }
    const result = await write;
    this.#completed.set(toolUseId, result);
    return result;
  }

  /** Reads a persisted result back in full. Rejects with `PersistedResultNotFoundError` when there is none. */
  async read(toolUseId: string): Promise<string> {
    const finalPath = this.pathFor(toolUseId);
    let content: string;
    try {
      content = await this.#fileSystem.readFile(finalPath, 'utf8');
    } catch (error) {
      if (isErrorWithCode(error, 'ENOENT', 'ENOTDIR')) throw new PersistedResultNotFoundError(toolUseId, finalPath, error);
      if (isErrorWithCode(error, 'ELOOP')) throw new StoreSymlinkError(finalPath, 'result file');
      throw error;
    }
    // A file found through a linked session or tool-results folder is someone else's choice, not a result.
    await this.#refuseLinkedDirectories();
    return content;
  }

  /**
   * Whether `candidate` really lies inside this store's folder once `..` and
   * symbolic links are resolved the way the OS resolves them: component by
   * component, each link replaced by its target before a later `..` applies.
   * A read tool calls it to refuse (or flag) reading the harness's own
   * persisted output; resolving `..` textually first would let `L/../x`
   * (L a link into the store) open a persisted file while answering false.
   */
  isPersistedPath(candidate: string): boolean {
    if (this.#sessionIdProblem || typeof candidate !== 'string' || candidate.length === 0) return false;
    if (candidate.includes('\0')) return false;
    const resolvedCandidate = resolveThroughSymlinks(candidate);
    const resolvedDirectory = resolveThroughSymlinks(this.directory);
    const relative = path.relative(resolvedDirectory, resolvedCandidate);
    return relative !== '' && !relative.startsWith(`..${path.sep}`) && relative !== '..' && !path.isAbsolute(relative);
  }

  /**
   * Deletes temp files whose writer process is gone (killed mid-write: they
   * were never published, so nothing refers to them) and resolves to their
   * names. Temp files of live processes, this one included, are left alone.
   */
  async removeAbandonedTemporaryFiles(): Promise<string[]> {
    if (this.#sessionIdProblem) throw this.#sessionIdProblem;
    let names: string[];
    try {
      names = await this.#fileSystem.readdir(this.directory);
    } catch (error) {
      if (isErrorWithCode(error, 'ENOENT', 'ENOTDIR')) return [];
      throw error;
    }
    // Listed through a linked folder, these would be someone else's files to delete.
    await this.#refuseLinkedDirectories();
    const removed: string[] = [];
    for (const name of names) {
      const writerPid = TEMPORARY_FILE_NAME.exec(name)?.[1];
      if (writerPid === undefined || isProcessAlive(Number(writerPid))) continue;
      await this.#fileSystem.unlink(path.join(this.directory, name)).catch(() => undefined);
      removed.push(name);
    }
    return removed;
  }

  /**
   * One write through the queue; a failure for want of file handles is
   * transient (other writes close theirs), so it is retried with backoff,
   * outside the queue, before it becomes the id's permanent inline fate.
   */
  async #writeRetryingShortages(toolUseId: string, finalPath: string, content: string): Promise<PersistedToolResult> {
    for (let retry = 0; ; retry += 1) {
      try {
        return await this.#writeLimit.run(() => this.#writeOnce(toolUseId, finalPath, content));
      } catch (error) {
        const delay = FILE_HANDLE_RETRY_DELAYS_MS[retry];
        const shortage =
          error instanceof PersistError && error.systemCode !== undefined && FILE_HANDLE_SHORTAGE_CODES.includes(error.systemCode);
        if (!shortage || delay === undefined) throw error;
        await new Promise((resolve) => setTimeout(resolve, delay));
      }
    }
  }

  async #writeOnce(toolUseId: string, finalPath: string, content: string): Promise<PersistedToolResult> {
    const fileSystem = this.#fileSystem;
    // The folders first: a result found through a linked folder is not one.
    try {
      await this.#ensureDirectories();
    } catch (error) {
      throw error instanceof ToolResultGuardError ? error : new PersistError(toolUseId, finalPath, error);
    }
    const existing = await this.#readIfExists(toolUseId, finalPath);
    if (existing !== undefined) return buildResult(finalPath, existing);

    const temporaryPath = path.join(
      this.directory,
      `.${toolUseId}.${process.pid}-${(temporaryFileCounter += 1)}-${randomBytes(4).toString('hex')}.tmp`,
    );
    let temporaryCreated = false;
    try {
      const handle = await fileSystem.open(temporaryPath, 'wx', FILE_MODE);
      temporaryCreated = true;
      await writePrivateFile(handle, content);
      const published = await this.#publish(temporaryPath, finalPath, content);
      if (!published) {
        // Another process published this id between our check and our link: its file wins.
        const winner = await this.#readIfExists(toolUseId, finalPath);
        return buildResult(finalPath, winner ?? content);
      }
      return buildResult(finalPath, content);
    } catch (error) {
      throw error instanceof ToolResultGuardError ? error : new PersistError(toolUseId, finalPath, error);
    } finally {
      if (temporaryCreated) await fileSystem.unlink(temporaryPath).catch(() => undefined);
    }
  }

  /** Publishes the temp file under its final name; false when the final name already exists. */
  async #publish(temporaryPath: string, finalPath: string, content: string): Promise<boolean> {
    try {
      await this.#fileSystem.link(temporaryPath, finalPath);
      return true;
    } catch (error) {
      if (isErrorWithCode(error, 'EEXIST')) return false;
      // Some file systems (FAT, some network mounts) have no hard links.
      if (!isErrorWithCode(error, 'EPERM', 'ENOTSUP', 'EOPNOTSUPP', 'ENOSYS', 'EXDEV', 'EMLINK')) throw error;
      return this.#publishByExclusiveCreate(finalPath, content);
    }
  }

  /**
   * Without hard links, the final name is created exclusively and written in
   * place. A rename would replace a file another process had just published,
   * and the two writers would each report their own content for one id; an
   * exclusive create fails instead, so the first content wins for everyone.
   */
  async #publishByExclusiveCreate(finalPath: string, content: string): Promise<boolean> {
    let handle: StoreFileHandle;
    try {
      handle = await this.#fileSystem.open(finalPath, 'wx', FILE_MODE);
    } catch (error) {
      if (isErrorWithCode(error, 'EEXIST')) return false;
      throw error;
    }
    try {
      await writePrivateFile(handle, content);
    } catch (error) {
      // The half-written file is ours (we created it): a partial result must not stay under the final name.
      await this.#fileSystem.unlink(finalPath).catch(() => undefined);
      throw error;
    }
    return true;
  }

  async #ensureDirectories(): Promise<void> {
    const sessionDirectory = path.dirname(this.directory);
    // The root is the harness's choice (it may be a link); the two folders below it are the store's own.
    await this.#fileSystem.mkdir(this.root, { recursive: true, mode: DIRECTORY_MODE });
    await this.#ensureOwnDirectory(sessionDirectory, 'session folder');
    await this.#ensureOwnDirectory(this.directory, 'tool-results folder');
  }

  /**
   * Creates `directory` (one level, so a link in its place is never followed
   * into) and sets 0700 outright: mkdir's mode is filtered by the umask and
   * ignored for a folder that already existed.
   */
  async #ensureOwnDirectory(directory: string, what: 'session folder' | 'tool-results folder'): Promise<void> {
    try {
      await this.#fileSystem.mkdir(directory, { recursive: false, mode: DIRECTORY_MODE });
    } catch (error) {
      if (!isErrorWithCode(error, 'EEXIST')) throw error;
    }
    await this.#tightenOwnDirectory(directory, what);
  }

  /** Both folders the store owns, checked (and kept 0700) without following a link. */
  async #refuseLinkedDirectories(): Promise<void> {
    await this.#tightenOwnDirectory(path.dirname(this.directory), 'session folder');
    await this.#tightenOwnDirectory(this.directory, 'tool-results folder');
  }

  /** Sets 0700 without following a link; a link in the store's own place is refused. */
  async #tightenOwnDirectory(directory: string, what: 'session folder' | 'tool-results folder'): Promise<void> {
    try {
      await this.#fileSystem.chmod(directory, DIRECTORY_MODE);
    } catch (error) {
      if (isErrorWithCode(error, 'ELOOP')) throw new StoreSymlinkError(directory, what);
      throw error;
    }
  }

  async #readIfExists(toolUseId: string, finalPath: string): Promise<string | undefined> {
    try {
      return await this.#fileSystem.readFile(finalPath, 'utf8');
    } catch (error) {
      if (isErrorWithCode(error, 'ENOENT', 'ENOTDIR')) return undefined;
      if (isErrorWithCode(error, 'ELOOP')) throw new StoreSymlinkError(finalPath, 'result file');
      throw new PersistError(toolUseId, finalPath, error);
    }
  }
}

/**
 * The first `PREVIEW_CHARS` characters, never ending in half a surrogate
 * pair, with every lone surrogate replaced by U+FFFD. The file holds the
 * content as UTF-8, which stores a lone surrogate as U+FFFD; a preview taken
 * from the original string would then differ from the one a later process
 * rebuilds from the file, and a resumed prompt would change.
 *
 * Like any slice, the preview keeps the whole content alive: a store that
 * caches it, or hands it to the budget (every replacement holds its
 * preview), should keep a copy instead, as `ToolResultStore` does.
 */
export function previewOf(content: string): string {
  // Content this short is its own preview: holding it holds nothing more.
  if (content.length <= PREVIEW_CHARS) return toWellFormed(content);
  const splitsPair = isHighSurrogate(content.charCodeAt(PREVIEW_CHARS - 1)) && isLowSurrogate(content.charCodeAt(PREVIEW_CHARS));
  return toWellFormed(content.slice(0, splitsPair ? PREVIEW_CHARS - 1 : PREVIEW_CHARS));
}

/** `previewOf(content).length`, without making the preview (the budget measures before it persists). */
export function previewLengthOf(content: string): number {
  if (content.length <= PREVIEW_CHARS) return content.length;
  const splitsPair = isHighSurrogate(content.charCodeAt(PREVIEW_CHARS - 1)) && isLowSurrogate(content.charCodeAt(PREVIEW_CHARS));
  return splitsPair ? PREVIEW_CHARS - 1 : PREVIEW_CHARS;
}

/**
 * `isWellFormed` and `toWellFormed` (ES2024: every Node this package
 * supports has them, this project's ES2023 lib does not declare them).
 * `toWellFormed` turns each lone surrogate into U+FFFD, as UTF-8 stores it.
 */
interface WellFormedText {
  isWellFormed(): boolean;
  toWellFormed(): string;
}

function toWellFormed(text: string): string {
  return (text as unknown as WellFormedText).toWellFormed();
}

function isWellFormed(text: string): boolean {
  return (text as unknown as WellFormedText).isWellFormed();
}

/**
 * A copy of `text` that references no other string. Slicing a concatenation
 * makes V8 flatten it into a new buffer first, so the result no longer points
 * into the string `text` was sliced from. (A Buffer round trip also works but
 * costs ten times as much.)
 */
function detachedCopy(text: string): string {
  return ` ${text}`.slice(1);
}

const isHighSurrogate = (code: number) => code >= 0xd800 && code <= 0xdbff;
const isLowSurrogate = (code: number) => code >= 0xdc00 && code <= 0xdfff;

/**
 * The persist result, with a preview copied out of the content: a slice would
 * keep the whole result alive in the store's cache of completed ids and in
 * every replacement built from it, megabytes the harness meant to move to disk.
 */
function buildResult(finalPath: string, content: string): PersistedToolResult {
  const preview = previewOf(content);
  return Object.freeze({
    path: finalPath,
    size: content.length,
    preview: (preview.length < content.length ? detachedCopy(preview) : preview) as PersistedPreview,
  });
}

/** Why `id` cannot name a file in the store, or undefined when it can. */
export function findIdProblem(idKind: IdKind, id: unknown): InvalidIdError | undefined {
  const reason = idProblemReason(id);
  return reason === undefined ? undefined : new InvalidIdError(idKind, id, reason);
}

function idProblemReason(id: unknown): string | undefined {
  if (typeof id !== 'string') return `it is ${id === null ? 'null' : typeof id}, not a string`;
  if (id.length === 0) return 'it is empty';
  if (id.includes('/')) return 'it contains "/"';
  if (id.includes('\\')) return 'it contains "\\"';
  if (id.includes('\0')) return 'it contains NUL';
  // A lone surrogate is written to the file system as U+FFFD, so two
  // different ids would share one file and read back each other's result.
  if (!isWellFormed(id)) return 'it contains a lone surrogate (ill-formed UTF-16)';
  // eslint-disable-next-line no-control-regex -- control characters are exactly what we reject
  if (/[\u0001-\u001f\u007f-\u009f]/u.test(id)) return 'it contains a control character';
  // Bidi controls make a listed file name read differently from the id (an id shown as "...txt" that is not).
  if (/[\u202a-\u202e\u2066-\u2069]/u.test(id)) return 'it contains a bidirectional control character';
  if (/^\.+$/u.test(id)) return 'it is made only of dots, a relative path component';
  if (Buffer.byteLength(id, 'utf8') > MAX_ID_BYTES) return `it is longer than ${MAX_ID_BYTES} bytes`;
  return undefined;
}

/** How many symbolic links one resolution follows before it gives up, as the OS does (ELOOP). */
const MAX_SYMLINK_HOPS = 40;

/**
 * Where the OS would take `candidate`: components are walked left to right,
 * a symbolic link is replaced by its target *before* a later ".." applies to
 * it (so "L/../x" is the parent of L's target, not x next to L), a dangling
 * link leads to where its target would be created, and once a component does
 * not exist the rest is appended as written.
 */
function resolveThroughSymlinks(candidate: string, hops = { count: 0 }): string {
  // Not path.resolve: it applies ".." textually, before the links are known.
  const absolute = path.isAbsolute(candidate) ? candidate : `${process.cwd()}${path.sep}${candidate}`;
  const { root } = path.parse(absolute);
  let current = root;
  let exists = true;
  for (const component of absolute.slice(root.length).split(path.sep === '\\' ? /[\\/]+/u : /\/+/u)) {
    if (component === '' || component === '.') continue;
    if (component === '..') {
      current = path.dirname(current);
      continue;
    }
    const next = path.join(current, component);
    current = next;
    if (!exists) continue;
    let isLink: boolean;
    try {
      isLink = lstatSync(next).isSymbolicLink();
    } catch {
      exists = false; // ENOENT, ENOTDIR, EACCES: the OS would go no further either
      continue;
    }
    if (!isLink) continue;
    hops.count += 1;
    if (hops.count > MAX_SYMLINK_HOPS) return next; // a loop: the OS refuses it, so it names no file in the store
    const target = readlinkSync(next);
    current = resolveThroughSymlinks(path.isAbsolute(target) ? target : `${path.dirname(next)}${path.sep}${target}`, hops);
  }
  return current;
}

function isProcessAlive(pid: number): boolean {
  if (pid === process.pid) return true;
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: it exists but belongs to someone else.
    return !isErrorWithCode(error, 'ESRCH');
  }
}

function isErrorWithCode(error: unknown, ...codes: string[]): boolean {
  return typeof error === 'object' && error !== null && 'code' in error && codes.includes(String(error.code));
}

/** Writes `content` to a freshly created file at 0600, durably, and closes it whatever happens. */
async function writePrivateFile(handle: StoreFileHandle, content: string): Promise<void> {
  try {
    // The mode given to open is filtered by the umask; set it outright.
    await handle.chmod(FILE_MODE);
    await handle.writeFile(content, 'utf8');
    await handle.datasync();
  } finally {
    await handle.close();
  }
}

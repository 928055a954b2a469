/**
 * API keys: `tk_live_` / `tk_test_` + 43 URL-safe random characters (32 random bytes). The server keeps
 * only SHA-256 hashes, from a keys file and/or raw keys given at start (hashed at once). Keys never
 * reach a log: the only thing logged about a key is its id, the first 12 hex digits of its hash.
 */
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import { appendFileSync, chmodSync, existsSync, readFileSync, statSync, watch, writeFileSync, type FSWatcher } from 'node:fs';
import { basename, dirname, resolve } from 'node:path';
import { API_KEY_PATTERN } from '../schemas/index';

export type KeyKind = 'live' | 'test';

export function generateKey(kind: KeyKind = 'live'): string {
  return `tk_${kind}_${randomBytes(32).toString('base64url')}`;
}

export function isWellFormedKey(key: string): boolean {
  return API_KEY_PATTERN.test(key);
}

/** Hex SHA-256 of the key. A fast hash is enough: keys are 256-bit random, so there is nothing to brute-force. */
export function hashKey(key: string): string {
  return createHash('sha256').update(key, 'utf8').digest('hex');
}

/** The loggable id of a key: the start of its hash. */
export function keyId(hash: string): string {
  return hash.slice(0, 12);
}

const HASH_LINE = /^sha256:([0-9a-f]{64})(?:\s+(.*))?$/;

export interface KeysFileEntry {
  hash: string;
  note: string;
}

/**
 * Parses a keys file: one `sha256:<64 hex digits> [note]` per line; blank lines and `#` comments are
 * ignored. Bad lines are reported (by line number only) and skipped.
 */
export function parseKeysFile(text: string): { entries: KeysFileEntry[]; badLines: number[] } {
  const entries: KeysFileEntry[] = [];
  const badLines: number[] = [];
  text.split(/\r?\n/).forEach((line, index) => {
    const trimmed = line.trim();
    if (!trimmed || trimmed.startsWith('#')) return;
    const match = HASH_LINE.exec(trimmed);
    if (match) entries.push({ hash: match[1]!, note: (match[2] ?? '').trim() });
    else badLines.push(index + 1);
  });
  return { entries, badLines };
}

export function formatKeysFileLine(hash: string, note: string): string {
  return `sha256:${hash}${note ? `  ${note.replace(/[\r\n]+/g, ' ')}` : ''}\n`;
}

const KEYS_FILE_HEADER =
  '# Prompt Optimizer API key hashes: one "sha256:<hex> [note]" per line. Delete a line to revoke that key;\n' +
  '# a running server reloads this file when it changes or on SIGHUP.\n';

/**
 * The keys file's permission bits as octal text ("0644") when group or others have any access, else null
 * (also on Windows, where the bits mean nothing, and when the file cannot be stat'ed).
 */
export function looseKeysFileMode(file: string): string | null {
  if (process.platform === 'win32') return null;
  let mode: number;
  try {
    mode = statSync(file).mode & 0o777;
  } catch {
    return null;
  }
  return mode & 0o077 ? `0${mode.toString(8).padStart(3, '0')}` : null;
}

/**
 * Creates a key, appends its hash to the keys file (created with mode 0600 if missing) and returns the key.
 * An existing file that group or others can access is set to 0600 first; `fixedMode` is the mode it had.
 */
export function createKeyInFile(file: string, kind: KeyKind, note: string, now: Date = new Date()): { key: string; hash: string; fixedMode: string | null } {
  const key = generateKey(kind);
  const hash = hashKey(key);
  const line = formatKeysFileLine(hash, [`${kind}`, `created=${now.toISOString()}`, note].filter(Boolean).join(' '));
  let fixedMode: string | null = null;
  if (existsSync(file)) {
    fixedMode = looseKeysFileMode(file);
    if (fixedMode) chmodSync(file, 0o600);
    appendFileSync(file, line);
  } else writeFileSync(file, KEYS_FILE_HEADER + line, { mode: 0o600 });
  return { key, hash, fixedMode };
}

/** Removes the lines whose hash starts with `prefix` (at least 8 hex digits) or is the hash of `key`. Returns how many. */
export function revokeInFile(file: string, match: { prefix?: string; key?: string }): number {
  const target = match.key !== undefined ? hashKey(match.key) : match.prefix?.replace(/^sha256:/, '').toLowerCase();
  if (!target || (match.key === undefined && !/^[0-9a-f]{8,64}$/.test(target))) throw new Error('Give a key id of at least 8 hex digits, or --key.');
  const lines = readFileSync(file, 'utf8').split(/(?<=\n)/);
  let removed = 0;
  const kept = lines.filter((line) => {
    const hit = HASH_LINE.exec(line.trim());
    if (hit && hit[1]!.startsWith(target)) {
      removed++;
      return false;
    }
    return true;
  });
  if (removed) writeFileSync(file, kept.join(''));
  return removed;
}

export interface KeyStoreLog {
  info(object: object, message: string): void;
  warn(object: object, message: string): void;
}

const silentLog: KeyStoreLog = { info() {}, warn() {} };

/** The set of accepted key hashes. `verify` compares in constant time against every hash. */
export class KeyStore {
  private hashes: Buffer[] = [];
  private readonly fixed: Buffer[];
  private watcher: FSWatcher | undefined;
  private debounce: NodeJS.Timeout | undefined;
  private log: KeyStoreLog = silentLog;
  /** Warnings from before a log was attached (the first load), replayed by `setLog`. */
  private early: [object, string][] = [];

  constructor(
    private readonly keysFile: string | undefined,
    extraKeys: readonly string[] = [],
  ) {
    for (const key of extraKeys) if (!isWellFormedKey(key)) throw new Error('A configured API key is malformed: it must be tk_live_ or tk_test_ followed by at least 32 URL-safe characters.');
    this.fixed = extraKeys.map((key) => Buffer.from(hashKey(key), 'hex'));
    this.load();
  }

  setLog(log: KeyStoreLog): void {
    this.log = log;
    for (const [object, message] of this.early) log.warn(object, message);
    this.early = [];
  }

  private warn(object: object, message: string): void {
    if (this.log === silentLog) this.early.push([object, message]);
    else this.log.warn(object, message);
  }

  get size(): number {
    return this.hashes.length;
  }

  /** Rereads the keys file. A missing or unreadable file means no keys from the file (revocation must fail closed). */
  reload(): number {
    this.load();
    this.log.info({ keys: this.hashes.length }, 'keys reloaded');
    return this.hashes.length;
  }

  private load(): void {
    const fromFile: Buffer[] = [];
    if (this.keysFile) {
      let text = '';
      try {
        text = readFileSync(this.keysFile, 'utf8');
      } catch (error) {
        this.warn({ file: this.keysFile, code: (error as NodeJS.ErrnoException).code }, 'keys file unreadable; no keys loaded from it');
      }
      const mode = text ? looseKeysFileMode(this.keysFile) : null;
      if (mode) this.warn({ file: this.keysFile, mode }, `keys file is accessible to other users; run "chmod 600" on it (keys create does)`);
      const { entries, badLines } = parseKeysFile(text);
      if (badLines.length) this.warn({ file: this.keysFile, badLines }, 'keys file lines ignored');
      for (const entry of entries) fromFile.push(Buffer.from(entry.hash, 'hex'));
    }
    this.hashes = [...this.fixed, ...fromFile];
  }

  /** The key's hash if it is accepted, else null. Every stored hash is compared, with `timingSafeEqual`. */
  verify(key: string): string | null {
    const digest = createHash('sha256').update(key, 'utf8').digest();
    let found: Buffer | null = null;
    for (const hash of this.hashes) if (timingSafeEqual(hash, digest) && !found) found = hash;
    return found ? found.toString('hex') : null;
  }

  /** Reloads when the keys file changes. Watches the directory, so editors' replace-by-rename is seen too. */
  watch(): void {
    if (!this.keysFile || this.watcher) return;
    const file = resolve(this.keysFile);
    const name = basename(file);
    try {
      this.watcher = watch(dirname(file), { persistent: false }, (_event, changed) => {
        if (changed !== null && changed.toString() !== name) return;
        clearTimeout(this.debounce);
        this.debounce = setTimeout(() => this.reload(), 50);
      });
      this.watcher.on('error', (error) => this.log.warn({ code: (error as NodeJS.ErrnoException).code }, 'keys file watch failed; use SIGHUP to reload'));
    } catch (error) {
      this.log.warn({ code: (error as NodeJS.ErrnoException).code }, 'keys file watch failed; use SIGHUP to reload');
    }
  }

  close(): void {
    clearTimeout(this.debounce);
    this.watcher?.close();
    this.watcher = undefined;
  }
}

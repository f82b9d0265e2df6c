import { promises as fs } from 'node:fs';
import path from 'node:path';
import { z } from 'zod';
import type { SecretStore } from '../service/types.js';
import { own } from '../../shared/own.js';

/**
 * API keys encrypted by the OS keychain (Electron safeStorage: Keychain on macOS,
 * DPAPI on Windows, libsecret/kwallet on Linux) in $DESKPILOT_HOME/secrets.json.
 * Only ciphertext touches the disk; when the OS offers no real encryption (Linux
 * without a keyring falls back to "basic_text") storing is refused, and the person is
 * told to use the environment variable instead.
 */

/** The part of Electron's safeStorage this needs (so it can be tested without Electron). */
export interface Encryptor {
  isEncryptionAvailable(): boolean;
  encryptString(plain: string): Buffer;
  decryptString(cipher: Buffer): string;
  /** Linux only. */
  getSelectedStorageBackend?(): string;
}

const FileSchema = z.object({ version: z.literal(1), entries: z.record(z.string(), z.string()) }).strict();
type SecretsFile = z.infer<typeof FileSchema>;

const NAME = /^[A-Za-z_][A-Za-z0-9_]{0,127}$/;

export class SecretStoreUnavailable extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'SecretStoreUnavailable';
  }
}

export function encryptionProblem(enc: Encryptor, platform: NodeJS.Platform = process.platform): string | null {
  if (!enc.isEncryptionAvailable()) return 'the operating system offers no encryption for stored keys';
  if (platform === 'linux' && enc.getSelectedStorageBackend?.() === 'basic_text') {
    return 'no keyring (GNOME Keyring / KWallet) is running, so keys could only be stored obfuscated, not encrypted';
  }
  return null;
}

export class SafeStorageSecretStore implements SecretStore {
  private chain: Promise<unknown> = Promise.resolve();

  constructor(
    private readonly file: string,
    private readonly enc: Encryptor,
    private readonly platform: NodeJS.Platform = process.platform,
  ) {}

  private async read(): Promise<SecretsFile> {
    try {
      return FileSchema.parse(JSON.parse(await fs.readFile(this.file, 'utf8')));
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') return { version: 1, entries: {} };
      throw new Error(`unreadable secrets file ${this.file}: ${err instanceof Error ? err.message : String(err)}`, { cause: err });
    }
  }

  private async write(data: SecretsFile): Promise<void> {
    await fs.mkdir(path.dirname(this.file), { recursive: true });
    const tmp = `${this.file}.${process.pid}.tmp`;
    await fs.writeFile(tmp, `${JSON.stringify(data, null, 2)}\n`, { mode: 0o600 });
    await fs.rename(tmp, this.file);
  }

  /** Serialise writers so two saves never lose each other's keys. */
  private locked<T>(work: () => Promise<T>): Promise<T> {
    const next = this.chain.then(work, work);
    this.chain = next.catch(() => {});
    return next;
  }

  storeProblem(): string | null {
    return encryptionProblem(this.enc, this.platform);
  }

  async get(name: string): Promise<string | undefined> {
    const data = await this.read();
    const cipher = own(data.entries, name);
    if (cipher === undefined || this.enc.isEncryptionAvailable() === false) return undefined;
    try {
      return this.enc.decryptString(Buffer.from(cipher, 'base64'));
    } catch {
      return undefined;
    }
  }

  async set(name: string, value: string): Promise<void> {
    if (!NAME.test(name)) throw new Error(`not a key name: ${name}`);
    const problem = encryptionProblem(this.enc, this.platform);
    if (problem) throw new SecretStoreUnavailable(`cannot store ${name}: ${problem}; set the ${name} environment variable instead`);
    const cipher = this.enc.encryptString(value).toString('base64');
    await this.locked(async () => {
      const data = await this.read();
      data.entries[name] = cipher;
      await this.write(data);
    });
  }

  async delete(name: string): Promise<void> {
    await this.locked(async () => {
      const data = await this.read();
      if (!(name in data.entries)) return;
      delete data.entries[name];
      await this.write(data);
    });
  }

  async has(name: string): Promise<boolean> {
    return Object.hasOwn((await this.read()).entries, name);
  }
}

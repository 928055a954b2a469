/**
 * The remote engine's API key, kept only in SecretStorage under one constant key. Never logged, never
 * written to settings, never put into a message.
 */
import * as vscode from 'vscode';
import { API_KEY_SECRET } from './constants';

export class ApiKeyStore implements vscode.Disposable {
  private readonly emitter = new vscode.EventEmitter<void>();
  private readonly listener: vscode.Disposable;
  /** Fires when the key was set or cleared, in this window or another one. */
  readonly onDidChange = this.emitter.event;

  constructor(
    private readonly secrets: vscode.SecretStorage,
    log: vscode.LogOutputChannel,
  ) {
    this.listener = secrets.onDidChange((event) => {
      if (event.key !== API_KEY_SECRET) return;
      log.info('API key changed.');
      this.emitter.fire();
    });
  }

  async get(): Promise<string | undefined> {
    const key = await this.secrets.get(API_KEY_SECRET);
    return key && key.trim() !== '' ? key : undefined;
  }

  async set(key: string): Promise<void> {
    await this.secrets.store(API_KEY_SECRET, key.trim());
  }

  async clear(): Promise<void> {
    await this.secrets.delete(API_KEY_SECRET);
  }

  dispose(): void {
    this.listener.dispose();
    this.emitter.dispose();
  }
}

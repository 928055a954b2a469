/**
 * The one place settings are read. Holds the current `ExtensionConfig`, re-reads it when something
 * under `promptOptimizer.` changes and tells listeners which areas changed. Changes apply without a
 * reload.
 */
import * as vscode from 'vscode';
import { CONFIG_SECTION } from './constants';
import { changedAreas, readSettings, type ExtensionConfig, type SettingKey } from './logic/settings';

export interface ConfigChange {
  readonly config: ExtensionConfig;
  readonly statusBar: boolean;
  readonly engine: boolean;
}

export class ConfigService implements vscode.Disposable {
  private current: ExtensionConfig;
  private readonly emitter = new vscode.EventEmitter<ConfigChange>();
  private readonly listener: vscode.Disposable;
  /** Fires after the settings were re-read. */
  readonly onDidChange = this.emitter.event;

  constructor(private readonly log: vscode.LogOutputChannel) {
    this.current = this.read();
    this.listener = vscode.workspace.onDidChangeConfiguration((event) => {
      const areas = changedAreas((key) => event.affectsConfiguration(`${CONFIG_SECTION}.${key}`));
      if (!areas.any) return;
      this.current = this.read();
      this.log.info(`Settings changed (engine ${this.current.engine}, model ${this.current.model}, status bar ${this.current.statusBar.enabled ? 'on' : 'off'}).`);
      this.emitter.fire({ config: this.current, statusBar: areas.statusBar, engine: areas.engine });
    });
  }

  get config(): ExtensionConfig {
    return this.current;
  }

  /** Writes one setting in the user settings (used by the model picker). */
  async update(key: SettingKey, value: unknown): Promise<void> {
    await vscode.workspace.getConfiguration(CONFIG_SECTION).update(key, value, vscode.ConfigurationTarget.Global);
  }

  private read(): ExtensionConfig {
    const section = vscode.workspace.getConfiguration(CONFIG_SECTION);
    const { config, problems } = readSettings((key) => section.get<unknown>(key));
    for (const problem of problems) this.log.warn(problem);
    return config;
  }

  dispose(): void {
    this.listener.dispose();
    this.emitter.dispose();
  }
}

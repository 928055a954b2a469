// Starts code-server (VS Code server + workbench, installed by scripts/setup-vscode-test.sh) on
// 127.0.0.1 with a fresh user-data dir, extensions dir and XDG folders under `runDir`.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { freePort, startGroup, waitForHttp } from './processes.mjs';

/** Seeded user settings: no welcome page/walkthrough stealing focus, nothing phoning home. */
export const SEEDED_SETTINGS = {
  'workbench.startupEditor': 'none',
  'workbench.welcomePage.walkthroughs.openOnInstall': false,
  'workbench.tips.enabled': false,
  'telemetry.telemetryLevel': 'off',
  'update.mode': 'none',
  'extensions.autoUpdate': false,
  'extensions.autoCheckUpdates': false,
  'extensions.ignoreRecommendations': true,
  'security.workspace.trust.enabled': false,
  'git.enabled': false,
  'git.autoRepositoryDetection': false,
  'files.hotExit': 'off',
  'window.restoreWindows': 'none',
  'workbench.enableExperiments': false,
  'chat.commandCenter.enabled': false,
  'chat.disableAIFeatures': true,
};

export function codeServerEntry(cacheDir) {
  return join(cacheDir, 'node_modules', 'code-server', 'out', 'node', 'entry.js');
}

/**
 * @param {object} o
 * @param {string} o.cacheDir   the code-server install (…/.vscode-test/code-server)
 * @param {string} o.runDir     a fresh folder for this instance (user data, extensions, XDG, log)
 * @param {string} o.folder     the workspace folder to open
 * @param {Record<string,string>} o.env  extra environment for the server and so the extension host
 * @param {string} o.name       label for messages and the log file
 * @param {object} [o.settings] extra user settings, merged over SEEDED_SETTINGS
 * @param {string} [o.vsix]     a .vsix to install into the fresh extensions dir before the start
 */
export async function startCodeServer({ cacheDir, runDir, folder, env, name = 'code-server', settings = {}, vsix }) {
  const entry = codeServerEntry(cacheDir);
  if (!existsSync(entry)) throw new Error(`code-server not installed at ${entry}; run: bash scripts/setup-vscode-test.sh`);
  const userDataDir = join(runDir, 'user-data');
  const extensionsDir = join(runDir, 'extensions');
  const xdg = join(runDir, 'xdg');
  for (const dir of [join(userDataDir, 'User'), extensionsDir, join(xdg, 'config'), join(xdg, 'data'), join(xdg, 'cache')]) {
    mkdirSync(dir, { recursive: true });
  }
  writeFileSync(join(userDataDir, 'User', 'settings.json'), JSON.stringify({ ...SEEDED_SETTINGS, ...settings }, null, 2));
  const port = await freePort();
  const config = join(runDir, 'config.yaml');
  writeFileSync(config, `bind-addr: 127.0.0.1:${port}\nauth: none\ncert: false\n`);
  const logFile = join(runDir, `${name}.log`);
  const args = [
    entry,
    '--bind-addr', `127.0.0.1:${port}`,
    '--auth', 'none',
    '--config', config,
    '--user-data-dir', userDataDir,
    '--extensions-dir', extensionsDir,
    '--disable-telemetry',
    '--disable-update-check',
    '--disable-workspace-trust',
    '--disable-getting-started-override',
    '--ignore-last-opened',
    folder,
  ];
  const childEnv = {
    ...process.env,
    XDG_CONFIG_HOME: join(xdg, 'config'),
    XDG_DATA_HOME: join(xdg, 'data'),
    XDG_CACHE_HOME: join(xdg, 'cache'),
    ...env,
  };
  // Variables of an outer VS Code / code-server would confuse the one we start.
  for (const key of Object.keys(childEnv)) {
    if (/^(VSCODE_|ELECTRON_RUN_AS_NODE$|CODE_SERVER_)/.test(key)) delete childEnv[key];
  }
  delete childEnv.PASSWORD;
  delete childEnv.HASHED_PASSWORD;
  delete childEnv.PORT;
  if (vsix) {
    const installed = spawnSync(process.execPath, [entry, '--install-extension', vsix, '--force', '--extensions-dir', extensionsDir, '--user-data-dir', userDataDir], {
      env: childEnv,
      cwd: runDir,
      encoding: 'utf8',
      timeout: 120000,
    });
    writeFileSync(join(runDir, `${name}-install.log`), `${installed.stdout ?? ''}${installed.stderr ?? ''}`);
    if (installed.status !== 0) {
      throw new Error(`installing ${vsix} failed (exit ${installed.status ?? installed.signal}): ${(installed.stdout + installed.stderr).trim().split('\n').slice(-5).join(' | ')}`);
    }
  }
  const started = Date.now();
  const server = startGroup(process.execPath, args, { env: childEnv, cwd: runDir, logFile });
  await waitForHttp(`http://127.0.0.1:${port}/healthz`, {
    what: `${name} (log: ${logFile})`,
    exited: server.exited,
    timeoutMs: 60000,
    ok: (status) => status === 200,
  });
  const base = `http://127.0.0.1:${port}`;
  return {
    ...server,
    port,
    base,
    logFile,
    readyMs: Date.now() - started,
    /** Workbench URL opening `folder`, with the test payload (extension under development, tests). */
    workbenchUrl({ extensionDevelopmentPath, extensionTestsPath } = {}) {
      const remote = (path) => `vscode-remote://127.0.0.1:${port}${path}`;
      const payload = [];
      if (extensionDevelopmentPath) payload.push(['extensionDevelopmentPath', remote(extensionDevelopmentPath)]);
      if (extensionTestsPath) payload.push(['extensionTestsPath', remote(extensionTestsPath)]);
      const query = [`folder=${encodeURIComponent(folder)}`];
      if (payload.length) query.push(`payload=${encodeURIComponent(JSON.stringify(payload))}`);
      return `${base}/?${query.join('&')}`;
    },
  };
}

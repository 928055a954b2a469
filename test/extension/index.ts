/**
 * `extensionTestsPath` module: the real extension host (code-server harness, or @vscode/test-electron)
 * calls `run()`. Mocha is bundled into this file; the suites are imported only after mocha has set up
 * its globals. When PO_TEST_RESULTS is set, the counts and failures are written there as JSON
 * `{passed, failed, skipped, failures: [{title, error}]}`. Rejects when any test failed.
 */
import { writeFileSync } from 'node:fs';
import Mocha from 'mocha';

export interface SuiteResults {
  passed: number;
  failed: number;
  skipped: number;
  failures: { title: string; error: string }[];
}

export async function run(): Promise<void> {
  const mocha = new Mocha({ ui: 'bdd', timeout: 60_000, color: false, reporter: 'spec' });
  const grep = process.env.PO_TEST_GREP;
  if (grep) mocha.grep(grep);
  mocha.suite.emit('pre-require', globalThis, 'test/extension', mocha);
  await import('./suites');

  const results: SuiteResults = { passed: 0, failed: 0, skipped: 0, failures: [] };
  const write = (): void => {
    const file = process.env.PO_TEST_RESULTS;
    if (file) writeFileSync(file, JSON.stringify(results, null, 2));
  };
  await new Promise<void>((resolve, reject) => {
    const runner = mocha.run((failures) => {
      write();
      console.log(`extension suites: ${results.passed} passed, ${results.failed} failed, ${results.skipped} skipped`);
      if (failures > 0) reject(new Error(`${failures} extension test(s) failed.`));
      else resolve();
    });
    runner.on('pass', () => {
      results.passed++;
    });
    runner.on('pending', () => {
      results.skipped++;
    });
    runner.on('fail', (test, error: unknown) => {
      results.failed++;
      const text = error instanceof Error ? (error.stack ?? error.message) : String(error);
      results.failures.push({ title: test.fullTitle(), error: text });
    });
  });
}

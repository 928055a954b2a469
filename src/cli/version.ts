import packageJson from '../../package.json';

/** The package version, bundled into `dist/cli.js` at build time. */
export const VERSION: string = packageJson.version;

import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);
const pkg = require('../package.json') as { version: string; engines?: { node?: string } };
/** The package version, read once from package.json. */
export const VERSION: string = pkg.version;
/** The Node.js versions package.json's `engines` accepts (`>=20.20`). */
export const NODE_ENGINE: string = pkg.engines?.node ?? '';

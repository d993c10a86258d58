/** The `svc` command line (bin/svc.js runs `main`). */
export { buildProgram, main } from './main.js';

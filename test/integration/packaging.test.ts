/**
 * What `npm pack` ships (and so what `npm i -g ./svc-*.tgz` installs): the CLI entry, the compiled
 * daemon, the OpenAPI documents, the example source module, the config reference and contrib/
 * (systemd unit), never the sources, tests, benches or source maps. Needs `npm run build` first
 * (the file list is read without running `prepare`, so a test run never rebuilds dist/).
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT } from '../helpers/daemon.js';

describe('the npm package', () => {
  it('holds what the installed `svc` runs and nothing of the sources', () => {
    const out = execFileSync('npm', ['pack', '--dry-run', '--json', '--ignore-scripts'], { cwd: ROOT, encoding: 'utf8' });
    const files = (JSON.parse(out) as Array<{ files: Array<{ path: string }> }>)[0]!.files.map((f) => f.path);
    for (const needed of ['bin/svc.js', 'dist/cli/main.js', 'dist/daemon.js', 'dist/inbox/streams/jetstream/backend.js', 'dist/console/app.js', 'dist/console/app.css', 'openapi/control-plane.json', 'openapi/inbox.json', 'config.example.toml', 'contrib/systemd/svc.service', 'README.md', 'docs/getting-started.md', 'docs/security.md', 'package.json']) {
      expect(files, needed).toContain(needed);
    }
    expect(files.filter((f) => /^(src|test|bench|node_modules)\//.test(f) || f.endsWith('.map') || f.endsWith('.ts'))).toEqual([]);
    // Everything bin/svc.js imports at run time is in dist/.
    const entry = fs.readFileSync(path.join(ROOT, 'bin', 'svc.js'), 'utf8');
    for (const [, rel] of entry.matchAll(/from '\.\.\/(dist\/[^']+)'/g)) expect(files).toContain(rel);
  });

  it('the systemd user unit starts `svc serve` and stops it with SIGTERM; the image runs svc as a user with its home as a volume', () => {
    const unit = fs.readFileSync(path.join(ROOT, 'contrib', 'systemd', 'svc.service'), 'utf8');
    expect(unit).toMatch(/^ExecStart=.*\bsvc serve\b/m);
    expect(unit).toMatch(/^KillSignal=SIGTERM$/m);
    expect(unit).toMatch(/^WantedBy=default\.target$/m);
    const docker = fs.readFileSync(path.join(ROOT, 'Dockerfile'), 'utf8');
    expect(docker).toMatch(/^USER svc$/m);
    expect(docker).toMatch(/^VOLUME \/home\/svc\/\.svc$/m);
    expect(docker).toMatch(/^ENTRYPOINT \["svc"\]$/m);
  });
});

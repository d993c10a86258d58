/**
 * search_files by ripgrep: `rg --json`, spawned without a shell (the pattern and the glob are
 * arguments, never parsed by anything else), in the directory searched, with no configuration
 * file of the user's (`--no-config`) and ripgrep's own ignore files off where the JS walk has no
 * counterpart (`.ignore`, `.git/info/exclude`, the global excludes), so both engines skip the same
 * files: hidden files are searched, `.git` is not, symlinks are not followed, files over
 * max_file_bytes are skipped. The JSON stream is read line by line and the process is killed as
 * soon as the collector is full, the time is up or the run is aborted.
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { lineText, type MatchCollector, type SearchMatch, type SearchSpec } from './search.js';

/** Where `rg` is on PATH, or null (looked up once per process). */
let found: string | null | undefined;
export function ripgrepOnPath(): string | null {
  if (found !== undefined) return found;
  found = null;
  for (const dir of (process.env.PATH ?? '').split(path.delimiter)) {
    if (!dir) continue;
    const candidate = path.join(dir, 'rg');
    try {
      fs.accessSync(candidate, fs.constants.X_OK);
      if (fs.statSync(candidate).isFile()) return (found = candidate);
    } catch {
      // not here
    }
  }
  return found;
}

interface RgText {
  text?: string;
  bytes?: string;
}

interface RgLine {
  type: string;
  data: { path?: RgText; lines?: RgText; line_number?: number };
}

const textOf = (t: RgText | undefined): string => (t?.text ?? (t?.bytes !== undefined ? Buffer.from(t.bytes, 'base64').toString('utf8') : ''));

/**
 * Search with ripgrep into `collector`. 'unsupported': ripgrep refused the pattern (its regex
 * syntax differs from JS's) before finding anything; the caller uses the JS engine.
 */
export function searchRg(rg: string, spec: SearchSpec, relOf: (fromCwd: string) => string, collector: MatchCollector): Promise<'done' | 'unsupported'> {
  const cwd = spec.startIsFile ? path.dirname(spec.start) : spec.start;
  const args = ['--json', '--no-config', '--hidden', '--no-require-git', '--no-ignore-dot', '--no-ignore-exclude', '--no-ignore-global'];
  args.push('--max-filesize', String(spec.maxFileBytes), '--glob', '!.git');
  if (spec.includeIgnored) args.push('--no-ignore');
  if (spec.caseInsensitive) args.push('--ignore-case');
  if (spec.contextLines > 0) args.push('--context', String(spec.contextLines));
  // `--flag=value`: a value starting with "-" stays a value.
  if (spec.glob) args.push(`--glob=${spec.glob}`);
  args.push(`--regexp=${spec.pattern}`, '--', spec.startIsFile ? `./${path.basename(spec.start)}` : '.');

  return new Promise((resolve, reject) => {
    const child = spawn(rg, args, { cwd, stdio: ['ignore', 'pipe', 'pipe'] });
    const context = new ContextWindow(spec.contextLines, collector);
    let buffered = '';
    let skipping = false;
    let stderr = '';
    let settled = false;
    const maxLine = 4 * spec.maxFileBytes + 65536;
    const kill = () => {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    };
    const timer = setTimeout(() => {
      collector.stop('time');
      kill();
    }, Math.max(0, spec.deadline - performance.now()));
    const onAbort = () => {
      collector.stop('aborted');
      kill();
    };
    spec.signal.addEventListener('abort', onAbort, { once: true });
    if (spec.signal.aborted) onAbort();

    const onLine = (line: string) => {
      if (collector.full) return;
      let msg: RgLine;
      try {
        msg = JSON.parse(line) as RgLine;
      } catch {
        return;
      }
      if (msg.type === 'begin' || msg.type === 'end') return context.reset();
      if (msg.type !== 'match' && msg.type !== 'context') return;
      const file = relOf(textOf(msg.data.path).replace(/^\.\//, ''));
      const n = msg.data.line_number ?? 0;
      if (!context.line(file, n, lineText(textOf(msg.data.lines)), msg.type === 'match')) kill();
    };
    child.stdout.setEncoding('utf8');
    child.stdout.on('data', (chunk: string) => {
      let from = 0;
      for (let nl = chunk.indexOf('\n'); nl !== -1; nl = chunk.indexOf('\n', from)) {
        if (!skipping) onLine(buffered + chunk.slice(from, nl));
        buffered = '';
        skipping = false;
        from = nl + 1;
      }
      if (!skipping) buffered += chunk.slice(from);
      // A JSON line this long is not a line of a file rg may search: drop it.
      if (buffered.length > maxLine) {
        buffered = '';
        skipping = true;
      }
    });
    child.stderr.setEncoding('utf8');
    child.stderr.on('data', (chunk: string) => {
      if (stderr.length < 4096) stderr += chunk;
    });
    const finish = (outcome: 'done' | 'unsupported' | Error) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      spec.signal.removeEventListener('abort', onAbort);
      if (outcome instanceof Error) reject(outcome);
      else resolve(outcome);
    };
    child.on('error', (err) => finish(err));
    child.on('close', (code) => {
      if (buffered && !skipping) onLine(buffered);
      // 2: an error; with nothing found and a complaint about the pattern, JS may still read it.
      const refused = code === 2 && collector.matches.length === 0 && /regex|literal|not allowed/i.test(stderr);
      finish(refused ? 'unsupported' : 'done');
    });
  });
}

/**
 * Context lines around matches as ripgrep reports them, in order per file: a match takes the
 * lines before it from a short window, and the lines after it as they arrive.
 */
class ContextWindow {
  private recent: Array<{ n: number; text: string }> = [];
  private open: SearchMatch[] = [];
  private file = '';

  constructor(
    private readonly size: number,
    private readonly collector: MatchCollector,
  ) {}

  reset(): void {
    this.recent = [];
    this.open = [];
  }

  /** One reported line; false once the collector is full. */
  line(file: string, n: number, text: string, isMatch: boolean): boolean {
    if (file !== this.file) {
      this.reset();
      this.file = file;
    }
    if (this.size > 0) {
      for (const m of this.open) if (n > m.line && n <= m.line + this.size) this.collector.addAfter(m, text);
      this.open = this.open.filter((m) => n < m.line + this.size);
    }
    if (isMatch) {
      const m: SearchMatch = { path: file, line: n, text };
      if (this.size > 0) m.before = this.recent.filter((r) => r.n >= n - this.size && r.n < n).map((r) => r.text);
      if (!this.collector.add(m)) return false;
      if (this.size > 0) this.open.push(m);
    }
    if (this.size > 0) {
      this.recent.push({ n, text });
      if (this.recent.length > this.size) this.recent.shift();
    }
    return true;
  }
}

/**
 * The documentation's links resolve: every relative link and #anchor in README.md, docs/ and the
 * folder READMEs under src/ names a file that exists and, for an anchor, a heading of that file
 * (slugged as GitHub does). Sections are cited by link, not by a quoted name; the repository
 * paths the docs name exist; and docs/configuration.md names every key of config.example.toml.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';

const ROOT = path.resolve(import.meta.dirname, '..', '..');

/** Markdown files below `dir` (recursively), skipping node_modules. */
function markdownFiles(dir: string): string[] {
  if (!fs.existsSync(dir)) return [];
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) return e.name === 'node_modules' ? [] : markdownFiles(p);
    return e.name.endsWith('.md') ? [p] : [];
  });
}

/** The documents whose links are checked. */
function documents(root: string): string[] {
  return [path.join(root, 'README.md'), ...markdownFiles(path.join(root, 'docs')), ...markdownFiles(path.join(root, 'src')).filter((f) => path.basename(f) === 'README.md')];
}

/** Each line of the markdown, or null for the lines of fenced code blocks (fences included). */
function outsideFences(markdown: string): Array<string | null> {
  let fence: string | null = null;
  return markdown.split('\n').map((line) => {
    const m = /^\s*(```|~~~)/.exec(line);
    if (m) {
      if (fence === null) fence = m[1]!;
      else if (m[1] === fence) fence = null;
      return null;
    }
    return fence === null ? line : null;
  });
}

/** The text outside fenced code blocks, with inline code spans blanked (their brackets are not links). */
function prose(markdown: string): string[] {
  return outsideFences(markdown).map((line) => (line === null ? '' : line.replace(/(`+)[\s\S]*?\1/g, (s) => ' '.repeat(s.length))));
}

/** GitHub's anchor for a heading: its text as rendered, lower-cased, punctuation dropped, spaces as hyphens. */
function slug(heading: string): string {
  const text = heading
    .replace(/!?\[([^\]]*)\]\([^)]*\)/g, '$1') // links and images: their text
    .replace(/`([^`]*)`/g, '$1') // code spans: their content
    .replace(/(\*\*|__|\*)(.*?)\1/g, '$2') // emphasis
    .replace(/<[^>]+>/g, ''); // inline HTML
  return text
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{M}\p{N}\p{Pc} -]/gu, '')
    .replace(/ /g, '-');
}

/** Every anchor of a markdown file, duplicates numbered as GitHub numbers them (`x`, `x-1`, …). */
function anchors(markdown: string): Set<string> {
  const seen = new Map<string, number>();
  const out = new Set<string>();
  for (const line of outsideFences(markdown)) {
    const h = line === null ? null : /^#{1,6}\s+(.*?)\s*#*\s*$/.exec(line);
    if (!h) continue;
    const base = slug(h[1]!);
    const n = seen.get(base) ?? 0;
    seen.set(base, n + 1);
    out.add(n === 0 ? base : `${base}-${n}`);
  }
  return out;
}

/** `file:line: target (why)` for every relative link of `files` that does not resolve. */
function brokenLinks(files: string[], root: string): string[] {
  const anchorCache = new Map<string, Set<string>>();
  const anchorsOf = (file: string) => {
    let a = anchorCache.get(file);
    if (!a) anchorCache.set(file, (a = anchors(fs.readFileSync(file, 'utf8'))));
    return a;
  };
  const broken: string[] = [];
  for (const file of files) {
    prose(fs.readFileSync(file, 'utf8')).forEach((line, i) => {
      for (const m of line.matchAll(/!?\[[^\]]*\]\(\s*<?([^)\s>]*)>?(?:\s+"[^"]*")?\s*\)/g)) {
        const target = m[1]!;
        if (target === '' || /^[a-z][a-z0-9+.-]*:/i.test(target)) continue; // external (http:, mailto:, …)
        const where = `${path.relative(root, file)}:${i + 1}: ${target}`;
        const [rawPath, anchor] = target.split('#', 2) as [string, string | undefined];
        const linked = rawPath === '' ? file : path.resolve(path.dirname(file), decodeURIComponent(rawPath));
        if (!fs.existsSync(linked)) {
          broken.push(`${where} (no such file)`);
          continue;
        }
        if (anchor === undefined) continue;
        if (!linked.endsWith('.md') || fs.statSync(linked).isDirectory()) {
          broken.push(`${where} (an anchor into a file that is not markdown)`);
          continue;
        }
        if (!anchorsOf(linked).has(decodeURIComponent(anchor))) broken.push(`${where} (no heading with that anchor)`);
      }
    });
  }
  return broken;
}

/** Sections cited by a quoted name (`see "Security"`, `README "Browsers"`) instead of a link. */
function quotedCitations(files: string[], root: string): string[] {
  const found: string[] = [];
  for (const file of files) {
    prose(fs.readFileSync(file, 'utf8')).forEach((line, i) => {
      for (const m of line.matchAll(/\b(?:[Ss]ee|under|README) "[A-Z][^"]*"/g)) found.push(`${path.relative(root, file)}:${i + 1}: ${m[0]}`);
    });
  }
  return found;
}

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) fs.rmSync(d, { recursive: true, force: true });
});

describe('documentation links', () => {
  it('slugs headings as GitHub does', () => {
    expect(slug('Run the daemon: `svc serve`')).toBe('run-the-daemon-svc-serve');
    expect(slug("The console's sign-in with the control token")).toBe('the-consoles-sign-in-with-the-control-token');
    expect(slug('A repository\'s configuration runs nothing in the daemon\'s git calls')).toBe('a-repositorys-configuration-runs-nothing-in-the-daemons-git-calls');
    expect(slug('`svc_x` and **bold** [link](y.md)')).toBe('svc_x-and-bold-link');
    expect([...anchors('# A\n## B\n```\n## not a heading\n```\n## B\n')]).toEqual(['a', 'b', 'b-1']);
  });

  it('reports a missing file, a missing anchor and a missing same-file anchor, and passes good links', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'svc-links-'));
    dirs.push(dir);
    fs.mkdirSync(path.join(dir, 'docs'));
    fs.writeFileSync(path.join(dir, 'docs', 'a.md'), '# A\n\n## Some part\n');
    fs.writeFileSync(
      path.join(dir, 'README.md'),
      [
        '# R',
        '[ok](docs/a.md) [ok](docs/a.md#some-part) [ok](#r) [ok](https://example.com/x#y) `[not a link](nowhere.md)`',
        '[gone](docs/b.md) [bad anchor](docs/a.md#other-part) [bad here](#nothing)',
        '```',
        '[in code](missing.md)',
        '```',
      ].join('\n'),
    );
    expect(brokenLinks(documents(dir), dir)).toEqual([
      'README.md:3: docs/b.md (no such file)',
      'README.md:3: docs/a.md#other-part (no heading with that anchor)',
      'README.md:3: #nothing (no heading with that anchor)',
    ]);
  });

  it('every relative link and anchor in README.md, docs/ and src/**/README.md resolves', () => {
    const files = documents(ROOT);
    expect(files.map((f) => path.relative(ROOT, f))).toEqual(expect.arrayContaining(['README.md', 'docs/README.md', 'docs/architecture.md']));
    expect(brokenLinks(files, ROOT)).toEqual([]);
  });

  it('README.md and docs/ cite sections by link, not by a quoted name', () => {
    const files = [path.join(ROOT, 'README.md'), ...markdownFiles(path.join(ROOT, 'docs'))];
    expect(quotedCitations(files, ROOT)).toEqual([]);
  });

  it('README.md and docs/ name only repository paths that exist', () => {
    const missing: string[] = [];
    for (const file of [path.join(ROOT, 'README.md'), ...markdownFiles(path.join(ROOT, 'docs'))]) {
      for (const m of fs.readFileSync(file, 'utf8').matchAll(/`((?:src|test|scripts|bench|examples|contrib|openapi)\/[\w./-]*)`/g)) {
        if (!fs.existsSync(path.join(ROOT, m[1]!))) missing.push(`${path.relative(ROOT, file)}: ${m[1]}`);
      }
    }
    expect(missing).toEqual([]);
  });

  it('docs/configuration.md names every key of config.example.toml', () => {
    const doc = fs.readFileSync(path.join(ROOT, 'docs', 'configuration.md'), 'utf8');
    let table = '';
    const keys: string[] = [];
    for (const line of fs.readFileSync(path.join(ROOT, 'config.example.toml'), 'utf8').split('\n')) {
      const t = /^#?\s?\[([^\]]+)\]/.exec(line);
      if (t) table = `${t[1]}.`;
      const k = /^#?\s?([a-z_]+) = /.exec(line);
      if (k) keys.push(table + k[1]);
    }
    expect(keys.length).toBeGreaterThan(60);
    expect(keys.filter((key) => !doc.includes(`\`${key}\``))).toEqual([]);
  });
});

/**
 * The source layout rules of docs/architecture.md, checked on the files themselves: every folder
 * under src/ explains itself in a README; code outside a folder imports only its index.ts; no two
 * files import each other in a circle, not even through type-only imports (shared types live in
 * the folder's types.ts); no hand-written file is over 500 lines; no folder holds more than 20
 * source files (the numbered, append-only schema migrations are one list and exempt).
 * src/generated/ (build output of the OpenAPI documents) is outside these rules.
 */
import fs from 'node:fs';
import path from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { ROOT } from '../helpers/daemon.js';

const SRC = path.join(ROOT, 'src');
const GENERATED = path.join(SRC, 'generated');
const MAX_LINES = 500;
const MAX_FILES_PER_FOLDER = 20;
const MIGRATIONS = path.join(SRC, 'store', 'migrations');

interface Edge {
  from: string;
  to: string;
  typeOnly: boolean;
}

function sourceFiles(dir: string, out: string[] = []): string[] {
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) {
      if (full !== GENERATED) sourceFiles(full, out);
    } else if (/\.tsx?$/.test(entry.name) && !entry.name.endsWith('.d.ts')) out.push(full);
  }
  return out;
}

function folders(dir: string, out: string[] = []): string[] {
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory() && full !== GENERATED) {
      out.push(full);
      folders(full, out);
    }
  }
  return out;
}

/** A relative specifier ('./x.js', '../y/index.js', './z') to the .ts/.tsx file it names. */
function resolveSpecifier(fromFile: string, spec: string): string | null {
  if (!spec.startsWith('.')) return null;
  const base = path.resolve(path.dirname(fromFile), spec).replace(/\.(js|jsx|mjs)$/, '');
  for (const candidate of [`${base}.ts`, `${base}.tsx`, path.join(base, 'index.ts'), path.join(base, 'index.tsx')]) {
    if (fs.existsSync(candidate)) return candidate;
  }
  return null;
}

function isTypeOnlyImport(node: ts.ImportDeclaration): boolean {
  const clause = node.importClause;
  if (!clause) return false; // a side-effect import runs the module
  if (clause.isTypeOnly) return true;
  if (clause.name) return false;
  const bindings = clause.namedBindings;
  return !!bindings && ts.isNamedImports(bindings) && bindings.elements.length > 0 && bindings.elements.every((e) => e.isTypeOnly);
}

function isTypeOnlyExport(node: ts.ExportDeclaration): boolean {
  if (node.isTypeOnly) return true;
  const clause = node.exportClause;
  return !!clause && ts.isNamedExports(clause) && clause.elements.length > 0 && clause.elements.every((e) => e.isTypeOnly);
}

function edgesOf(file: string): Edge[] {
  const text = fs.readFileSync(file, 'utf8');
  const sf = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true, file.endsWith('.tsx') ? ts.ScriptKind.TSX : ts.ScriptKind.TS);
  const edges: Edge[] = [];
  const add = (spec: ts.Expression | undefined, typeOnly: boolean): void => {
    if (!spec || !ts.isStringLiteral(spec)) return;
    const to = resolveSpecifier(file, spec.text);
    if (to) edges.push({ from: file, to, typeOnly });
  };
  const visit = (node: ts.Node): void => {
    if (ts.isImportDeclaration(node)) add(node.moduleSpecifier, isTypeOnlyImport(node));
    else if (ts.isExportDeclaration(node)) add(node.moduleSpecifier, isTypeOnlyExport(node));
    else if (ts.isCallExpression(node) && node.expression.kind === ts.SyntaxKind.ImportKeyword) add(node.arguments[0], false);
    else if (ts.isImportTypeNode(node)) return; // `import('x').T` in a type position
    ts.forEachChild(node, visit);
  };
  visit(sf);
  return edges;
}

const rel = (file: string): string => path.relative(SRC, file);
const within = (file: string, dir: string): boolean => file.startsWith(dir + path.sep);

/** Strongly connected components of more than one file (Tarjan), each as sorted relative paths. */
function circles(files: string[], edges: Edge[]): string[][] {
  const next = new Map<string, string[]>(files.map((f) => [f, []]));
  for (const e of edges) next.get(e.from)?.push(e.to);
  let counter = 0;
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const found: string[][] = [];
  const connect = (v: string): void => {
    index.set(v, counter);
    low.set(v, counter);
    counter++;
    stack.push(v);
    onStack.add(v);
    for (const w of next.get(v) ?? []) {
      if (!index.has(w)) {
        connect(w);
        low.set(v, Math.min(low.get(v)!, low.get(w)!));
      } else if (onStack.has(w)) low.set(v, Math.min(low.get(v)!, index.get(w)!));
    }
    if (low.get(v) === index.get(v)) {
      const component: string[] = [];
      let w: string;
      do {
        w = stack.pop()!;
        onStack.delete(w);
        component.push(w);
      } while (w !== v);
      if (component.length > 1) found.push(component.map(rel).sort());
    }
  };
  for (const f of files) if (!index.has(f)) connect(f);
  return found;
}

const files = sourceFiles(SRC);
const edges = files.flatMap(edgesOf);

describe('source layout (docs/architecture.md)', () => {
  it('has no import circles between files, type-only imports included', () => {
    expect(circles(files, edges)).toEqual([]);
  });

  it("imports another folder's code only through its index.ts", () => {
    const reachIn = edges
      .filter((e) => !e.to.startsWith(GENERATED + path.sep))
      .filter((e) => !within(e.from, path.dirname(e.to)) && path.dirname(e.from) !== path.dirname(e.to))
      .filter((e) => !/^index\.tsx?$/.test(path.basename(e.to)))
      .map((e) => `${rel(e.from)} -> ${rel(e.to)}`);
    expect([...new Set(reachIn)].sort()).toEqual([]);
  });

  it('gives every folder a README.md', () => {
    const missing = folders(SRC)
      .filter((dir) => !fs.existsSync(path.join(dir, 'README.md')))
      .map(rel);
    expect(missing).toEqual([]);
  });

  it(`keeps every hand-written file at ${MAX_LINES} lines or fewer`, () => {
    const long = files
      .map((f) => ({ file: rel(f), lines: fs.readFileSync(f, 'utf8').split('\n').length }))
      .filter((f) => f.lines > MAX_LINES);
    expect(long).toEqual([]);
  });

  it(`keeps every folder at ${MAX_FILES_PER_FOLDER} source files or fewer`, () => {
    const crowded = [SRC, ...folders(SRC)]
      .filter((dir) => dir !== MIGRATIONS)
      .map((dir) => ({ dir: rel(dir) || '.', files: fs.readdirSync(dir).filter((n) => /\.tsx?$/.test(n)).length }))
      .filter((d) => d.files > MAX_FILES_PER_FOLDER);
    expect(crowded).toEqual([]);
  });

  it('sees the source it checks (the rules above are not vacuous)', () => {
    expect(files.length).toBeGreaterThan(100);
    expect(edges.filter((e) => !e.typeOnly).length).toBeGreaterThan(300);
  });
});

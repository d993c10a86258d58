/**
 * The template catalog as the real system shows it (GET /api/templates/catalog; docs/holon-gui.md):
 * svc's built-in templates and the directories under `<home>/templates`, each usable as `template`
 * of POST /api/control/agents/:id/create. Read-only: svc installs no templates from remote sources
 * (a template is a directory someone put under <home>/templates).
 */
import fs from 'node:fs';
import path from 'node:path';
import { errors, readRegularFile } from '../../core/index.js';
import { BUILTIN_TEMPLATE_NAMES, builtinTemplateFiles, INITIAL_MESSAGE_FILE, templateExists } from './agent-templates.js';

/** The instructions file a template's detail shows, first found. */
const AGENTS_FILES = ['AGENTS.md', 'AGENT.md'];
/** Bytes of the instructions file a detail shows at most. */
export const TEMPLATE_TEXT_MAX_BYTES = 64 * 1024;

export interface TemplateEntry {
  catalog_id: string;
  template: string;
  template_id: string;
  name: string;
  source: 'builtin' | 'user_global';
  path: string | null;
  description: string;
  included_skills: string[];
}

export class TemplateCatalog {
  constructor(private readonly homeDir: string) {}

  list(): TemplateEntry[] {
    const builtins = BUILTIN_TEMPLATE_NAMES.map((name) => this.entry(name));
    const dir = path.join(this.homeDir, 'templates');
    let names: string[] = [];
    try {
      names = fs
        .readdirSync(dir, { withFileTypes: true })
        .filter((d) => d.isDirectory() && !BUILTIN_TEMPLATE_NAMES.includes(d.name) && templateExists(this.homeDir, d.name))
        .map((d) => d.name)
        .sort();
    } catch {
      // no <home>/templates: built-ins only
    }
    return [...builtins, ...names.map((name) => this.entry(name))];
  }

  /** One template with its instructions text; 404 template_not_found for an unknown name. */
  detail(name: string) {
    if (!templateExists(this.homeDir, name)) throw errors.templateNotInCatalog(name);
    const entry = this.entry(name);
    const text = this.instructions(name);
    return {
      ...entry,
      source_location: entry.path ?? `builtin:${name}`,
      summary: entry.description,
      agents_md: text,
      initial_message: this.initialMessage(name),
      skills: [] as Array<{ kind: string; reference: string }>,
    };
  }

  private entry(name: string): TemplateEntry {
    const builtin = builtinTemplateFiles(name) !== null;
    return {
      catalog_id: name,
      template: name,
      template_id: name,
      name,
      source: builtin ? 'builtin' : 'user_global',
      path: builtin ? null : path.join(this.homeDir, 'templates', name),
      description: firstParagraph(this.instructions(name)),
      included_skills: [],
    };
  }

  private instructions(name: string): string {
    const files = builtinTemplateFiles(name);
    if (files) return AGENTS_FILES.map((f) => files[f]).find((t) => t !== undefined) ?? '';
    for (const f of AGENTS_FILES) {
      const text = readSmall(path.join(this.homeDir, 'templates', name, f));
      if (text !== null) return text;
    }
    return '';
  }

  private initialMessage(name: string): string | null {
    return builtinTemplateFiles(name) ? null : readSmall(path.join(this.homeDir, 'templates', name, INITIAL_MESSAGE_FILE));
  }
}

/** A regular file's text, at most TEMPLATE_TEXT_MAX_BYTES; null when absent or not a file. */
function readSmall(file: string): string | null {
  try {
    return readRegularFile(file, { nofollow: true, maxBytes: TEMPLATE_TEXT_MAX_BYTES }).text;
  } catch {
    return null;
  }
}

/** The first paragraph that is not a heading, on one line. */
function firstParagraph(text: string): string {
  const para = text
    .split(/\n\s*\n/)
    .map((p) => p.trim())
    .find((p) => p !== '' && !p.startsWith('#'));
  return (para ?? '').replace(/\s+/g, ' ').slice(0, 300);
}

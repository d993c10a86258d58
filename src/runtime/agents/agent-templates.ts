/**
 * Agent templates: what a new agent's home starts with and what it is told first. A template is
 * built in (the table below) or a directory `<home>/templates/<name>/` whose files are copied into
 * the agent home. A directory template may hold `INITIAL_MESSAGE.md`: its text is enqueued once to
 * the new agent (bootstrap step `initial_message`) and is not copied into the agent home, so the
 * agent meets it once, as a message, and not again as a stale file in its workspace.
 */
import fs from 'node:fs';
import path from 'node:path';
import { readRegularFile, SpecialFileError } from '../../core/index.js';

interface BuiltinTemplate {
  /** Files written into the agent home (never overwriting one that exists). */
  files: Record<string, string>;
  /** Text of the first message the agent receives; none when absent. */
  initialMessage?: string;
}

const BUILTIN_TEMPLATES: Record<string, BuiltinTemplate> = {
  default: {
    files: {
      'AGENT.md': '# Agent\n\nNotes and instructions for this agent live here. svc created this file from the `default` template.\n',
    },
  },
};

/** File of a directory template holding the agent's first message. */
export const INITIAL_MESSAGE_FILE = 'INITIAL_MESSAGE.md';
/** Larger than this, an initial message is a mistake: the step fails and stays pending. */
export const INITIAL_MESSAGE_MAX_BYTES = 256 * 1024;

/** Names of the built-in templates. */
export const BUILTIN_TEMPLATE_NAMES: readonly string[] = Object.keys(BUILTIN_TEMPLATES);

/** The files a built-in template writes, or null for a name that is not built in. */
export function builtinTemplateFiles(name: string): Readonly<Record<string, string>> | null {
  return builtin(name)?.files ?? null;
}

function builtin(name: string): BuiltinTemplate | undefined {
  return Object.hasOwn(BUILTIN_TEMPLATES, name) ? BUILTIN_TEMPLATES[name] : undefined;
}

/**
 * A built-in template, or one directory directly under <home>/templates. A name is never a
 * path: `..`, `/etc` or `a/b` would copy arbitrary directories into the agent home.
 */
export function templateExists(homeDir: string, name: string): boolean {
  if (builtin(name)) return true;
  if (name !== path.basename(name) || name === '.' || name === '..' || name.includes('\\')) return false;
  try {
    return fs.statSync(path.join(homeDir, 'templates', name)).isDirectory();
  } catch {
    return false;
  }
}

/** The template's directory, after the same name checks as templateExists (throws otherwise). */
function templateDir(homeDir: string, name: string): string {
  if (!templateExists(homeDir, name)) throw new Error(`template ${JSON.stringify(name)} no longer exists`);
  return path.join(homeDir, 'templates', name);
}

/** Write the template's files into `agentHome`, keeping files that are already there. */
export function applyTemplate(homeDir: string, name: string, agentHome: string): void {
  const b = builtin(name);
  if (b) {
    for (const [file, text] of Object.entries(b.files)) {
      const target = path.join(agentHome, file);
      if (!fs.existsSync(target)) fs.writeFileSync(target, text);
    }
    return;
  }
  const dir = templateDir(homeDir, name);
  const skip = path.join(dir, INITIAL_MESSAGE_FILE);
  fs.cpSync(dir, agentHome, { recursive: true, force: false, filter: (src) => src !== skip });
}

/**
 * The template's initial message, or null when it defines none (no file, or only whitespace).
 * Throws when the template is gone or the file cannot be read as text within the size limit, so
 * the bootstrap step stays pending and `repair` can retry it once that is fixed.
 */
export function initialMessageOf(homeDir: string, name: string): string | null {
  const b = builtin(name);
  if (b) return b.initialMessage ?? null;
  const file = path.join(templateDir(homeDir, name), INITIAL_MESSAGE_FILE);
  let read: { text: string; stat: fs.Stats };
  try {
    read = readRegularFile(file, { maxBytes: INITIAL_MESSAGE_MAX_BYTES + 1 });
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return null;
    if (err instanceof SpecialFileError) throw new Error(`${INITIAL_MESSAGE_FILE} of template ${JSON.stringify(name)} is not a regular file`);
    throw err;
  }
  if (read.stat.size > INITIAL_MESSAGE_MAX_BYTES) {
    throw new Error(`${INITIAL_MESSAGE_FILE} of template ${JSON.stringify(name)} is ${read.stat.size} bytes (at most ${INITIAL_MESSAGE_MAX_BYTES})`);
  }
  return read.text.trim() === '' ? null : read.text;
}

/**
 * `svc credentials list|set|delete`: the credential profiles of `<home>/credentials.json` through
 * the control plane (`/api/control/runtime/credentials`). `set` reads the secret from stdin or
 * `--from-file`, never from the command line (argv is visible to every user in `ps`), and nothing
 * prints it: answers carry the profile's name and status only.
 */
import fs from 'node:fs';
import type { Command } from 'commander';
import { clientOptions, controlApi, ok, resolveTarget, type ClientFlags, type ControlBody } from '../client.js';
import { action, print, table, type Row } from '../output.js';

interface Profile extends Row {
  profile: string;
  kind: string;
  configured: boolean;
  updated_at: string | null;
  used_by: string[];
}

/** Checked by the daemon (400 for another kind); the option passes any string. */
type Kind = ControlBody<'/api/control/runtime/credentials/{profile}', 'put'>['kind'];

/** Largest input read (the daemon refuses material over 16 KiB anyway). */
const MAX_INPUT_BYTES = 64 * 1024;

/**
 * The secret as given: one trailing line end removed (`echo "$T" | svc credentials set`, a file
 * ending in a newline), nothing else changed: the daemon refuses other control characters.
 */
export function secretFromInput(text: string): string {
  return text.replace(/\r?\n$/, '');
}

async function readStream(stream: NodeJS.ReadableStream): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of stream) {
    const buf = typeof chunk === 'string' ? Buffer.from(chunk) : (chunk as Buffer);
    size += buf.length;
    if (size > MAX_INPUT_BYTES) throw new Error(`the secret is longer than ${MAX_INPUT_BYTES} bytes`);
    chunks.push(buf);
  }
  return Buffer.concat(chunks).toString('utf8');
}

/** One line from a terminal without echoing it (raw mode: the characters are never printed). */
function readHiddenLine(prompt: string): Promise<string> {
  const stdin = process.stdin;
  process.stderr.write(prompt);
  return new Promise((resolve, reject) => {
    let line = '';
    const done = (err: Error | null) => {
      stdin.setRawMode(false);
      stdin.pause();
      stdin.off('data', onData);
      process.stderr.write('\n');
      if (err) reject(err);
      else resolve(line);
    };
    const onData = (data: Buffer) => {
      for (const ch of data.toString('utf8')) {
        if (ch === '\r' || ch === '\n' || ch === '\u0004') return done(null);
        if (ch === '\u0003') return done(new Error('cancelled'));
        if (ch === '\u007f' || ch === '\b') line = line.slice(0, -1);
        else line += ch;
      }
    };
    stdin.setRawMode(true);
    stdin.resume();
    stdin.on('data', onData);
  });
}

async function readSecret(profile: string, fromFile: string | undefined): Promise<string> {
  if (fromFile !== undefined) {
    const stat = fs.statSync(fromFile);
    if (!stat.isFile()) throw new Error(`${fromFile} is not a regular file`);
    if (stat.size > MAX_INPUT_BYTES) throw new Error(`${fromFile} is longer than ${MAX_INPUT_BYTES} bytes`);
    return secretFromInput(fs.readFileSync(fromFile, 'utf8'));
  }
  if (process.stdin.isTTY) return readHiddenLine(`secret for ${profile} (not shown): `);
  return secretFromInput(await readStream(process.stdin));
}

function human(p: Profile): string {
  return `${p.profile}: ${p.kind}, ${p.configured ? `stored ${p.updated_at ?? ''}`.trim() : 'not stored'}`;
}

export function registerCredentials(program: Command): void {
  const credentials = program.command('credentials').description('credential profiles (<home>/credentials.json): names and status, never the secret');

  clientOptions(credentials.command('list').description('stored profiles and those the config names, without their material')).action(
    action(async (flags: ClientFlags) => {
      const res = await ok(controlApi(resolveTarget(flags)).GET('/api/control/runtime/credentials'));
      print(res, flags.json, (r) => table(r.profiles.map((p) => ({ ...p, used_by: p.used_by.join(', ') || '-' })), ['profile', 'kind', 'configured', 'updated_at', 'used_by']));
    }),
  );

  clientOptions(
    credentials
      .command('set <profile>')
      .description('store (or replace) a profile; the secret comes from stdin (hidden when it is a terminal) or --from-file, never from the command line'),
  )
    .option('--kind <kind>', 'api_key (a provider key) or bearer_token (sent as Authorization: Bearer)', 'bearer_token')
    .option('--from-file <path>', 'read the secret from this file (one trailing newline is dropped)')
    .action(
      action(async (profile: string, flags: ClientFlags & { kind: string; fromFile?: string }) => {
        const material = await readSecret(profile, flags.fromFile);
        if (material === '') throw new Error('the secret is empty: pipe it on stdin or name a file with --from-file');
        const res = await ok(
          controlApi(resolveTarget(flags)).PUT('/api/control/runtime/credentials/{profile}', { params: { path: { profile } }, body: { kind: flags.kind as Kind, material } }),
        );
        print(res, flags.json, (r) => human(r.profile));
      }),
    );

  clientOptions(credentials.command('delete <profile>').description('remove a profile (404 credential_not_found when it is not stored)')).action(
    action(async (profile: string, flags: ClientFlags) => {
      const res = await ok(controlApi(resolveTarget(flags)).DELETE('/api/control/runtime/credentials/{profile}', { params: { path: { profile } } }));
      print(res, flags.json, (r) => `${r.profile.profile}: removed`);
    }),
  );
}

/**
 * File-reference resolution and the desktop-reveal guards
 * (src/runtime/workspaces/file-references.ts), on a real temporary tree with symlinks: every
 * reference type, every unresolved reason, `..` and symlink escapes, the 64-reference limit, and
 * each desktop check on its own.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  desktopGate,
  desktopPlatformSupported,
  directLoopbackWithMatchingOrigin,
  isStrictlyWithin,
  isWithin,
  lexicalJoin,
  MAX_REFERENCES,
  parseWorkspaceUri,
  resolveReference,
  resolveReferences,
  revealTarget,
  type ConnectionFacts,
  type FileReference,
  type ResolveContext,
} from '../../src/runtime/workspaces/file-references.js';

let tmp: string;
let home: string;
let ws: string;
let outside: string;
let ctx: ResolveContext;

beforeAll(() => {
  tmp = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'svc-fref-')));
  home = path.join(tmp, 'home');
  ws = path.join(tmp, 'ws');
  outside = path.join(tmp, 'outside');
  for (const d of [home, path.join(home, 'sub'), ws, path.join(ws, 'src'), path.join(ws, 'src', 'deep'), outside]) fs.mkdirSync(d, { recursive: true });
  fs.writeFileSync(path.join(home, 'notes.txt'), 'n');
  fs.writeFileSync(path.join(ws, 'src', 'index.ts'), 'i');
  fs.writeFileSync(path.join(ws, 'src', 'deep', 'x.ts'), 'x');
  fs.writeFileSync(path.join(ws, 'my file.md'), 'm');
  fs.writeFileSync(path.join(outside, 'secret.txt'), 's');
  fs.symlinkSync(path.join(outside, 'secret.txt'), path.join(ws, 'link-out'));
  fs.symlinkSync(outside, path.join(ws, 'dirlink-out'));
  fs.symlinkSync('src/index.ts', path.join(ws, 'link-in'));
  fs.symlinkSync(path.join(ws, 'nowhere'), path.join(ws, 'dangling'));
  ctx = {
    roots: [
      { workspace_id: 'agent_home', execution_root_id: 'agent_home', root: home, root_kind: 'agent_home' },
      { workspace_id: 'ws_A', execution_root_id: 'ws_A', root: ws, root_kind: 'workspace' },
    ],
    activeWorkspaceId: 'ws_A',
  };
});

afterAll(() => fs.rmSync(tmp, { recursive: true, force: true }));

const uri = (u: string) => resolveReference({ type: 'workspace_uri', workspace_uri: u }, ctx);
const abs = (p: string) => resolveReference({ type: 'absolute_path', absolute_path: p }, ctx);
const rel = (r: string, extra: { base_path?: string; workspace_id?: string } = {}) =>
  resolveReference({ type: 'relative_path', relative_path: r, ...extra }, ctx);
const reasonOf = (r: ReturnType<typeof uri>) => (r.status === 'unresolved' ? r.reason : 'resolved');

describe('path helpers', () => {
  it('isWithin compares whole segments', () => {
    expect(isWithin('/a/b', '/a/b')).toBe(true);
    expect(isWithin('/a/b', '/a/b/c')).toBe(true);
    expect(isWithin('/a/b', '/a/bc')).toBe(false);
    expect(isWithin('/a/b', '/a')).toBe(false);
    expect(isWithin('/', '/etc')).toBe(true);
    expect(isStrictlyWithin('/a/b', '/a/b')).toBe(false);
    expect(isStrictlyWithin('/a/b', '/a/b/c')).toBe(true);
  });
  it('lexicalJoin refuses .. that climbs out and absolute parts', () => {
    expect(lexicalJoin('/r', '/r', 'a/../b')).toBe('/r/b');
    expect(lexicalJoin('/r', '/r', '../r2/x')).toBeNull();
    expect(lexicalJoin('/r', '/r/a', '../../etc/passwd')).toBeNull();
    expect(lexicalJoin('/r', '/r', '/etc/passwd')).toBeNull();
    expect(lexicalJoin('/r', '/r', 'a\0b')).toBeNull();
  });
  it('parseWorkspaceUri decodes the path and refuses malformed URIs', () => {
    expect(parseWorkspaceUri('workspace://ws_A/src/index.ts')).toEqual({ workspace_id: 'ws_A', relative: 'src/index.ts' });
    expect(parseWorkspaceUri('workspace://ws_A')).toEqual({ workspace_id: 'ws_A', relative: '' });
    expect(parseWorkspaceUri('workspace://ws_A/my%20file.md')).toEqual({ workspace_id: 'ws_A', relative: 'my file.md' });
    for (const bad of ['file:///etc/passwd', 'workspace://', 'workspace:///x', 'workspace://ws_A/a?b=1', 'workspace://ws_A/a#f', 'workspace://ws_A/%E0%A4%A', 'workspace://ws_A/a%00b', 'workspace://w s/x']) {
      expect(parseWorkspaceUri(bad), bad).toBeNull();
    }
  });
});

describe('workspace_uri references', () => {
  it('resolve a file with its location', () => {
    expect(uri('workspace://ws_A/src/index.ts')).toEqual({
      status: 'resolved',
      location: {
        workspace_id: 'ws_A',
        execution_root_id: 'ws_A',
        path: 'src/index.ts',
        absolute_path: path.join(ws, 'src', 'index.ts'),
        kind: 'file',
        root_kind: 'workspace',
      },
    });
  });
  it('resolve the root and directories, agent_home included', () => {
    expect(uri('workspace://ws_A')).toMatchObject({ status: 'resolved', location: { path: '.', kind: 'directory', absolute_path: ws } });
    expect(uri('workspace://ws_A/src/')).toMatchObject({ status: 'resolved', location: { path: 'src', kind: 'directory' } });
    expect(uri('workspace://agent_home/notes.txt')).toMatchObject({
      status: 'resolved',
      location: { workspace_id: 'agent_home', root_kind: 'agent_home', path: 'notes.txt' },
    });
  });
  it('decode percent-encoding', () => {
    expect(uri('workspace://ws_A/my%20file.md')).toMatchObject({ status: 'resolved', location: { path: 'my file.md' } });
  });
  it('allow .. that stays inside the root', () => {
    expect(uri('workspace://ws_A/src/deep/../index.ts')).toMatchObject({ status: 'resolved', location: { path: 'src/index.ts' } });
  });
  it('never climb out with .. (plain or percent-encoded)', () => {
    expect(uri('workspace://ws_A/../../etc/passwd')).toMatchObject({ status: 'unresolved', reason: 'outside_workspace' });
    expect(uri('workspace://ws_A/src/../../outside/secret.txt')).toMatchObject({ status: 'unresolved', reason: 'outside_workspace' });
    expect(uri('workspace://ws_A/%2e%2e/outside/secret.txt')).toMatchObject({ status: 'unresolved', reason: 'outside_workspace' });
    expect(uri('workspace://agent_home/../ws/src/index.ts')).toMatchObject({ status: 'unresolved', reason: 'outside_workspace' });
  });
  it('never follow a symlink out of the root (file or directory link)', () => {
    expect(uri('workspace://ws_A/link-out')).toMatchObject({ status: 'unresolved', reason: 'outside_workspace' });
    expect(uri('workspace://ws_A/dirlink-out/secret.txt')).toMatchObject({ status: 'unresolved', reason: 'outside_workspace' });
    expect(uri('workspace://ws_A/dirlink-out')).toMatchObject({ status: 'unresolved', reason: 'outside_workspace' });
  });
  it('follow a symlink that stays inside and report its target', () => {
    expect(uri('workspace://ws_A/link-in')).toMatchObject({ status: 'resolved', location: { path: 'src/index.ts', absolute_path: path.join(ws, 'src', 'index.ts') } });
  });
  it('report unknown workspaces, missing files and malformed URIs', () => {
    expect(uri('workspace://ws_NOPE/a.txt')).toMatchObject({ status: 'unresolved', reason: 'unknown_workspace' });
    expect(uri('workspace://ws_A/missing.txt')).toMatchObject({ status: 'unresolved', reason: 'not_found' });
    expect(uri('workspace://ws_A/dangling')).toMatchObject({ status: 'unresolved', reason: 'not_found' });
    expect(uri('file:///etc/passwd')).toMatchObject({ status: 'unresolved', reason: 'invalid_reference' });
    expect(reasonOf(uri('workspace://ws_A//etc/passwd'))).toBe('invalid_reference');
  });
  it('carry a human message on every unresolved result', () => {
    const r = uri('workspace://ws_NOPE/a.txt');
    expect(r.status === 'unresolved' && r.message.length > 0).toBe(true);
  });
});

describe('absolute_path references', () => {
  it('resolve to the root that holds the real path', () => {
    expect(abs(path.join(ws, 'src', 'index.ts'))).toMatchObject({ status: 'resolved', location: { workspace_id: 'ws_A', path: 'src/index.ts', kind: 'file' } });
    expect(abs(path.join(home, 'sub'))).toMatchObject({ status: 'resolved', location: { workspace_id: 'agent_home', root_kind: 'agent_home', kind: 'directory' } });
  });
  it('prefer the most specific root when roots nest', () => {
    const nested: ResolveContext = {
      ...ctx,
      roots: [...ctx.roots, { workspace_id: 'ws_B', execution_root_id: 'ws_B', root: path.join(ws, 'src'), root_kind: 'workspace' }],
    };
    expect(resolveReference({ type: 'absolute_path', absolute_path: path.join(ws, 'src', 'index.ts') }, nested)).toMatchObject({
      status: 'resolved',
      location: { workspace_id: 'ws_B', path: 'index.ts' },
    });
  });
  it('refuse paths outside every root, through .. or a symlink', () => {
    expect(abs('/etc/passwd')).toMatchObject({ status: 'unresolved', reason: 'outside_workspace' });
    expect(abs(path.join(outside, 'secret.txt'))).toMatchObject({ status: 'unresolved', reason: 'outside_workspace' });
    expect(abs(`${ws}/src/../../outside/secret.txt`)).toMatchObject({ status: 'unresolved', reason: 'outside_workspace' });
    expect(abs(`${ws}/../../../../etc/passwd`)).toMatchObject({ status: 'unresolved', reason: 'outside_workspace' });
    expect(abs(path.join(ws, 'link-out'))).toMatchObject({ status: 'unresolved', reason: 'outside_workspace' });
    expect(abs(path.join(ws, 'dirlink-out', 'secret.txt'))).toMatchObject({ status: 'unresolved', reason: 'outside_workspace' });
  });
  it('say not_found inside a root and outside_workspace elsewhere for missing files', () => {
    expect(abs(path.join(ws, 'missing.txt'))).toMatchObject({ status: 'unresolved', reason: 'not_found' });
    expect(abs('/definitely/not/here.txt')).toMatchObject({ status: 'unresolved', reason: 'outside_workspace' });
  });
  it('refuse a relative string', () => {
    expect(abs('src/index.ts')).toMatchObject({ status: 'unresolved', reason: 'invalid_reference' });
  });
});

describe('relative_path references', () => {
  const base = () => path.join(ws, 'src', 'deep', 'x.ts');
  it('resolve against the directory of a base file', () => {
    expect(rel('../index.ts', { base_path: base() })).toMatchObject({ status: 'resolved', location: { workspace_id: 'ws_A', path: 'src/index.ts' } });
    expect(rel('x.ts', { base_path: base() })).toMatchObject({ status: 'resolved', location: { path: 'src/deep/x.ts' } });
  });
  it('use a directory base as the directory itself', () => {
    expect(rel('index.ts', { base_path: path.join(ws, 'src') })).toMatchObject({ status: 'resolved', location: { path: 'src/index.ts' } });
  });
  it('never leave the base file’s root', () => {
    expect(rel('../../../outside/secret.txt', { base_path: base() })).toMatchObject({ status: 'unresolved', reason: 'outside_workspace' });
    expect(rel('../../../../../etc/passwd', { base_path: base() })).toMatchObject({ status: 'unresolved', reason: 'outside_workspace' });
    expect(rel('../../link-out', { base_path: base() })).toMatchObject({ status: 'unresolved', reason: 'outside_workspace' });
    expect(rel('secret.txt', { base_path: path.join(outside, 'x') })).toMatchObject({ status: 'unresolved', reason: 'outside_workspace' });
  });
  it('resolve against a named workspace, else the active one', () => {
    expect(rel('notes.txt', { workspace_id: 'agent_home' })).toMatchObject({ status: 'resolved', location: { workspace_id: 'agent_home' } });
    expect(rel('src/index.ts')).toMatchObject({ status: 'resolved', location: { workspace_id: 'ws_A', path: 'src/index.ts' } });
    expect(rel('notes.txt')).toMatchObject({ status: 'unresolved', reason: 'not_found' });
    expect(rel('../../etc/passwd')).toMatchObject({ status: 'unresolved', reason: 'outside_workspace' });
  });
  it('refuse a base outside the named workspace, unknown workspaces and bad paths', () => {
    expect(rel('index.ts', { base_path: base(), workspace_id: 'agent_home' })).toMatchObject({ status: 'unresolved', reason: 'outside_workspace' });
    expect(rel('a', { workspace_id: 'ws_NOPE' })).toMatchObject({ status: 'unresolved', reason: 'unknown_workspace' });
    expect(rel('/etc/passwd')).toMatchObject({ status: 'unresolved', reason: 'invalid_reference' });
    expect(rel('')).toMatchObject({ status: 'unresolved', reason: 'invalid_reference' });
    expect(rel('a', { base_path: 'relative/base' })).toMatchObject({ status: 'unresolved', reason: 'invalid_reference' });
    expect(rel('nope.ts', { base_path: base() })).toMatchObject({ status: 'unresolved', reason: 'not_found' });
  });
});

describe('batches', () => {
  it('keep request order and accept exactly 64', () => {
    const refs: FileReference[] = Array.from({ length: MAX_REFERENCES }, (_, i) =>
      i % 2 ? { type: 'workspace_uri', workspace_uri: 'workspace://ws_A/src/index.ts' } : { type: 'absolute_path', absolute_path: '/etc/passwd' },
    );
    const out = resolveReferences(refs, ctx);
    expect(MAX_REFERENCES).toBe(64);
    expect(out).toHaveLength(64);
    expect(out.map((r) => r.status)).toEqual(refs.map((_, i) => (i % 2 ? 'resolved' : 'unresolved')));
  });
  it('refuse 65', () => {
    const refs: FileReference[] = Array.from({ length: 65 }, () => ({ type: 'absolute_path', absolute_path: ws }));
    expect(() => resolveReferences(refs, ctx)).toThrow(/64/);
  });
});

describe('desktop guards', () => {
  const good: ConnectionFacts = { remoteAddress: '127.0.0.1', headers: { host: '127.0.0.1:8700', origin: 'http://127.0.0.1:8700' } };

  it('support macOS and Windows only', () => {
    expect(desktopPlatformSupported('darwin')).toBe(true);
    expect(desktopPlatformSupported('win32')).toBe(true);
    expect(desktopPlatformSupported('linux')).toBe(false);
    expect(desktopPlatformSupported('freebsd')).toBe(false);
  });

  it('accept a direct loopback connection whose origin matches the host', () => {
    expect(directLoopbackWithMatchingOrigin(good)).toBe(true);
    expect(directLoopbackWithMatchingOrigin({ remoteAddress: '::1', headers: { host: 'localhost:8700', origin: 'http://localhost:8700' } })).toBe(true);
    expect(directLoopbackWithMatchingOrigin({ remoteAddress: '::ffff:127.0.0.1', headers: { host: '[::1]:9', origin: 'http://[::1]:9' } })).toBe(true);
  });

  it.each<[string, ConnectionFacts]>([
    ['a non-loopback peer', { ...good, remoteAddress: '10.0.0.5' }],
    ['a Unix socket peer', { ...good, remoteAddress: undefined }],
    ['a proxy (X-Forwarded-For)', { ...good, headers: { ...good.headers, 'x-forwarded-for': '1.2.3.4' } }],
    ['a proxy (Forwarded)', { ...good, headers: { ...good.headers, forwarded: 'for=1.2.3.4' } }],
    ['no Origin', { ...good, headers: { host: good.headers.host } }],
    ['a foreign Origin', { ...good, headers: { ...good.headers, origin: 'http://evil.example' } }],
    ['a loopback Origin on another port', { ...good, headers: { ...good.headers, origin: 'http://127.0.0.1:3000' } }],
    ['an Origin naming another loopback host', { ...good, headers: { ...good.headers, origin: 'http://localhost:8700' } }],
    ['a non-loopback Host', { ...good, headers: { host: 'svc.example:8700', origin: 'http://svc.example:8700' } }],
    ['a null Origin', { ...good, headers: { ...good.headers, origin: 'null' } }],
  ])('refuse %s', (_what, c) => {
    expect(directLoopbackWithMatchingOrigin(c)).toBe(false);
  });

  it('gate in order: integration, platform, loopback', () => {
    expect(desktopGate({ enabled: false, platform: 'darwin', connection: good })).toBe('desktop_integration_disabled');
    expect(desktopGate({ enabled: true, platform: 'linux', connection: good })).toBe('desktop_platform_unsupported');
    expect(desktopGate({ enabled: true, platform: 'darwin', connection: { ...good, remoteAddress: '192.168.1.2' } })).toBe('desktop_loopback_required');
    expect(desktopGate({ enabled: true, platform: 'darwin', connection: good })).toBeNull();
    expect(desktopGate({ enabled: true, platform: 'win32', connection: good })).toBeNull();
  });

  it('reveal only existing paths strictly within the root', () => {
    expect(revealTarget(ws, 'src/index.ts')).toBe(path.join(ws, 'src', 'index.ts'));
    expect(revealTarget(ws, 'src')).toBe(path.join(ws, 'src'));
    expect(revealTarget(ws, 'link-in')).toBe(path.join(ws, 'src', 'index.ts'));
    expect(revealTarget(ws, '')).toBeNull();
    expect(revealTarget(ws, '.')).toBeNull();
    expect(revealTarget(ws, 'src/..')).toBeNull();
    expect(revealTarget(ws, '../outside/secret.txt')).toBeNull();
    expect(revealTarget(ws, '../../etc/passwd')).toBeNull();
    expect(revealTarget(ws, 'link-out')).toBeNull();
    expect(revealTarget(ws, 'dirlink-out/secret.txt')).toBeNull();
    expect(revealTarget(ws, '/etc/passwd')).toBeNull();
    expect(revealTarget(ws, 'missing.txt')).toBeNull();
  });
});

/** The CLI's typed clients: what they refuse before any request is sent. */
import { describe, expect, it } from 'vitest';
import os from 'node:os';
import path from 'node:path';
import { ApiError, controlApi, controlPath, inboxApi, resolveTarget, type Target } from '../../src/cli/client.js';

// Nothing listens here: a request that were sent would fail as unreachable instead.
const target: Target = { base: new URL('http://127.0.0.1:1/'), socketPath: '/nonexistent/inbox.sock', token: '', from: 'flag', home: '/nonexistent', daemon: { state: 'none' } };

describe('path parameters', () => {
  it('refuses . and .. (URL parsing would resolve them into another route) on both surfaces and for the streams', async () => {
    for (const id of ['.', '..']) {
      await expect(controlApi(target).GET('/api/agents/{id}/state', { params: { path: { id } } })).rejects.toMatchObject({ code: 'invalid_argument', message: `'${id}' is not a valid id` });
      await expect(inboxApi(target).DELETE('/agents/{agentId}/targets/{targetId}', { params: { path: { agentId: 'a', targetId: id } } })).rejects.toBeInstanceOf(ApiError);
      expect(() => controlPath('/api/agents/{id}/events/stream', { path: { id }, query: {} })).toThrow(`'${id}' is not a valid id`);
    }
  });

  it('encodes any other value as one segment', () => {
    expect(controlPath('/api/agents/{id}/events/stream', { path: { id: '../x/%2F...' }, query: {} })).toBe('/api/agents/..%2Fx%2F%252F.../events/stream');
  });
});

describe('the control-plane URL', () => {
  const env = { SVC_HOME: path.join(os.tmpdir(), 'svc-no-such-home') };

  it('is refused, naming where it came from, unless it is an http:// URL', () => {
    for (const url of ['', 'not a url', 'javascript:alert(1)', 'ftp://127.0.0.1:1', 'https://127.0.0.1:1']) {
      expect(() => resolveTarget({ url }, env), url).toThrow(expect.objectContaining({ code: 'invalid_url', message: `--url: '${url}' is not an http:// URL` }));
    }
    expect(() => resolveTarget({}, { ...env, SVC_URL: 'javascript:x' })).toThrow("SVC_URL: 'javascript:x' is not an http:// URL");
  });

  it('keeps its path, and an empty SVC_URL counts as unset', () => {
    expect(resolveTarget({ url: 'http://127.0.0.1:1/svc' }, env)).toMatchObject({ from: 'flag', base: new URL('http://127.0.0.1:1/svc/') });
    expect(resolveTarget({}, { ...env, SVC_URL: '' })).toMatchObject({ from: 'config', base: new URL('http://127.0.0.1:8700/') });
  });
});

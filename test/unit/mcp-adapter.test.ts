/**
 * An MCP listing as the model is offered it, without a server: names that do not fit
 * ^[A-Za-z0-9_-]{1,64}$ are skipped with a warning, a listing is cut at 128 tools, an oversized
 * schema is skipped, a schema is always an object schema; and a result's parts as the model reads them.
 */
import pino from 'pino';
import { describe, expect, it } from 'vitest';
import { McpConfigSchema } from '../../src/config/mcp.js';
import { MAX_SCHEMA_BYTES, MAX_TOOLS_PER_SERVER, objectSchema, resultText } from '../../src/runtime/mcp/index.js';
import { adaptTools } from '../../src/runtime/mcp/tool-adapter.js';
import { toolContext } from '../helpers/mcp.js';

const config = McpConfigSchema.parse({ servers: { s: { command: 'x', tool_classes: { peek: 'read' } } } }).servers.s!;
const never = async () => {
  throw new Error('not called');
};
const adapt = (listed: Parameters<typeof adaptTools>[2], server = 's') => adaptTools(server, config, listed, never, pino({ level: 'silent' }));

describe('an MCP listing as tools', () => {
  it('names NAME__tool; skips names that do not fit, duplicates, oversized schemas; the class from the config', () => {
    const { tools, warnings } = adapt([
      { name: 'peek', description: 'd', inputSchema: { type: 'object', properties: { p: { type: 'string' } } } },
      { name: 'do-it' },
      { name: 'has space' },
      { name: 'slash/name' },
      { name: 'ünï' },
      { name: 'x'.repeat(62) },
      { name: 'x'.repeat(61) },
      { name: 'peek' },
      { name: 'huge', inputSchema: { type: 'object', description: 'y'.repeat(MAX_SCHEMA_BYTES) } },
    ]);
    expect(tools.map((t) => [t.name, t.class])).toEqual([
      ['s__peek', 'read'],
      ['s__do-it', 'exec'],
      [`s__${'x'.repeat(61)}`, 'exec'],
    ]);
    expect(warnings).toHaveLength(6);
    expect(warnings.join('\n')).toMatch(/"has space" is not offered: its name has characters/);
    expect(warnings.join('\n')).toMatch(/is not offered: its name is too long/);
    expect(warnings.join('\n')).toMatch(/"peek" is listed twice/);
    expect(warnings.join('\n')).toMatch(/"huge" is not offered: its input schema is \d+ bytes/);
  });

  it(`offers at most ${MAX_TOOLS_PER_SERVER} tools of a server`, () => {
    const { tools, warnings } = adapt(Array.from({ length: 200 }, (_, i) => ({ name: `t${i}` })));
    expect(tools).toHaveLength(MAX_TOOLS_PER_SERVER);
    expect(warnings).toEqual([`72 tools past the first ${MAX_TOOLS_PER_SERVER} are not offered`]);
  });

  it('an input schema is always an object schema, without $schema', () => {
    expect(objectSchema(undefined)).toEqual({ type: 'object' });
    expect(objectSchema(['x'])).toEqual({ type: 'object' });
    expect(objectSchema({ $schema: 'http://json-schema.org/draft-07/schema#', type: 'string', properties: {} })).toEqual({ type: 'object', properties: {} });
  });

  it('a description is cut, never missing', () => {
    const { tools } = adapt([{ name: 'a', description: 'z'.repeat(10_000) }, { name: 'b', title: 'B title' }, { name: 'c' }]);
    expect(tools.map((t) => t.description.length)).toEqual([4096, 7, 0]);
  });

  it('a refused call changes nothing and says why; a call after the turn was aborted never reaches the server', async () => {
    const [tool] = adapt([{ name: 'a' }]).tools;
    const ac = new AbortController();
    ac.abort();
    expect(JSON.parse((await tool!.execute(toolContext({ signal: ac.signal }), {})).content)).toMatchObject({ code: 'aborted' });
    const failed = await tool!.execute(toolContext(), {});
    expect(JSON.parse(failed.content)).toMatchObject({ ok: false, code: 'tool_failed', error: 's__a failed unexpectedly: not called' });
  });
});

describe('a result as the model reads it', () => {
  it('joins text parts and describes the others by type and size', () => {
    expect(
      resultText({
        content: [
          { type: 'text', text: 'one' },
          { type: 'audio', mimeType: 'audio/wav', data: 'AAAA' },
          { type: 'resource', resource: { uri: 'file:///a.txt', text: 'inside' } },
          { type: 'resource', resource: { uri: 'file:///b.bin', mimeType: 'application/octet-stream', blob: 'AAECAw==' } },
          { type: 'resource_link', uri: 'file:///c', name: 'c' },
          { type: 'surprise' },
        ],
      }),
    ).toBe('one\n[audio audio/wav, 3 bytes]\n[resource file:///a.txt]\ninside\n[resource file:///b.bin application/octet-stream, 4 bytes]\n[resource link file:///c (c)]\n[surprise content]');
  });

  it('gives the structured content as JSON when there is no text', () => {
    expect(resultText({ content: [], structuredContent: { sum: 3 } })).toBe('{"sum":3}');
    expect(resultText({ content: [{ type: 'text', text: '3' }], structuredContent: { sum: 3 } })).toBe('3');
    expect(resultText({ toolResult: { old: true } })).toBe('{"old":true}');
    expect(resultText({})).toBe('');
  });
});

/** The CLI's tables: one header style for snake_case (control plane) and camelCase (inbox API) keys. */
import { describe, expect, it } from 'vitest';
import { header, table } from '../../src/cli/output.js';

describe('table headers', () => {
  it('render camelCase and snake_case keys alike, words joined by _', () => {
    expect(['agent_id', 'hostId', 'createdAt', 'consecutiveFailures', 'status', 'fire_count'].map(header)).toEqual([
      'AGENT_ID',
      'HOST_ID',
      'CREATED_AT',
      'CONSECUTIVE_FAILURES',
      'STATUS',
      'FIRE_COUNT',
    ]);
  });

  it('print the header above aligned cells', () => {
    expect(table([{ hostId: 'hst_1', createdAt: null }], ['hostId', 'createdAt'])).toBe('HOST_ID  CREATED_AT\nhst_1    -');
  });
});

/** Discovery routes, always open (docs/security.md#authentication). */
import type { Services } from '../../services.js';
import { defineRoute, type AnyRoute } from '../route.js';
import { AuthMethod, Handshake, RootResponse } from '../schemas/index.js';

const tags = ['discovery'];

export const CAPABILITIES = [
  'agents.list',
  'agents.state',
  'agents.events',
  'agents.control',
  'agents.create',
  'agents.delete',
  'agents.conversation',
  'agents.briefs',
  'ingress.enqueue',
  'models.catalog',
  'runtime.config',
  'runtime.metrics',
  'runtime.traces',
  'skills.catalog',
  // A terminal UI can attach over the control plane: `svc tui` (src/cli/control/tui.ts).
  'tui.remote',
];

export function discoveryRoutes(s: Services): AnyRoute[] {
  const bearer = () => s.config.controlToken !== '';
  return [
    defineRoute({
      method: 'GET',
      url: '/api',
      operationId: 'getServiceRoot',
      auth: 'open',
      tags,
      summary: 'Service root: the default agent id',
      responses: { 200: { description: 'Root', schema: RootResponse } },
      handler: () => ({ ok: true, default_agent: s.agents.defaultAgentId }),
    }),
    defineRoute({
      method: 'GET',
      url: '/api/handshake',
      auth: 'open',
      tags,
      summary: 'Protocol, auth mode, capabilities and runtime facts',
      responses: { 200: { description: 'Handshake', schema: Handshake } },
      handler: () => ({
        ok: true,
        protocol: { name: 'svc-control', version: 1 },
        auth: { mode: bearer() ? 'bearer' : 'local', required: bearer(), ...(s.browserAuth ? { session: 'oidc' as const } : {}) },
        capabilities: CAPABILITIES,
        runtime: {
          default_agent: s.agents.defaultAgentId,
          workspace_dir: s.agents.homeOf(s.agents.defaultAgentId),
          home_dir: s.config.home,
          listen: s.endpoints.listen,
          advertise_url: s.config.values.runtime.advertise_url || null,
        },
      }),
    }),
    defineRoute({
      method: 'GET',
      url: '/api/auth/method',
      auth: 'open',
      tags,
      summary: 'Browser authentication method: oidc when [auth.oidc] is configured (sign in at /api/auth/login), else local',
      responses: { 200: { description: 'Method', schema: AuthMethod } },
      handler: () => ({ mode: s.browserAuth ? 'oidc' : 'local' }),
    }),
  ];
}

/**
 * Credential profiles (`GET/PUT/DELETE /api/control/runtime/credentials[/:profile]`): the real
 * system's routes over svc's credential store. Material goes in, never out; the answers name the
 * config keys, inbox hosts and sources that use each profile. Control auth on every route, reads included: even the list of
 * names says which services the user has keys for.
 */
import { credentialReferences } from '../../config/index.js';
import { errors } from '../../core/index.js';
import type { Services } from '../../services.js';
import { CredentialStoreError, type CredentialStatus } from '../../store/index.js';
import { inboxCredentialUses } from '../../inbox/sources/index.js';
import { defineRoute, type AnyRoute } from '../route.js';
import { CredentialListResponse, CredentialParams, CredentialResponse, SetCredentialBody } from '../schemas/index.js';

const tags = ['runtime'];

/** A store that cannot be used (group-readable file, bad JSON) is a 409 naming the file and the fix. */
function usingStore<T>(fn: () => T): T {
  try {
    return fn();
  } catch (err) {
    if (err instanceof CredentialStoreError) throw errors.credentialStoreUnusable(err.message);
    throw err;
  }
}

/** Every place that names a profile: config keys, then inbox hosts and sources. */
function credentialUses(s: Services): Map<string, string[]> {
  const uses = credentialReferences(s.config.values);
  for (const [profile, by] of inboxCredentialUses(s.inbox.hosts.list(), s.inbox.sources.list())) uses.set(profile, [...(uses.get(profile) ?? []), ...by]);
  return uses;
}

export function credentialRoutes(s: Services): AnyRoute[] {
  const view = (c: CredentialStatus, uses = credentialUses(s)) => ({ ...c, used_by: uses.get(c.profile) ?? [] });
  return [
    defineRoute({
      method: 'GET',
      url: '/api/control/runtime/credentials',
      auth: 'control',
      tags,
      summary: 'Credential profiles: stored ones and those the config names, without their material',
      responses: { 200: { description: 'Profiles', schema: CredentialListResponse } },
      handler: () => {
        const uses = credentialUses(s);
        return { ok: true, profiles: usingStore(() => s.credentials.list(uses.keys())).map((c) => view(c, uses)) };
      },
    }),
    defineRoute({
      method: 'PUT',
      url: '/api/control/runtime/credentials/:profile',
      errors: { 404: [], 409: ['credential_store_unusable'] },
      bodyExample: { kind: 'api_key', material: 'sk-example-0000' },
      auth: 'control',
      tags,
      summary: 'Store (or replace) a credential profile',
      description:
        'Writes `<home>/credentials.json` (0600, atomically). A provider naming the profile with `credential_profile` uses it from its next request, without a restart; the OTLP exporter reads its profile at start.',
      params: CredentialParams,
      body: SetCredentialBody,
      responses: { 200: { description: 'Stored', schema: CredentialResponse } },
      handler: ({ params, body }) => {
        const stored = usingStore(() => s.credentials.put(params.profile, body.kind, body.material));
        s.logger.info({ profile: params.profile, kind: body.kind }, 'credential profile stored');
        return { ok: true, profile: view(stored) };
      },
    }),
    defineRoute({
      method: 'DELETE',
      url: '/api/control/runtime/credentials/:profile',
      errors: { 409: ['credential_store_unusable'] },
      auth: 'control',
      tags,
      summary: 'Remove a credential profile (404 credential_not_found when it is not stored)',
      params: CredentialParams,
      responses: { 200: { description: 'Removed', schema: CredentialResponse } },
      handler: ({ params }) => {
        const removed = usingStore(() => s.credentials.delete(params.profile));
        if (!removed) throw errors.credentialNotFound(params.profile);
        s.logger.info({ profile: params.profile }, 'credential profile removed');
        return { ok: true, profile: view(removed) };
      },
    }),
  ];
}

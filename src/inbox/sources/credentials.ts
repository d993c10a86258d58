/**
 * Which credential a managed source's module gets (docs/inbox-api.md#credentials-for-hosts), from
 * the one credential store (`<home>/credentials.json`, src/store/credentials.ts):
 * - the source's `configRef` when it has the form `credential:<profile>` (a per-source override);
 * - else the host config's `credentialRef: "<profile>"`;
 * - else none. Any other configRef is an opaque reference handed to the module as before.
 * The store is read at every module call, so a stored or replaced secret works from the next poll
 * without a restart. A named profile that is not stored, or a store that cannot be used, is a
 * failure whose message names the profile and where it was named, never a secret.
 */
import { CredentialStoreError, type CredentialStore } from '../../store/index.js';
import type { ModuleCredential } from './worker.js';

export const CONFIG_REF_CREDENTIAL = 'credential:';

export type CredentialResolution = { ok: true; credential: ModuleCredential | null } | { ok: false; error: string };

interface Reference {
  profile: string;
  /** Where it was named, for messages. */
  namedBy: string;
}

export function credentialReference(host: { hostId: string; config: Record<string, unknown> }, configRef: string | null): Reference | null {
  if (configRef?.startsWith(CONFIG_REF_CREDENTIAL)) return { profile: configRef.slice(CONFIG_REF_CREDENTIAL.length), namedBy: "the source's configRef" };
  const ref = host.config.credentialRef;
  return typeof ref === 'string' && ref !== '' ? { profile: ref, namedBy: `credentialRef of host ${host.hostId}` } : null;
}

export class SourceCredentials {
  constructor(private readonly store: CredentialStore) {}

  resolve(host: { hostId: string; config: Record<string, unknown> }, configRef: string | null): CredentialResolution {
    const ref = credentialReference(host, configRef);
    if (!ref) return { ok: true, credential: null };
    const found = this.lookup(ref.profile);
    if (!found.ok) return { ok: false, error: `${found.error} (named by ${ref.namedBy})` };
    return found;
  }

  /** A profile's secret by name (webhook secrets); a failure names the profile. */
  lookup(profile: string): { ok: true; credential: ModuleCredential } | { ok: false; error: string } {
    try {
      const status = this.store.status(profile);
      const secret = this.store.token(profile);
      if (!status || secret === null) return { ok: false, error: `credential profile ${JSON.stringify(profile)} is not stored (svc credentials set ${profile})` };
      return { ok: true, credential: { profile, kind: status.kind, secret } };
    } catch (err) {
      if (err instanceof CredentialStoreError) return { ok: false, error: `the credential store cannot be used: ${err.message}` };
      throw err;
    }
  }
}

/**
 * Which inbox hosts and sources name each credential profile (GET /api/control/runtime/credentials
 * `used_by`): a host's credentialRef, a source's `credential:` configRef and its webhookSecretRef.
 */
export function inboxCredentialUses(
  hosts: Array<{ hostId: string; config: Record<string, unknown> }>,
  sources: Array<{ sourceId: string; config: Record<string, unknown>; configRef: string | null }>,
): Map<string, string[]> {
  const uses = new Map<string, string[]>();
  const add = (profile: unknown, by: string) => {
    if (typeof profile === 'string' && profile !== '') uses.set(profile, [...(uses.get(profile) ?? []), by]);
  };
  for (const h of hosts) add(h.config.credentialRef, `inbox host ${h.hostId} credentialRef`);
  for (const src of sources) {
    if (src.configRef?.startsWith(CONFIG_REF_CREDENTIAL)) add(src.configRef.slice(CONFIG_REF_CREDENTIAL.length), `inbox source ${src.sourceId} configRef`);
    add(src.config.webhookSecretRef, `inbox source ${src.sourceId} webhookSecretRef`);
  }
  return uses;
}

/**
 * Credential profiles (docs/configuration.md#credential-profiles): names and status only, never the
 * material.
 */
import { z } from 'zod';
import { PROFILE_NAME } from '../../core/index.js';
import { CREDENTIAL_KINDS, MATERIAL_MAX_BYTES } from '../../store/index.js';

export const CredentialParams = z.object({
  profile: z.string().regex(PROFILE_NAME, 'a profile name: letters, digits, . _ : - (at most 64, starting with a letter or digit)'),
});

export const SetCredentialBody = z
  .strictObject({
    kind: z.enum(CREDENTIAL_KINDS).openapi({ description: 'api_key (a provider key) or bearer_token (sent as Authorization: Bearer)' }),
    material: z
      .string()
      .min(1, 'the material must not be empty')
      .refine((v) => Buffer.byteLength(v) <= MATERIAL_MAX_BYTES, `at most ${MATERIAL_MAX_BYTES} bytes`)
      // eslint-disable-next-line no-control-regex
      .refine((v) => !/[\u0000-\u001f\u007f]/.test(v), 'control characters (newlines included) are never part of a key or token')
      .openapi({ description: 'the key or token; stored in <home>/credentials.json (0600) and never returned' }),
  })
  .openapi('SetCredentialRequest');

export const CredentialProfile = z
  .object({
    profile: z.string(),
    kind: z.enum(CREDENTIAL_KINDS),
    configured: z.boolean().openapi({ description: 'false: named by the config but not stored (or just deleted)' }),
    updated_at: z.string().nullable(),
    used_by: z.array(z.string()).openapi({
      description: 'what names this profile: config keys (providers.NAME.credential_profile, runtime.observability.otlp.credential_profile), inbox hosts (credentialRef) and sources (configRef credential:NAME, webhookSecretRef)',
    }),
  })
  .openapi('CredentialProfile');

export const CredentialListResponse = z.object({ ok: z.literal(true), profiles: z.array(CredentialProfile) }).openapi('CredentialListResponse');
export const CredentialResponse = z.object({ ok: z.literal(true), profile: CredentialProfile }).openapi('CredentialResponse');

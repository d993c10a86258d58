/**
 * The provider registry: model refs `provider/model` resolve to a provider instance and the model
 * name inside it (the model part may itself contain `/`). `builtin` is always there
 * (builtin/echo); each `[providers.NAME]` config entry adds an openai- or anthropic-kind provider
 * (the config schema refuses the name `builtin`). Tests inject fetch, sleep and the environment
 * through `TransportOptions`.
 */
import type { ResolvedConfig } from '../../config/index.js';
import { AnthropicProvider, EchoProvider, OpenAIProvider, type TransportOptions, type ModelProvider } from '../providers/index.js';

export const BUILTIN_PROVIDER = 'builtin';

/** A configured provider as status routes show it: never the key, only the variable's name and whether it is set. */
export interface ProviderInfo {
  name: string;
  kind: string;
  base_url: string;
  models: string[];
  api_key_env: string;
  /** The credential store profile holding the key ('' = none; exclusive with api_key_env). */
  credential_profile: string;
  /** `not_required` (neither named), `set`, or `missing` (requests fail with missing_api_key). */
  api_key: 'not_required' | 'set' | 'missing';
}

export class ProviderRegistry {
  private readonly providers = new Map<string, ModelProvider>();

  constructor(
    private readonly config: ResolvedConfig,
    private readonly opts: TransportOptions = {},
  ) {
    const echo = new EchoProvider();
    this.providers.set(echo.name, echo);
    const m = config.values.model;
    const limits = {
      maxLineBytes: m.stream_max_line_bytes,
      maxReplyBytes: m.max_reply_bytes,
      idleTimeoutMs: m.stream_idle_timeout_ms,
      roundDeadlineMs: m.round_deadline_ms,
      ...opts.limits,
    };
    for (const [name, p] of Object.entries(config.values.providers)) {
      const settings = { base_url: p.base_url, api_key_env: p.api_key_env, credential_profile: p.credential_profile };
      const o = { ...opts, limits };
      this.providers.set(name, p.kind === 'anthropic' ? new AnthropicProvider(name, settings, o) : new OpenAIProvider(name, settings, o));
    }
  }

  /** Add (or replace) a provider by its name; tests register scripted providers this way. */
  register(provider: ModelProvider): void {
    this.providers.set(provider.name, provider);
  }

  all(): ModelProvider[] {
    return [...this.providers.values()];
  }

  get(name: string): ModelProvider | undefined {
    return this.providers.get(name);
  }

  /** `provider/model` → the provider and the model name; null when the provider is unknown. */
  resolve(modelRef: string): { provider: ModelProvider; model: string } | null {
    const ref = splitModelRef(modelRef);
    const provider = ref && this.providers.get(ref.provider);
    return provider ? { provider, model: ref.model } : null;
  }

  /** The configured providers (not builtin), in config order. */
  configured(): ProviderInfo[] {
    const env = this.opts.env ?? process.env;
    return Object.entries(this.config.values.providers).map(([name, p]) => ({
      name,
      kind: p.kind,
      base_url: p.base_url,
      models: [...p.models],
      api_key_env: p.api_key_env,
      credential_profile: p.credential_profile,
      api_key: p.credential_profile ? (this.profileStored(p.credential_profile) ? 'set' : 'missing') : p.api_key_env === '' ? 'not_required' : env[p.api_key_env] ? 'set' : 'missing',
    }));
  }

  private profileStored(profile: string): boolean {
    try {
      return this.opts.credentials?.status(profile) != null;
    } catch {
      return false; // an unusable store (mode, JSON) answers through the credentials routes
    }
  }
}

/** `provider/model` split at the first slash; null when either part is empty. */
export function splitModelRef(modelRef: string): { provider: string; model: string } | null {
  const slash = modelRef.indexOf('/');
  if (slash <= 0 || slash === modelRef.length - 1) return null;
  return { provider: modelRef.slice(0, slash), model: modelRef.slice(slash + 1) };
}

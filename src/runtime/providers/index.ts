/**
 * The provider registry: model refs `provider/model` resolve to a provider instance and the model
 * name inside it. `builtin` is always there (builtin/echo); `[providers.NAME]` config entries add
 * openai- and anthropic-kind providers.
 */
import type { ResolvedConfig } from '../../config/load.js';
import { EchoProvider } from './echo.js';
import type { ModelProvider } from './types.js';

export class ProviderRegistry {
  private readonly providers = new Map<string, ModelProvider>();

  constructor(_config: ResolvedConfig) {
    const echo = new EchoProvider();
    this.providers.set(echo.name, echo);
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
    const slash = modelRef.indexOf('/');
    if (slash <= 0 || slash === modelRef.length - 1) return null;
    const provider = this.providers.get(modelRef.slice(0, slash));
    return provider ? { provider, model: modelRef.slice(slash + 1) } : null;
  }
}

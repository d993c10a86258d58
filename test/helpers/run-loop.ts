/** What the run loop's unit tests share: a scripted model provider, a gate, and polling for a condition. */
import type { CompletionRequest, CompletionResult, ModelProvider } from '../../src/runtime/providers/types.js';
import type { Services } from '../../src/services.js';

/** A provider whose rounds the test scripts: each call takes the next step (or answers "done"). */
export class ScriptProvider implements ModelProvider {
  readonly name = 'test';
  readonly kind = 'test';
  readonly requests: CompletionRequest[] = [];
  steps: Array<(req: CompletionRequest) => Promise<CompletionResult> | CompletionResult> = [];
  async complete(req: CompletionRequest): Promise<CompletionResult> {
    this.requests.push({ ...req, messages: [...req.messages] });
    const step = this.steps.shift();
    return step ? step(req) : { text: 'done', toolCalls: [], stopReason: 'stop' };
  }
  async listModels(): Promise<string[]> {
    return ['m'];
  }
}

/** The default agent on a ScriptProvider (model test/m). */
export function scriptedAgent(s: Services): ScriptProvider {
  const provider = new ScriptProvider();
  s.providers.register(provider);
  s.store.tx(() => {
    s.agents.ensureDefault();
    s.agents.setModelOverride('main', 'test/m');
  });
  return provider;
}

export function gate() {
  let open!: () => void;
  const opened = new Promise<void>((r) => (open = r));
  return { open, opened };
}

export async function until(cond: () => boolean, what = 'condition', ms = 5000): Promise<void> {
  const end = Date.now() + ms;
  while (!cond()) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 2));
  }
}

/**
 * The console served at `/` (src/http/pages/console.ts): one page over the control plane's own
 * API, same origin, behind the same auth. Hash routes:
 *   #/                        agents
 *   #/agents/ID[/TAB]         one agent: live events, conversation, briefs, tasks, timers, work items, prompt
 *   #/inbox[/AGENT]           inbox: sources, subscriptions, agents; an inbox agent's entries with ack
 */
import { render } from 'preact';
import { useEffect, useState } from 'preact/hooks';
import { AgentPage } from './agent-page.js';
import { AgentsPage } from './agents-page.js';
import { ApiError, get, onSignedOut, post } from './api.js';
import { InboxPage } from './inbox-page.js';
import { SignIn } from './sign-in.js';
import type { Handshake, SessionInfo } from './types.js';
import { ActionButton, ErrorNote, href, useRoute } from './ui.js';

type Gate = { state: 'loading' } | { state: 'error'; error: ApiError } | { state: 'sign-in'; handshake: Handshake } | { state: 'ready'; handshake: Handshake; session: SessionInfo | null };

/** Whether this browser may use the API: local mode without OIDC needs nothing; otherwise a session. */
async function check(): Promise<Gate> {
  const handshake = await get<Handshake>('/api/handshake');
  const needsSession = handshake.auth.mode === 'bearer' || handshake.auth.session === 'oidc';
  if (!needsSession) return { state: 'ready', handshake, session: null };
  try {
    return { state: 'ready', handshake, session: await get<SessionInfo>('/api/auth/session') };
  } catch (err) {
    if (err instanceof ApiError && err.status === 401) return { state: 'sign-in', handshake };
    throw err;
  }
}

function App() {
  const [gate, setGate] = useState<Gate>({ state: 'loading' });
  const recheck = () =>
    check().then(setGate, (error: unknown) => setGate({ state: 'error', error: error instanceof ApiError ? error : new ApiError(0, 'error', String(error)) }));
  useEffect(() => {
    onSignedOut(() => void recheck());
    void recheck();
  }, []);
  if (gate.state === 'loading') return <p class="muted">Connecting…</p>;
  if (gate.state === 'error') return <ErrorNote error={gate.error} />;
  if (gate.state === 'sign-in') return <SignIn handshake={gate.handshake} onSignedIn={() => void recheck()} />;
  return <Shell handshake={gate.handshake} session={gate.session} onSignOut={recheck} />;
}

function Shell({ handshake, session, onSignOut }: { handshake: Handshake; session: SessionInfo | null; onSignOut: () => Promise<void> }) {
  const route = useRoute();
  const [section, id, tab] = route;
  let page;
  if (section === 'agents' && id) page = <AgentPage agentId={id} tab={tab ?? 'events'} />;
  else if (section === 'inbox') page = <InboxPage agentId={id ?? null} />;
  else page = <AgentsPage defaultAgent={handshake.runtime.default_agent} />;
  return (
    <>
      <header class="top">
        <a class="brand" href={href()}>
          svc
        </a>
        <nav>
          <a href={href()} aria-current={section !== 'inbox' ? 'page' : undefined}>
            Agents
          </a>
          <a href={href('inbox')} aria-current={section === 'inbox' ? 'page' : undefined}>
            Inbox
          </a>
          <a href="/docs">API reference</a>
        </nav>
        <span class="who muted">
          {handshake.auth.mode} mode · {handshake.runtime.listen}
          {session && (
            <>
              {' '}
              · signed in ({session.kind}){' '}
              <ActionButton
                label="Sign out"
                action={async () => {
                  await post('/api/auth/logout');
                  await onSignOut();
                }}
              />
            </>
          )}
        </span>
      </header>
      {page}
    </>
  );
}

render(<App />, document.getElementById('app')!);

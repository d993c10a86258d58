/**
 * Sign-in (bearer mode, or local mode with OIDC): the control token goes to POST /api/auth/token
 * once and comes back as an HttpOnly session cookie; the page keeps nothing. With [auth.oidc]
 * there is also the provider's sign-in.
 */
import { post } from './api.js';
import type { Handshake } from './types.js';
import { ActionForm, field } from './ui.js';

export function SignIn({ handshake, onSignedIn }: { handshake: Handshake; onSignedIn: () => void }) {
  const bearer = handshake.auth.mode === 'bearer';
  const returnTo = encodeURIComponent(location.pathname + location.hash);
  return (
    <main class="sign-in">
      <h1>svc console</h1>
      {bearer && (
        <ActionForm
          name="token-sign-in"
          label="Sign in"
          action={async (data) => {
            await post('/api/auth/token', { token: field(data, 'token') });
            onSignedIn();
          }}
        >
          <label>
            Control token
            <input name="token" type="password" autocomplete="current-password" required />
          </label>
          <p class="muted">The token is exchanged for a session cookie; the page does not keep it.</p>
        </ActionForm>
      )}
      {handshake.auth.session === 'oidc' && (
        <p>
          <a class="button" href={`/api/auth/login?return_to=${returnTo}`}>
            Sign in with your identity provider
          </a>
        </p>
      )}
    </main>
  );
}

/** `POST /follow`: AgentInbox's follow templates (docs/agentinbox.md#follow). */
import type { Services } from '../../services.js';
import { defineRoute, type AnyRoute } from '../route.js';
import { FollowBody, FollowResult } from '../schemas/inbox/index.js';

export function inboxFollowRoutes(s: Services): AnyRoute[] {
  const { follow } = s.inbox;
  return [
    defineRoute({
      method: 'POST',
      url: '/follow',
      operationId: 'follow',
      errors: { 400: ['unknown_follow_template', 'invalid_filter'], 404: ['agent_not_found'], 409: ['history_unavailable'] },
      bodyExample: { agentId: 'agt_01JB8Y5N3P0G1XQ2E7R9D4V6KT', providerOrKind: 'github', template: 'pr', templateArgs: { owner: 'octo', repo: 'hello', number: 7 } },
      auth: 'control',
      tags: ['follow'],
      summary: 'Follow a repository, pull request or issue: ensure its github host, streams and subscriptions',
      description:
        "Templates github.repo (owner, repo), github.pr (owner, repo, number, withCi?) and github.issue (owner, repo, number). Streams are reused by kind and streamKey on any github host, else created (repo_events: issues, pull requests and comments; ci_runs: workflow runs) on the github host whose config has the same credentialRef and apiBaseUrl, or on a new one; the agent's subscriptions are reused when equal, else created in one transaction. Answers AgentInbox's {templateId, agentId, sources, subscriptions} (each with created) and svc's host. Template arguments are checked first (400 invalid_request naming templateArgs.<name>); an unknown agent is 404 before anything is created.",
      body: FollowBody,
      responses: { 200: { description: 'What was ensured', schema: FollowResult } },
      handler: ({ body }) => follow.follow(body),
    }),
  ];
}

/**
 * Agent deletion as a durable background job (docs/control-plane-api.md#agents). The request marks
 * the agent `deleting` and records a job; the job then walks its phases, persisting each one, so a
 * daemon that dies mid-deletion resumes it at the next start. A failed phase leaves the job
 * `failed` and the agent `deleting`: creating the id again answers 409 deletion_incomplete
 * until a new DELETE completes.
 */
import fs from 'node:fs';
import type { Logger } from 'pino';
import { errors } from '../../core/index.js';
import type { EventLog } from '../../events/index.js';
import type { Store } from '../../store/index.js';
import type { AgentService } from './agents.js';
import type { Job, JobStore } from '../jobs.js';
import type { MessageQueue } from './queue.js';

export const DELETION_JOB_KIND = 'agent_delete';
export const DELETION_PHASES = ['stopping', 'purging_queue', 'purging_events', 'removing_files', 'finalizing'] as const;
export type DeletionPhase = (typeof DELETION_PHASES)[number];

/** Something that holds live state for an agent (run loop, tasks, timers, streams) and must let go. */
export type StopHook = (agentId: string) => void | Promise<void>;

export interface DeletionDeps {
  store: Store;
  agents: AgentService;
  queue: MessageQueue;
  events: EventLog;
  jobs: JobStore;
  logger: Logger;
}

export class AgentDeletion {
  private readonly stopHooks: StopHook[] = [];
  private readonly running = new Map<string, Promise<void>>();

  constructor(private readonly deps: DeletionDeps) {}

  /** Register a holder of per-agent live state; called in the `stopping` phase. */
  onStop(hook: StopHook): void {
    this.stopHooks.push(hook);
  }

  latestJob(agentId: string): Job | null {
    return this.deps.jobs.latestFor(agentId, DELETION_JOB_KIND);
  }

  /** Start (or join) the deletion of an agent; returns its job. */
  request(agentId: string, opts: { cascadePrivateChildren: boolean }): Job {
    const { agents, store, jobs, events } = this.deps;
    const agent = agents.get(agentId);
    if (agentId === agents.defaultAgentId) throw errors.defaultAgentProtected(agentId);
    const privateChildren = agents.children(agentId).filter((c) => c.visibility === 'private').map((c) => c.agent_id);
    if (privateChildren.length > 0 && !opts.cascadePrivateChildren) throw errors.privateChildrenExist(agentId, privateChildren);

    if (agent.status === 'deleting') {
      const current = this.latestJob(agentId);
      if (current && (current.status === 'pending' || current.status === 'running')) return current;
    }
    const job = store.tx(() => {
      agents.setStatus(agentId, 'deleting');
      const created = jobs.create(DELETION_JOB_KIND, agentId, { cascade_private_children: opts.cascadePrivateChildren, incarnation: agent.incarnation });
      events.append(agentId, 'agent_deletion_requested', { agent_id: agentId, job_id: created.job_id, incarnation: agent.incarnation });
      return created;
    });
    for (const child of privateChildren) this.request(child, opts);
    this.start(job);
    return job;
  }

  /** Resume deletions that a previous daemon left unfinished. */
  resumeUnfinished(): void {
    for (const job of this.deps.jobs.unfinished(DELETION_JOB_KIND)) this.start(job);
  }

  /** Wait for every running deletion (shutdown, tests). */
  async idle(): Promise<void> {
    await Promise.allSettled([...this.running.values()]);
  }

  private start(job: Job): void {
    const run = new Promise<void>((resolve) => setImmediate(resolve))
      .then(() => this.run(job))
      .finally(() => this.running.delete(job.job_id));
    this.running.set(job.job_id, run);
  }

  private async run(job: Job): Promise<void> {
    const { jobs, logger } = this.deps;
    const agentId = job.agent_id!;
    const startAt = Math.max(0, DELETION_PHASES.indexOf((job.phase ?? 'stopping') as DeletionPhase));
    for (const phase of DELETION_PHASES.slice(startAt)) {
      jobs.update(job.job_id, { status: 'running', phase });
      try {
        await this.runPhase(agentId, phase);
      } catch (err) {
        const message = `${phase}: ${(err as Error).message}`;
        logger.error({ agent_id: agentId, job_id: job.job_id, err }, 'agent deletion failed');
        jobs.update(job.job_id, { status: 'failed', error: message });
        return;
      }
    }
  }

  private async runPhase(agentId: string, phase: DeletionPhase): Promise<void> {
    const { store, agents, queue, events, jobs } = this.deps;
    switch (phase) {
      case 'stopping':
        for (const hook of this.stopHooks) await hook(agentId);
        return;
      case 'purging_queue':
        store.tx(() => queue.purge(agentId));
        return;
      case 'purging_events':
        store.tx(() => events.purge(agentId));
        return;
      case 'removing_files':
        await fs.promises.rm(agents.homeOf(agentId), { recursive: true, force: true });
        return;
      case 'finalizing':
        store.tx(() => {
          agents.remove(agentId);
          const job = this.latestJob(agentId)!;
          jobs.update(job.job_id, { status: 'completed', phase: 'finalizing', error: null });
        });
        return;
    }
  }
}

/**
 * Background jobs (agent deletion now; skill installs later): a durable row per job with status
 * `pending | running | completed | failed`, a phase and progress, readable at GET /api/jobs/:id.
 */
import type Database from 'better-sqlite3';
import { isoAt, type Clock, errors, type IdGenerator } from '../core/index.js';
import type { Store } from '../store/index.js';

export type JobStatus = 'pending' | 'running' | 'completed' | 'failed';

export interface Job {
  job_id: string;
  kind: string;
  agent_id: string | null;
  status: JobStatus;
  phase: string | null;
  progress: Record<string, unknown> | null;
  params: Record<string, unknown>;
  result: Record<string, unknown> | null;
  error: string | null;
  created_at: string;
  updated_at: string;
}

interface JobRow extends Omit<Job, 'progress' | 'params' | 'result'> {
  progress: string | null;
  params: string;
  result: string | null;
}

export interface JobPatch {
  status?: JobStatus;
  phase?: string | null;
  progress?: Record<string, unknown> | null;
  result?: Record<string, unknown> | null;
  error?: string | null;
}

export class JobStore {
  private readonly stmt;

  constructor(private readonly deps: { store: Store; clock: Clock; ids: IdGenerator }) {
    const db: Database.Database = deps.store.db;
    this.stmt = {
      insert: db.prepare(
        `INSERT INTO jobs (job_id, kind, agent_id, status, phase, progress, params, result, error, created_at, updated_at)
         VALUES (@job_id, @kind, @agent_id, @status, @phase, @progress, @params, @result, @error, @created_at, @updated_at)`,
      ),
      get: db.prepare('SELECT * FROM jobs WHERE job_id = ?'),
      update: db.prepare(
        'UPDATE jobs SET status = @status, phase = @phase, progress = @progress, result = @result, error = @error, updated_at = @updated_at WHERE job_id = @job_id',
      ),
      latestFor: db.prepare('SELECT * FROM jobs WHERE agent_id = ? AND kind = ? ORDER BY created_at DESC, job_id DESC LIMIT 1'),
      unfinished: db.prepare("SELECT * FROM jobs WHERE kind = ? AND status IN ('pending', 'running') ORDER BY created_at"),
    };
  }

  create(kind: string, agentId: string | null, params: Record<string, unknown> = {}, phase: string | null = null): Job {
    const now = isoAt(this.deps.clock.now());
    const job: Job = {
      job_id: this.deps.ids.make('job'),
      kind,
      agent_id: agentId,
      status: 'pending',
      phase,
      progress: null,
      params,
      result: null,
      error: null,
      created_at: now,
      updated_at: now,
    };
    this.stmt.insert.run(toRow(job));
    return job;
  }

  find(jobId: string): Job | null {
    const row = this.stmt.get.get(jobId) as JobRow | undefined;
    return row ? fromRow(row) : null;
  }

  get(jobId: string): Job {
    const job = this.find(jobId);
    if (!job) throw errors.jobNotFound(jobId, { job_id: jobId });
    return job;
  }

  update(jobId: string, patch: JobPatch): Job {
    const job = { ...this.get(jobId), ...patch, updated_at: isoAt(this.deps.clock.now()) };
    this.stmt.update.run(toRow(job));
    return job;
  }

  latestFor(agentId: string, kind: string): Job | null {
    const row = this.stmt.latestFor.get(agentId, kind) as JobRow | undefined;
    return row ? fromRow(row) : null;
  }

  unfinished(kind: string): Job[] {
    return (this.stmt.unfinished.all(kind) as JobRow[]).map(fromRow);
  }
}

const json = (v: unknown) => (v === null || v === undefined ? null : JSON.stringify(v));

function toRow(job: Job) {
  return { ...job, progress: json(job.progress), params: JSON.stringify(job.params), result: json(job.result) };
}

function fromRow(row: JobRow): Job {
  return {
    ...row,
    progress: row.progress ? JSON.parse(row.progress) : null,
    params: JSON.parse(row.params),
    result: row.result ? JSON.parse(row.result) : null,
  };
}

/** The public shape of a job (docs/control-plane-api.md#agents and docs/control-plane-api.md#skills). */
export function jobView(job: Job) {
  const done = job.status === 'completed' || job.status === 'failed';
  return {
    job_id: job.job_id,
    // The real system's names beside svc's (docs/holon-gui.md).
    id: job.job_id,
    last_error: job.error,
    completed_at: done ? job.updated_at : null,
    kind: job.kind,
    agent_id: job.agent_id,
    status: job.status,
    phase: job.phase,
    progress: job.progress,
    result: job.result,
    error: job.error,
    created_at: job.created_at,
    updated_at: job.updated_at,
  };
}

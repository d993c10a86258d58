/**
 * The agent's tool executions: one row per call (tool, status, classes, trust, duration), and per
 * call its arguments, its result as the model read it, and its artifacts (a diff, a fetched page,
 * a result too long for the prompt), loaded on demand. The events tab opens the same detail from
 * any event that names a tool execution.
 */
import { useState } from 'preact/hooks';
import { enc, get, qs } from './api.js';
import type { ToolArtifact, ToolExecution } from './types.js';
import { ErrorNote, ResourceTable, Status, Time, useResource } from './ui.js';

/** An artifact shows this many characters at first (the rest on demand). */
const ARTIFACT_CHARS = 200_000;

const base = (agentId: string) => `/api/agents/${enc(agentId)}/tool-executions`;

export function ToolsPanel({ agentId, version }: { agentId: string; version: number }) {
  const list = useResource(() => get<{ tool_executions: ToolExecution[] }>(base(agentId) + qs({ limit: 100 })), [agentId, version]);
  const [open, setOpen] = useState<string | null>(null);
  return (
    <section>
      <ResourceTable
        resource={list}
        rows={(d) => d.tool_executions}
        rowKey={(x) => x.id}
        empty="No tool calls yet."
        columns={[
          ['Tool', (x) => <button type="button" class="link" onClick={() => setOpen(open === x.id ? null : x.id)}>{x.tool_name}</button>],
          ['Status', (x) => <Status value={x.status} />],
          ['Classes', (x) => x.classes.join(' ')],
          ['Trust', (x) => x.trust],
          ['Took', (x) => `${x.duration_ms} ms`],
          ['Artifacts', (x) => x.artifacts.length || ''],
          ['At', (x) => <Time at={x.created_at} />],
        ]}
      />
      {open && <ExecutionDetail agentId={agentId} executionId={open} />}
    </section>
  );
}

/** One tool execution: arguments, result, artifacts. */
export function ExecutionDetail({ agentId, executionId }: { agentId: string; executionId: string }) {
  const x = useResource(() => get<ToolExecution>(`${base(agentId)}/${enc(executionId)}`), [agentId, executionId]);
  const e = x.data;
  return (
    <div class="execution" data-execution={executionId}>
      <ErrorNote error={x.error} />
      {e && (
        <>
          <p class="facts">
            <strong>{e.tool_name}</strong> <Status value={e.status} /> {e.error_code && <code>{e.error_code}</code>} · round {e.round} · {e.duration_ms} ms ·{' '}
            {e.output_bytes ?? 0} bytes{e.output_truncated ? ' (excerpt)' : ''}
          </p>
          <p class="muted">Arguments</p>
          <pre class="input">{JSON.stringify(e.input, null, 2)}</pre>
          <p class="muted">Result</p>
          <pre class="output">{typeof e.output === 'string' ? e.output : JSON.stringify(e.output, null, 2)}</pre>
          {e.artifacts.map((a) => (
            <Artifact key={a.index} agentId={agentId} executionId={executionId} index={a.index} label={`${a.kind}: ${a.name} (${a.size} bytes${a.truncated ? ', cut' : ''})`} />
          ))}
        </>
      )}
    </div>
  );
}

function Artifact({ agentId, executionId, index, label }: { agentId: string; executionId: string; index: number; label: string }) {
  const [shown, setShown] = useState(false);
  return (
    <details class="artifact" onToggle={(ev) => setShown((ev.currentTarget as HTMLDetailsElement).open)}>
      <summary>{label}</summary>
      {shown && <ArtifactContent agentId={agentId} executionId={executionId} index={index} />}
    </details>
  );
}

function ArtifactContent({ agentId, executionId, index }: { agentId: string; executionId: string; index: number }) {
  const a = useResource(() => get<ToolArtifact>(`${base(agentId)}/${enc(executionId)}/artifacts/${index}` + qs({ max_chars: ARTIFACT_CHARS })), [agentId, executionId, index]);
  return (
    <>
      <ErrorNote error={a.error} />
      {a.data && (a.data.kind === 'diff' ? <Diff text={a.data.content} /> : <pre>{a.data.content}</pre>)}
      {a.data?.next_offset != null && <p class="muted">The first {ARTIFACT_CHARS} characters of {a.data.size} bytes.</p>}
    </>
  );
}

/** A unified diff with its added and removed lines marked. */
export function Diff({ text }: { text: string }) {
  return (
    <pre class="diff">
      {text.split('\n').map((line, i) => (
        <span key={i} class={line.startsWith('+') && !line.startsWith('+++') ? 'add' : line.startsWith('-') && !line.startsWith('---') ? 'del' : undefined}>
          {line}
          {'\n'}
        </span>
      ))}
    </pre>
  );
}

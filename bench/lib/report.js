/**
 * Renders scenario results: a console table, a markdown table for docs/benchmarks.md, and the JSON
 * record.
 */

const mark = (ok) => (ok === undefined ? '' : ok ? 'yes' : 'NO');

export function environmentLine(env) {
  return `Node ${env.node} · ${env.cpus} × ${env.cpu_model} · ${env.platform} ${env.os_release} · temp home on ${env.tmp_fs} · svc ${env.commit} · ${env.date}`;
}

export function markdown(env, results) {
  const lines = [`${environmentLine(env)}`, ''];
  lines.push('| scenario | measure | result | goal | met |', '|---|---|---|---|---|');
  for (const [name, r] of Object.entries(results)) {
    if (r.error) {
      lines.push(`| ${name} | error | ${escape(r.error)} | | NO |`);
      continue;
    }
    for (const row of r.rows) lines.push(`| ${name} | ${escape(row.measure)} | ${escape(row.result)} | ${escape(row.goal ?? '')} | ${mark(row.ok)} |`);
  }
  lines.push('', 'Parameters:', '', ...parameterLines(results).map((l) => `- ${escape(l)}`));
  return `${lines.join('\n')}\n`;
}

export function consoleTable(env, results) {
  const rows = [['scenario', 'measure', 'result', 'goal', 'met']];
  for (const [name, r] of Object.entries(results)) {
    if (r.error) rows.push([name, 'error', r.error, '', 'NO']);
    else for (const row of r.rows) rows.push([name, row.measure, row.result, row.goal ?? '', mark(row.ok)]);
  }
  const widths = rows[0].map((_, c) => Math.min(90, Math.max(...rows.map((r) => String(r[c]).length))));
  const fmt = (r) => r.map((cell, c) => String(cell).padEnd(widths[c])).join('  ').trimEnd();
  const out = [environmentLine(env), '', fmt(rows[0]), widths.map((w) => '-'.repeat(w)).join('  '), ...rows.slice(1).map(fmt), '', ...parameterLines(results)];
  return `${out.join('\n')}\n`;
}

function parameterLines(results) {
  return Object.entries(results)
    .filter(([, r]) => r.params)
    .map(([name, r]) => `${name}: ${r.params}; ${r.seconds.toFixed(0)} s, other processes used ${(r.foreign_cpu_share * 100).toFixed(0)} % of the machine meanwhile`);
}

const escape = (s) => String(s).replace(/\|/g, '\\|');

/**
 * JSON Schema validation of host configs and module configs (docs/inbox-api.md#schemas), with Ajv:
 * the JSON Schema validator the Node world maintains (and Fastify already ships), complete where a
 * hand-written subset would quietly accept what the schema forbids. Draft 2020-12 is the default
 * (what `z.toJSONSchema` writes); a schema whose `$schema` names draft-07 or draft-06 is read as such.
 *
 * Schemas come from svc itself or from a module the owner put in a module directory; they are
 * compiled once per text. Remote `$ref`s are never fetched, unknown formats and keywords are
 * ignored (Ajv's strict mode would refuse schemas other tools accept), and Ajv never logs.
 */
import { Ajv, type ErrorObject, type ValidateFunction } from 'ajv';
import { Ajv2020 } from 'ajv/dist/2020.js';
import type { Issue } from '../../core/index.js';

export type JsonSchema = Record<string, unknown>;

/** At most this many issues are reported for one value. */
const MAX_ISSUES = 20;
/** Compiled validators kept (by schema text); modules rarely change. */
const CACHE_SIZE = 200;

const options = { strict: false, allErrors: true, validateFormats: false, logger: false } as const;
const draft2020 = new Ajv2020(options);
const draft07 = new Ajv(options);
const cache = new Map<string, ValidateFunction>();

/** Why a schema cannot be used (not an object, or Ajv cannot compile it). */
export class SchemaError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'SchemaError';
  }
}

function compile(schema: unknown): ValidateFunction {
  if (typeof schema !== 'object' || schema === null || Array.isArray(schema)) throw new SchemaError('a JSON Schema must be an object');
  const text = JSON.stringify(schema);
  const cached = cache.get(text);
  if (cached) return cached;
  const dialect = String((schema as JsonSchema).$schema ?? '');
  const ajv = /draft-0[67]/.test(dialect) ? draft07 : draft2020;
  let fn: ValidateFunction;
  try {
    // A fresh copy: Ajv keeps a reference, and `$id`s must not clash across modules.
    const copy = JSON.parse(text) as JsonSchema;
    delete copy.$id;
    fn = ajv.compile(copy);
  } catch (err) {
    throw new SchemaError((err as Error).message.slice(0, 300));
  }
  if (cache.size >= CACHE_SIZE) cache.delete(cache.keys().next().value!);
  cache.set(text, fn);
  return fn;
}

/** Throws SchemaError when `schema` is not a usable JSON Schema. */
export function checkSchema(schema: unknown): void {
  compile(schema);
}

/**
 * The value's problems, each with a dot path under `prefix` (`config.moduleConfig.owner`) and a
 * message naming what is wrong; [] when it is valid.
 */
export function schemaIssues(schema: JsonSchema, value: unknown, prefix: string): Issue[] {
  const validate = compile(schema);
  if (validate(value)) return [];
  return (validate.errors ?? []).slice(0, MAX_ISSUES).map((e) => toIssue(e, prefix));
}

function toIssue(e: ErrorObject, prefix: string): Issue {
  const parts = e.instancePath
    .split('/')
    .slice(1)
    .map((p) => p.replace(/~1/g, '/').replace(/~0/g, '~'));
  const params = e.params as { missingProperty?: string; additionalProperty?: string; allowedValues?: unknown[] };
  if (e.keyword === 'required' && params.missingProperty) return { path: join(prefix, [...parts, params.missingProperty]), message: 'required' };
  if (e.keyword === 'additionalProperties' && params.additionalProperty) {
    return { path: join(prefix, [...parts, params.additionalProperty]), message: `unknown field ${params.additionalProperty}` };
  }
  if (e.keyword === 'enum' && params.allowedValues) return { path: join(prefix, parts), message: `must be one of ${params.allowedValues.map((v) => JSON.stringify(v)).join(', ')}` };
  return { path: join(prefix, parts), message: e.message ?? e.keyword };
}

function join(prefix: string, parts: string[]): string {
  return [prefix, ...parts].filter((p) => p !== '').join('.');
}

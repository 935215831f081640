import Ajv2020, { type ValidateFunction } from 'ajv/dist/2020';
import addFormats from 'ajv-formats';
import { buildOpenApiDocument } from '../../../apps/api/src/docs/openapi';
import { buildAsyncApiDocument, STREAM_CLOSES } from '../../../apps/api/src/docs/asyncapi';

/*
 * Every answer the e2e tests receive is checked against the service's own documents: the status
 * must be declared for the operation, the body must match that status's schema (every object
 * refuses undeclared fields), and the declared headers must be present and well-formed. Stream
 * frames must match the AsyncAPI messages, and refusal closes its close-code table.
 */

type Json = Record<string, unknown>;
const OPENAPI = buildOpenApiDocument();
const ASYNCAPI = buildAsyncApiDocument();
const ajv = new Ajv2020({ strict: false, allErrors: true });
addFormats(ajv);
ajv.addSchema(OPENAPI, 'openapi');
ajv.addSchema(ASYNCAPI, 'asyncapi');
const compiled = new Map<string, ValidateFunction>();
// Compiled up front: compiling on a stream's first frame would delay the frames a test times.
for (const name of ['RouteResult', 'StreamError']) validator(`asyncapi#/components/schemas/${name}`);

function validator(pointer: string): ValidateFunction {
  let v = compiled.get(pointer);
  if (v === undefined) {
    v = ajv.getSchema(pointer);
    if (v === undefined) throw new Error(`no schema at ${pointer}`);
    compiled.set(pointer, v);
  }
  return v;
}

const escape = (s: string): string => s.replace(/~/g, '~0').replace(/\//g, '~1');
const paths = OPENAPI.paths as Record<string, Record<string, Json>>;

/** The documented path template a raw request path falls under (segments compared undecoded). */
function templateOf(rawPath: string): string | null {
  const parts = rawPath.split('/');
  for (const template of Object.keys(paths)) {
    const t = template.split('/');
    if (t.length === parts.length && t.every((seg, i) => seg.startsWith('{') || seg === parts[i]))
      return template;
  }
  return null;
}

function check(v: ValidateFunction, value: unknown, what: string): void {
  if (!v(value))
    throw new Error(
      `${what} does not match the document: ${ajv.errorsText(v.errors)}\n${JSON.stringify(value).slice(0, 500)}`,
    );
}

/** Throws unless `status`, `headers` and `body` are what the OpenAPI document declares for the request. */
export function assertDocumented(
  method: string,
  url: string,
  status: number,
  headers: Headers,
  body: unknown,
): void {
  const rawPath = new URL(url).pathname;
  const template = templateOf(rawPath);
  const what = `${method} ${rawPath} ${status}`;
  const op = template === null ? undefined : paths[template]?.[method.toLowerCase()];
  if (method === 'HEAD') return;
  if (op === undefined) {
    // Paths outside the API answer 404 {"error"}; nothing else may be served undocumented.
    if (status !== 404) throw new Error(`${what}: no such operation in the document`);
    return check(validator('openapi#/components/schemas/Error'), body, what);
  }
  const responses = op.responses as Record<string, Json>;
  const response = responses[String(status)];
  if (response === undefined)
    throw new Error(`${what}: status not declared (declared: ${Object.keys(responses).join(', ')})`);
  const base = `openapi#/paths/${escape(template as string)}/${method.toLowerCase()}/responses/${status}`;
  for (const [name, h] of Object.entries((response.headers ?? {}) as Record<string, Json>)) {
    const declared = resolveHeader(h);
    const value = headers.get(name);
    if (value === null) {
      if (declared.required === true) throw new Error(`${what}: header ${name} missing`);
      continue;
    }
    const schema = declared.schema as Json;
    const typed = schema.type === 'integer' && /^-?\d+$/.test(value) ? Number(value) : value;
    if (!ajv.validate(schema, typed))
      throw new Error(`${what}: header ${name}=${value}: ${ajv.errorsText()}`);
  }
  const content = response.content as Record<string, Json> | undefined;
  if (content === undefined) {
    if (body !== '' && body !== undefined) throw new Error(`${what}: a body where none is declared`);
    return;
  }
  const type = (headers.get('content-type') ?? '').split(';')[0]!.trim();
  if (content[type] === undefined) throw new Error(`${what}: content-type ${type} not declared`);
  check(validator(`${base}/content/${escape(type)}/schema`), body, what);
}

function resolveHeader(h: Json): Json {
  if (typeof h.$ref !== 'string') return h;
  const name = h.$ref.replace('#/components/headers/', '');
  return (OPENAPI.components as { headers: Record<string, Json> }).headers[name] as Json;
}

/** Throws unless `frame` is a route frame or an error frame as the AsyncAPI document declares them. */
export function assertDocumentedFrame(frame: unknown): void {
  const isError = typeof frame === 'object' && frame !== null && 'error' in frame;
  check(
    validator(`asyncapi#/components/schemas/${isError ? 'StreamError' : 'RouteResult'}`),
    frame,
    'stream frame',
  );
}

/** Throws unless a close the server started after an error frame is one the document lists. */
export function assertDocumentedClose(code: number, reason: string, errorFrame: unknown): void {
  const listed = STREAM_CLOSES.some((c) => c.code === code && c.reason === reason);
  if (!listed) throw new Error(`stream close ${code} '${reason}' is not in the document's close table`);
  const e = errorFrame as { code?: number; reason?: string };
  if (e.code !== code || e.reason !== reason)
    throw new Error(`stream closed ${code} '${reason}' after an error frame naming ${e.code} '${e.reason}'`);
}

/** fetch that checks every answer against the document (for the generated client). */
export const documentedFetch = async (input: Request): Promise<Response> => {
  const res = await fetch(input);
  const text = await res.clone().text();
  const json = (res.headers.get('content-type') ?? '').includes('json') && text !== '';
  assertDocumented(input.method, input.url, res.status, res.headers, json ? JSON.parse(text) : text);
  return res;
};

import Ajv2020, { type ValidateFunction } from 'ajv/dist/2020';
import addFormats from 'ajv-formats';
import { buildOpenApiDocument } from '../../../apps/api/src/docs/openapi';
import { buildAsyncApiDocument, STREAM_CLOSES } from '../../../apps/api/src/docs/asyncapi';
import { GATE_RESPONSES } from '../../../apps/api/src/docs/responses';
import { V2_SERVER } from '../../../apps/api/src/docs/asyncapi-v2';

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
for (const name of ['RouteResult', 'StreamError', ...Object.values(V2_SERVER).map((s) => String(s.$id))])
  validator(`asyncapi#/components/schemas/${name}`);

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

const responseComponents = (OPENAPI.components as { responses: Record<string, Json> }).responses;

/** The shared answer (components/responses) of `status`, for a request that names no operation. */
function sharedResponse(status: number): [Json, string] | null {
  const name = Object.keys(GATE_RESPONSES).find((n) => GATE_RESPONSES[n]!.status === String(status));
  if (name === undefined || responseComponents[name] === undefined) return null;
  return [responseComponents[name], `openapi#/components/responses/${name}`];
}

/** Throws unless `status`, `headers` and `body` are what the OpenAPI document declares for the request. */
export function assertDocumented(
  method: string,
  url: string,
  status: number,
  headers: Headers,
  body: unknown,
): void {
  // A path, a full URL, or anything else (an asterisk-form or unparsed target: no operation).
  const rawPath = url.startsWith('/') ? url.split('?')[0]! : URL.canParse(url) ? new URL(url).pathname : '';
  const template = rawPath.startsWith('/') ? templateOf(rawPath) : null;
  const what = `${method} ${rawPath.slice(0, 80)} ${status}`;
  const op = template === null ? undefined : paths[template]?.[method.toLowerCase()];
  if (method === 'HEAD') return;
  let response: Json | undefined;
  let base: string;
  if (op === undefined) {
    // No operation (an unknown path, a method the path does not take, what did not parse as
    // HTTP): the answer must be one of the shared answers the document declares, by status.
    const shared = sharedResponse(status);
    if (shared === null) throw new Error(`${what}: no operation, and no shared answer of that status`);
    [response, base] = shared;
  } else {
    const responses = op.responses as Record<string, Json>;
    response = responses[String(status)];
    if (response === undefined)
      throw new Error(`${what}: status not declared (declared: ${Object.keys(responses).join(', ')})`);
    base = `openapi#/paths/${escape(template as string)}/${method.toLowerCase()}/responses/${status}`;
    if (typeof response.$ref === 'string') {
      const name = response.$ref.replace('#/components/responses/', '');
      response = responseComponents[name];
      base = `openapi#/components/responses/${name}`;
    }
  }
  for (const [name, h] of Object.entries((response!.headers ?? {}) as Record<string, Json>)) {
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
  const content = response!.content as Record<string, Json> | undefined;
  if (content === undefined) {
    if (body !== '' && body !== undefined) throw new Error(`${what}: a body where none is declared`);
    return;
  }
  const type = (headers.get('content-type') ?? '').split(';')[0]!.trim();
  if (content[type] === undefined) throw new Error(`${what}: content-type ${type} not declared`);
  check(validator(`${base}/content/${escape(type)}/schema`), body, what);
}

/**
 * Throws unless a raw answer is what the document declares for the raw request that got it: the
 * operation is read from the request line (origin-form target; Node also answers a line without
 * a version, or with another one, as that request); a request line that does not parse names no
 * operation.
 */
export function assertDocumentedRaw(
  request: string | Buffer,
  answer: { status: number; headers: Readonly<Record<string, string>>; body: string; json: unknown },
): void {
  const head = (typeof request === 'string' ? request : request.toString('latin1')).slice(0, 8192);
  const line = /^([!#$%&'*+.^_`|~0-9A-Za-z-]+) (\S+)(?: HTTP\/\d\.\d)?\r?\n/.exec(head);
  const method = line?.[1] ?? '';
  const target = line?.[2] ?? '';
  const headers = new Headers();
  for (const [name, value] of Object.entries(answer.headers)) headers.set(name, value);
  const json = (answer.headers['content-type'] ?? '').includes('json');
  assertDocumented(
    method,
    target.startsWith('/') ? target : '*',
    answer.status,
    headers,
    json ? answer.json : answer.body,
  );
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

/** Throws unless `message` is a routestream.v2 server message as the AsyncAPI document declares it. */
export function assertDocumentedV2Message(message: unknown): void {
  const type = (message as { type?: unknown }).type;
  if (typeof type !== 'string' || !Object.hasOwn(V2_SERVER, type))
    throw new Error(`v2 message of undocumented type: ${JSON.stringify(message).slice(0, 200)}`);
  const id = String(V2_SERVER[type as keyof typeof V2_SERVER].$id);
  check(validator(`asyncapi#/components/schemas/${id}`), message, `v2 ${type} message`);
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

import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import Ajv from 'ajv';
import Ajv2020 from 'ajv/dist/2020';
import addFormats from 'ajv-formats';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildAsyncApiDocument } from '../../apps/api/src/docs/asyncapi';
import { buildOpenApiDocument } from '../../apps/api/src/docs/openapi';
import { STREAM_PATH } from '../../apps/api/src/edge/front-door';
import { CLIENT_TYPES_PATH, generateClientTypes } from '../../scripts/client/generate';
import { startTestServer, type TestServer } from '../api/support/server';

// The documents themselves: valid against their specifications, every served route documented
// and every documented one served, every example a valid instance, and the committed client
// exactly what the document generates.
const ROOT = resolve(__dirname, '../..');
type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any -- documents under test
const openapi: Json = buildOpenApiDocument();
const asyncapi: Json = buildAsyncApiDocument();

let s: TestServer;
beforeAll(async () => {
  s = await startTestServer();
});
afterAll(() => s.close());

describe('the documents', () => {
  it('/openapi.json is a valid OpenAPI 3.1 document', async () => {
    const { Validator } = await import('@seriousme/openapi-schema-validator');
    const result = await new Validator().validate(structuredClone(openapi));
    expect(result.errors ?? []).toEqual([]);
    expect(result.valid).toBe(true);
  });

  it('/asyncapi.json is a valid AsyncAPI 3.0 document', () => {
    const schema = JSON.parse(
      readFileSync(resolve(ROOT, 'node_modules/@asyncapi/specs/schemas/3.0.0-without-$id.json'), 'utf8'),
    ) as object;
    const ajv = new Ajv({ strict: false, allErrors: true });
    addFormats(ajv);
    const validate = ajv.compile(schema);
    expect(validate(asyncapi) ? [] : validate.errors).toEqual([]);
  });

  it('the server serves exactly the documented operations, and the same documents', async () => {
    const fastify = s.server.app.getHttpAdapter().getInstance();
    // Every documented operation is a route the server registered...
    let documented = 0;
    for (const [path, item] of Object.entries(openapi.paths as Json))
      for (const method of Object.keys(item as Json)) {
        // The stream is not a Fastify route: the front door answers it (426 to plain HTTP) and
        // hands handshakes to the WebSocket server.
        if (path === STREAM_PATH) continue;
        documented++;
        const url = path.replace(/\{(\w+)\}/g, ':$1');
        expect(fastify.hasRoute({ method: method.toUpperCase(), url }), `${method} ${path}`).toBe(true);
      }
    // ...and the server registered no other (HEAD is Fastify's own for every GET).
    let served = 0;
    for (const m of fastify.printRoutes({ commonPrefix: false }).matchAll(/\(([A-Z, ]+)\)/g))
      served += m[1]!.split(', ').filter((method) => method !== 'HEAD').length;
    expect(served).toBe(documented);
    const plain = await fetch(`${s.url}${STREAM_PATH}`);
    expect([plain.status, plain.headers.get('upgrade')]).toEqual([426, 'websocket']);
    expect(await (await fetch(`${s.url}/openapi.json`)).json()).toEqual(openapi);
    expect(await (await fetch(`${s.url}/asyncapi.json`)).json()).toEqual(asyncapi);
  });

  it('every example in the documents is a valid instance of its schema', () => {
    const ajv = new Ajv2020({ strict: false, allErrors: true });
    addFormats(ajv);
    ajv.addSchema(openapi, 'openapi');
    let checked = 0;
    // The shared answers (components/responses) that every operation refers to.
    for (const [name, response] of Object.entries((openapi.components as Json).responses as Json))
      for (const [type, media] of Object.entries(((response as Json).content ?? {}) as Json)) {
        const validate = ajv.getSchema(
          `openapi#/components/responses/${name}/content/${type.replace(/\//g, '~1')}/schema`,
        )!;
        for (const [example, value] of Object.entries(((media as Json).examples ?? {}) as Json)) {
          checked++;
          expect(validate((value as Json).value), `${name} ${example}`).toBe(true);
        }
      }
    for (const [path, item] of Object.entries(openapi.paths as Json))
      for (const [method, op] of Object.entries(item as Json))
        for (const [status, response] of Object.entries((op as Json).responses as Json))
          for (const [type, media] of Object.entries(((response as Json).content ?? {}) as Json)) {
            const pointer = ['paths', path, method, 'responses', status, 'content', type, 'schema']
              .map((p) => p.replace(/~/g, '~0').replace(/\//g, '~1'))
              .join('/');
            const validate = ajv.getSchema(`openapi#/${pointer}`)!;
            for (const [name, example] of Object.entries(((media as Json).examples ?? {}) as Json)) {
              checked++;
              expect(validate((example as Json).value), `${method} ${path} ${status} ${name}`).toBe(true);
            }
          }
    expect(checked).toBeGreaterThanOrEqual(18);
  });

  it('the committed client (libs/client) is what the document generates (npm run client:generate)', async () => {
    const committed = readFileSync(resolve(ROOT, CLIENT_TYPES_PATH), 'utf8');
    expect(await generateClientTypes(openapi, ROOT)).toBe(committed);
  });
});

import { writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { buildOpenApiDocument } from '../../apps/api/src/docs/openapi';
import { CLIENT_TYPES_PATH, generateClientTypes } from './generate';

/** `npm run client:generate`: regenerate libs/client's types from the OpenAPI document. */
async function main(): Promise<void> {
  const root = resolve(__dirname, '../../..');
  const text = await generateClientTypes(buildOpenApiDocument(), root);
  writeFileSync(resolve(root, CLIENT_TYPES_PATH), text);
  process.stdout.write(`wrote ${CLIENT_TYPES_PATH}\n`);
}

main().catch((e: unknown) => {
  process.stderr.write(`${e instanceof Error ? (e.stack ?? e.message) : String(e)}\n`);
  process.exit(1);
});

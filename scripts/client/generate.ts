import openapiTS, { astToString } from 'openapi-typescript';
import { format, resolveConfig } from 'prettier';

/** Where the generated types live. */
export const CLIENT_TYPES_PATH = 'libs/client/src/openapi.ts';

const HEADER = `/*
 * Generated from the service's OpenAPI document by openapi-typescript: do not edit.
 * Regenerate with \`npm run client:generate\`; test/docs/client.int.spec.ts fails when this file
 * differs from what the document generates.
 */
/* eslint-disable */
`;

/** The TypeScript types of an OpenAPI document, formatted as the repository formats code. */
export async function generateClientTypes(document: object, root: string): Promise<string> {
  const ast = await openapiTS(document as Parameters<typeof openapiTS>[0], {
    alphabetize: false,
    exportType: false,
  });
  const path = `${root}/${CLIENT_TYPES_PATH}`;
  const options = (await resolveConfig(path)) ?? {};
  return format(HEADER + astToString(ast), { ...options, filepath: path });
}

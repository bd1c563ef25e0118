import { staticResources } from '@mcp-lambda/server';

/** URI of the server's own description, linked and embedded by the content gallery. */
export const ABOUT_URI = 'docs://server/about';

export const aboutText = `# mcp-lambda-template

A stateless MCP server on AWS Lambda. Tool outputs above a size threshold are stored in S3 and returned as
\`resource_link\` blocks; read them a page at a time with the \`read_output\` tool, or whole with \`resources/read\`.
`;

/** Fixed resources this server lists and serves. */
export const serverResources = staticResources([
  {
    uri: ABOUT_URI,
    name: 'about',
    title: 'About this server',
    mimeType: 'text/markdown',
    read: () => aboutText,
  },
]);

/** URI of the server's own description, linked and embedded by the content gallery. */
export const ABOUT_URI = 'docs://server/about';

/**
 * The server's own description: served as a resource (`resources.ts`) and embedded by the content gallery. Apart
 * from the resource provider, so the task worker (which runs the tools but serves no resources) does not load it.
 */
export const aboutText = `# mcp-lambda-template

A stateless MCP server on AWS Lambda. Tool outputs above a size threshold are stored in S3 and returned as
\`resource_link\` blocks; read them a page at a time with the \`read_output\` tool, or whole with \`resources/read\`.
`;

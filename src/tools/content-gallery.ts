import { defineTool } from '@mcp-lambda/server';
import { ABOUT_URI, aboutText } from '../about.ts';
import { encodePng, encodeToneWav } from './media.ts';

// Built on the first call and kept for the container's life: the blocks never change, and a cold start that
// never shows them does not pay for them.
let media: Promise<{ png: string; wav: string }> | undefined;
const exampleMedia = () =>
  (media ??= encodePng(16, 16, (x, y) => [x * 16, y * 16, 160]).then((image) => ({
    png: image.toString('base64'),
    wav: encodeToneWav(440, 250).toString('base64'),
  })));

/** Returns one block of each of the five content types, each with annotations, to show what a result can hold. */
export const contentGallery = defineTool({
  name: 'content_gallery',
  title: 'Content gallery',
  description:
    'Returns one example of every content block type: text, image, audio, resource link and embedded resource.',
  annotations: { readOnlyHint: true, idempotentHint: true, openWorldHint: false },
  handler: async () => {
    const { png, wav } = await exampleMedia();
    return {
      content: [
        {
          type: 'text',
          text: 'One block of each type follows.',
          annotations: { audience: ['user', 'assistant'], priority: 1 },
        },
        {
          type: 'image',
          data: png,
          mimeType: 'image/png',
          annotations: { audience: ['user'], priority: 0.5 },
        },
        {
          type: 'audio',
          data: wav,
          mimeType: 'audio/wav',
          annotations: { audience: ['user'], priority: 0.2 },
        },
        {
          type: 'resource_link',
          uri: ABOUT_URI,
          name: 'about',
          title: 'About this server',
          description: 'What this server is and how it treats large outputs',
          mimeType: 'text/markdown',
          size: Buffer.byteLength(aboutText),
          annotations: { audience: ['assistant'], priority: 0.8 },
        },
        {
          type: 'resource',
          resource: { uri: ABOUT_URI, mimeType: 'text/markdown', text: aboutText },
          annotations: { audience: ['assistant'], priority: 0.3, lastModified: '2026-11-22T00:00:00Z' },
        },
      ],
    };
  },
});

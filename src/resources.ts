import { staticResources } from '@mcp-lambda/server';
import { ABOUT_URI, aboutText } from './about.ts';

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
